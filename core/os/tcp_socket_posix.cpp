// POSIX half of tcp_socket.h: non-blocking sockets driven by poll() so every wait is bounded.

#include "os/tcp_socket.h"

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

std::string numericAddress(const sockaddr* sa, socklen_t len) {
    char host[NI_MAXHOST] = {0};
    if (getnameinfo(sa, len, host, sizeof host, nullptr, 0, NI_NUMERICHOST) != 0) return "?";
    return host;
}

// A numeric address as a socket address, without asking any resolver.
addrinfo* numericAddrinfo(const std::string& numeric, int port) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
    addrinfo* res = nullptr;
    const std::string service = std::to_string(port);
    return ::getaddrinfo(numeric.c_str(), service.c_str(), &hints, &res) == 0 ? res : nullptr;
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

bool isNumericHost(const std::string& host) {
    addrinfo* numeric = numericAddrinfo(host, 0);
    if (numeric) ::freeaddrinfo(numeric);
    return numeric != nullptr;
}

HostAddresses resolveBlocking(const std::string& host) {
    HostAddresses r;
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    const int rc = ::getaddrinfo(host.c_str(), nullptr, &hints, &res);
    if (rc != 0) {
        r.error = gai_strerror(rc);
        return r;
    }
    for (addrinfo* ai = res; ai; ai = ai->ai_next)
        addUnique(r.addresses, numericAddress(ai->ai_addr, ai->ai_addrlen));
    ::freeaddrinfo(res);
    r.ok = !r.addresses.empty();
    return r;
}

bool connectNumeric(const std::string& numeric, int port, SocketDeadline deadline, SocketConnect& out) {
    addrinfo* ai = numericAddrinfo(numeric, port);
    if (!ai) return false;
    out.address = numericAddress(ai->ai_addr, ai->ai_addrlen);
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

SocketListen listenTcp(const std::string& numeric, int port) {
    SocketListen r;
    addrinfo* ai = numericAddrinfo(numeric, port);
    if (!ai) {
        r.error = "not a numeric address: " + numeric;
        return r;
    }
    const int fd = ::socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    int err = fd < 0 ? errno : 0;
    if (fd >= 0) {
        int one = 1;
        ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (ai->ai_family == AF_INET6) ::setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
        if (::bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || ::listen(fd, 128) != 0) err = errno;
    }
    ::freeaddrinfo(ai);
    sockaddr_storage bound{};
    socklen_t len = sizeof bound;
    if (err == 0 && ::getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len) != 0) err = errno;
    if (err != 0) {
        if (fd >= 0) ::close(fd);
        r.error = socketErrorText(err);
        return r;
    }
    const int actual = bound.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port)
                                                   : ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
    r.listener = std::make_unique<TcpListenSocket>(fd, actual);
    return r;
}

bool isLocalAddress(const std::string& numeric) {
    addrinfo* ai = numericAddrinfo(numeric, 0);
    if (!ai) return false;
    bool local = false;
    const int fd = ::socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0) {
        local = ::bind(fd, ai->ai_addr, ai->ai_addrlen) == 0; // EADDRNOTAVAIL: not an address of this machine
        ::close(fd);
    }
    ::freeaddrinfo(ai);
    return local;
}

std::string localHostName() {
    char name[256] = {0};
    if (::gethostname(name, sizeof name - 1) != 0) return {};
    return name;
}

int pickFreePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return 0;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_ANY);
    a.sin_port = 0;
    int port = 0;
    socklen_t len = sizeof a;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
        port = ntohs(a.sin_port);
    ::close(fd);
    return port;
}

} // namespace ddpdesk::os
