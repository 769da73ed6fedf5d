// POSIX half of tcp_socket.h: non-blocking sockets driven by poll() so every wait is bounded.

#include "os/tcp_socket.h"
#include "os/tcp_socket_shim.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace ddpdesk::os {

namespace {

int fdOf(std::intptr_t handle) {
    return static_cast<int>(handle);
}

int pollOne(int fd, short events, std::chrono::milliseconds timeout) {
    pollfd pfd{fd, events, 0};
    int rc;
    do {
        rc = ::poll(&pfd, 1, static_cast<int>(timeout.count()));
    } while (rc < 0 && errno == EINTR);
    return rc;
}

} // namespace

namespace detail {

void ensureSockets() {}

int lastSocketError() {
    return errno;
}

std::string resolveErrorText(int rc) {
    return gai_strerror(rc);
}

bool openStreamSocket(int family, std::intptr_t& handle) {
    handle = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    return handle >= 0;
}

bool openListenSocket(int family, std::intptr_t& handle, int& error) {
    const int fd = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    handle = fd;
    error = fd < 0 ? errno : 0;
    if (fd < 0) return false;
    // SO_REUSEADDR only, as c10d does, so a rerun is not blocked by TIME_WAIT.
    int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (family == AF_INET6) ::setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
    return true;
}

void closeSocket(std::intptr_t handle) {
    ::close(fdOf(handle));
}

} // namespace detail

SocketErrorKind socketErrorKind(int error) {
    switch (error) {
    case EINTR:
    case EAGAIN:
#if EWOULDBLOCK != EAGAIN
    case EWOULDBLOCK:
#endif
        return SocketErrorKind::Retry;
    case ECONNRESET:
        return SocketErrorKind::Reset;
    case ECONNREFUSED:
        return SocketErrorKind::Refused;
    case ETIMEDOUT:
        return SocketErrorKind::TimedOut;
    case ENETUNREACH:
    case EHOSTUNREACH:
        return SocketErrorKind::Unreachable;
    case EADDRINUSE:
        return SocketErrorKind::InUse;
    case EACCES:
    case EPERM:
        return SocketErrorKind::AccessDenied;
    default:
        return SocketErrorKind::Other;
    }
}

std::string socketErrorText(int error) {
    return std::string(std::strerror(error)) + " (errno " + std::to_string(error) + ")";
}

TcpSocket::~TcpSocket() {
    ::close(fdOf(m_handle));
}

TcpSocket::Wait TcpSocket::waitReady(bool forWrite, std::chrono::milliseconds timeout) {
    const int rc = pollOne(fdOf(m_handle), static_cast<short>(forWrite ? POLLOUT : POLLIN), timeout);
    m_waitError = rc < 0 ? errno : 0;
    return rc > 0 ? Wait::Ready : rc == 0 ? Wait::TimedOut : Wait::Failed;
}

TcpSocket::Io TcpSocket::sendSome(const char* data, std::size_t size) {
    const ssize_t n = ::send(fdOf(m_handle), data, size, MSG_NOSIGNAL);
    return {n, n < 0 ? errno : 0};
}

TcpSocket::Io TcpSocket::recvSome(char* data, std::size_t size) {
    const ssize_t n = ::recv(fdOf(m_handle), data, size, 0);
    return {n, n < 0 ? errno : 0};
}

TcpListenSocket::~TcpListenSocket() {
    ::close(fdOf(m_handle));
}

std::unique_ptr<TcpSocket> TcpListenSocket::accept(std::chrono::milliseconds timeout, std::string& error) {
    error.clear();
    pollfd pfd{fdOf(m_handle), POLLIN, 0};
    const int rc = ::poll(&pfd, 1, static_cast<int>(timeout.count()));
    if (rc <= 0) {
        if (rc < 0 && errno != EINTR) error = socketErrorText(errno);
        return nullptr;
    }
    const int fd = ::accept4(fdOf(m_handle), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0) {
        // the peer gave up between poll and accept: not the listener's failure
        if (errno != EAGAIN && errno != ECONNABORTED && errno != EINTR) error = socketErrorText(errno);
        return nullptr;
    }
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return std::make_unique<TcpSocket>(fd);
}

bool connectNumeric(const std::string& numeric, int port, SocketDeadline deadline, SocketConnect& out) {
    addrinfo* ai = detail::numericAddrinfo(numeric, port);
    if (!ai) return false;
    out.address = detail::numericAddress(ai);
    out.socketFailed = false;
    const int fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    int err = 0;
    if (fd < 0) {
        out.socketFailed = true;
        err = errno ? errno : -1;
    } else {
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
        if (::connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
            err = errno;
            if (err == EINPROGRESS) {
                const auto left = timeLeft(deadline);
                const int prc = left.count() > 0 ? pollOne(fd, POLLOUT, left) : 0;
                if (prc == 0) {
                    err = ETIMEDOUT;
                } else {
                    socklen_t len = sizeof err;
                    ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
                }
            }
        }
        if (err == 0)
            out.socket = std::make_unique<TcpSocket>(fd);
        else
            ::close(fd);
    }
    ::freeaddrinfo(ai);
    out.error = err;
    return true; // tried: out says how it went
}

int bindWildcard(bool ipv6, int port) {
    const int family = ipv6 ? AF_INET6 : AF_INET;
    const int fd = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return errno == EAFNOSUPPORT ? 0 : errno; // no IPv6 here: nothing to conflict with
    int one = 1;
    // TCPStore sets SO_REUSEADDR too, so TIME_WAIT leftovers must not count as "in use".
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    int rc;
    if (family == AF_INET6) {
        int zero = 0;
        ::setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);
        sockaddr_in6 a{};
        a.sin6_family = AF_INET6;
        a.sin6_addr = in6addr_any;
        a.sin6_port = htons(static_cast<uint16_t>(port));
        rc = ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    } else {
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_ANY);
        a.sin_port = htons(static_cast<uint16_t>(port));
        rc = ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    }
    const int err = rc == 0 ? 0 : errno;
    ::close(fd);
    return err;
}

} // namespace ddpdesk::os
