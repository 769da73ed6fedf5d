// POSIX side of net_socket.h: non-blocking sockets driven by poll() so every wait is bounded.

#include "net/net_socket.h"
#include "net/net_socket_os.h"
#include "net/stream_connection.h"

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

namespace ddpdesk::net {

namespace {

std::string errnoText(int err) {
    return std::string(std::strerror(err)) + " (errno " + std::to_string(err) + ")";
}

std::string numericAddress(const sockaddr* sa, socklen_t len) {
    char host[NI_MAXHOST] = {0};
    if (getnameinfo(sa, len, host, sizeof host, nullptr, 0, NI_NUMERICHOST) != 0) return "?";
    return host;
}

class PosixConnection final : public detail::StreamConnection {
public:
    explicit PosixConnection(int fd) : m_fd(fd) {}
    ~PosixConnection() override { ::close(m_fd); }

protected:
    Wait waitReady(bool forWrite, Millis timeout) override {
        pollfd pfd{m_fd, static_cast<short>(forWrite ? POLLOUT : POLLIN), 0};
        int rc;
        do {
            rc = ::poll(&pfd, 1, static_cast<int>(timeout.count()));
        } while (rc < 0 && errno == EINTR);
        m_waitError = rc < 0 ? errno : 0;
        // readable/hangup/error all count as ready: recv/send then report the details
        return rc > 0 ? Wait::Ready : rc == 0 ? Wait::TimedOut : Wait::Failed;
    }
    Io sendSome(const char* data, std::size_t size) override {
        ssize_t n = ::send(m_fd, data, size, MSG_NOSIGNAL);
        return {n, n < 0 ? errno : 0};
    }
    Io recvSome(char* data, std::size_t size) override {
        ssize_t n = ::recv(m_fd, data, size, 0);
        return {n, n < 0 ? errno : 0};
    }
    bool isRetryable(int error) const override {
        return error == EINTR || error == EAGAIN || error == EWOULDBLOCK;
    }
    bool isReset(int error) const override { return error == ECONNRESET; }
    std::string errorText(int error) const override { return errnoText(error); }
    int lastWaitError() const override { return m_waitError; }

private:
    int m_fd;
    int m_waitError = 0;
};

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

} // namespace

bool isLocalAddress(const std::string& numeric) {
    addrinfo* ai = numericAddrinfo(numeric, 0);
    if (!ai) return false;
    bool local = false;
    int fd = ::socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
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

namespace {

// One connection attempt, bounded by `deadline`; 0 on success (result.connection set), else the errno.
int connectOne(const addrinfo* ai, TimePoint deadline, ConnectResult& result) {
    result.address = numericAddress(ai->ai_addr, ai->ai_addrlen);
    int fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) {
        result.status = ConnectStatus::Error;
        result.error = "socket failed: " + errnoText(errno);
        return errno ? errno : -1;
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    int err = 0;
    if (::connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
        err = errno;
        if (err == EINPROGRESS) {
            pollfd pfd{fd, POLLOUT, 0};
            int prc = 0;
            do {
                const Millis left = detail::timeLeft(deadline);
                prc = left.count() > 0 ? ::poll(&pfd, 1, static_cast<int>(left.count())) : 0;
            } while (prc < 0 && errno == EINTR);
            if (prc == 0) {
                err = ETIMEDOUT;
            } else {
                socklen_t len = sizeof err;
                ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
            }
        }
    }
    if (err == 0) {
        result.status = ConnectStatus::Connected;
        result.error.clear();
        result.connection = std::make_unique<PosixConnection>(fd);
        return 0;
    }
    ::close(fd);
    result.error = errnoText(err);
    if (err == ECONNREFUSED)
        result.status = ConnectStatus::Refused;
    else if (err == ETIMEDOUT)
        result.status = ConnectStatus::TimedOut;
    else if (err == ENETUNREACH || err == EHOSTUNREACH)
        result.status = ConnectStatus::Unreachable;
    else
        result.status = ConnectStatus::Error;
    return err;
}

} // namespace

namespace detail {

bool isNumericHost(const std::string& host) {
    addrinfo* numeric = numericAddrinfo(host, 0);
    if (numeric) ::freeaddrinfo(numeric);
    return numeric != nullptr;
}

Resolved resolveBlocking(const std::string& host) {
    Resolved r;
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    int rc = ::getaddrinfo(host.c_str(), nullptr, &hints, &res);
    if (rc != 0) {
        r.error = gai_strerror(rc);
        return r;
    }
    for (addrinfo* ai = res; ai; ai = ai->ai_next) {
        detail::addUnique(r.addresses, numericAddress(ai->ai_addr, ai->ai_addrlen));
    }
    ::freeaddrinfo(res);
    r.ok = !r.addresses.empty();
    return r;
}

bool connectNumeric(const std::string& numeric, int port, TimePoint deadline, ConnectResult& result) {
    addrinfo* ai = numericAddrinfo(numeric, port);
    if (!ai) return false;
    const int err = connectOne(ai, deadline, result);
    ::freeaddrinfo(ai);
    return err == 0;
}

int bindWildcard(bool ipv6, int port) {
    const int family = ipv6 ? AF_INET6 : AF_INET;
    int fd = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
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
    int err = rc == 0 ? 0 : errno;
    ::close(fd);
    return err;
}

BindStatus bindStatusOf(int error) {
    return error == EADDRINUSE                   ? BindStatus::InUse
           : (error == EACCES || error == EPERM) ? BindStatus::AccessDenied
                                                 : BindStatus::Error;
}

std::string socketErrorText(int error) {
    return errnoText(error);
}

} // namespace detail

int pickFreePort() {
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
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

namespace {

class PosixListener final : public Listener {
public:
    PosixListener(int fd, int port) : m_fd(fd), m_port(port) {}
    ~PosixListener() override { ::close(m_fd); }
    int port() const override { return m_port; }
    std::unique_ptr<Connection> accept(Millis timeout) override {
        m_error.clear();
        pollfd pfd{m_fd, POLLIN, 0};
        const int rc = ::poll(&pfd, 1, static_cast<int>(timeout.count()));
        if (rc <= 0) {
            if (rc < 0 && errno != EINTR) m_error = errnoText(errno);
            return nullptr;
        }
        const int fd = ::accept4(m_fd, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0) {
            // the peer gave up between poll and accept: not the listener's failure
            if (errno != EAGAIN && errno != ECONNABORTED && errno != EINTR) m_error = errnoText(errno);
            return nullptr;
        }
        int one = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        return std::make_unique<PosixConnection>(fd);
    }
    std::string lastError() const override { return m_error; }

private:
    int m_fd;
    int m_port;
    std::string m_error;
};

} // namespace

ListenResult listenTcp(const std::string& numeric, int port) {
    ListenResult r;
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
        r.error = errnoText(err);
        return r;
    }
    const int actual = bound.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port)
                                                   : ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
    r.listener = std::make_unique<PosixListener>(fd, actual);
    return r;
}

} // namespace ddpdesk::net
