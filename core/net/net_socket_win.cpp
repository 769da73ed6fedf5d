// Windows side of net_socket.h: Winsock non-blocking sockets driven by select() so every wait is bounded.

#include "net/net_socket.h"
#include "net/net_socket_os.h"
#include "net/stream_connection.h"

#include <winsock2.h>
#include <ws2tcpip.h>

#include <mutex>

namespace ddpdesk::net {

namespace {

void ensureWinsock() {
    static std::once_flag once;
    std::call_once(once, [] {
        WSADATA data;
        WSAStartup(MAKEWORD(2, 2), &data);
    });
}

std::string wsaText(int err) {
    char buf[256] = {0};
    FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr,
                   static_cast<DWORD>(err), 0, buf, sizeof buf, nullptr);
    std::string text(buf);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
        text.pop_back();
    return text + " (WSA error " + std::to_string(err) + ")";
}

std::string numericAddress(const sockaddr* sa, int len) {
    char host[NI_MAXHOST] = {0};
    if (getnameinfo(sa, len, host, sizeof host, nullptr, 0, NI_NUMERICHOST) != 0) return "?";
    return host;
}

// select() with a timeout; returns >0 ready, 0 timeout, <0 error
int waitSocket(SOCKET s, bool forWrite, Millis timeout, bool* failed = nullptr) {
    fd_set rw, ex;
    FD_ZERO(&rw);
    FD_ZERO(&ex);
    FD_SET(s, &rw);
    FD_SET(s, &ex);
    timeval tv{static_cast<long>(timeout.count() / 1000), static_cast<long>((timeout.count() % 1000) * 1000)};
    int rc = select(0, forWrite ? nullptr : &rw, forWrite ? &rw : nullptr, &ex, &tv);
    if (failed) *failed = rc > 0 && FD_ISSET(s, &ex);
    return rc;
}

class WinConnection final : public detail::StreamConnection {
public:
    explicit WinConnection(SOCKET s) : m_socket(s) {}
    ~WinConnection() override { closesocket(m_socket); }

protected:
    Wait waitReady(bool forWrite, Millis timeout) override {
        int rc = waitSocket(m_socket, forWrite, timeout);
        m_waitError = rc < 0 ? WSAGetLastError() : 0;
        return rc > 0 ? Wait::Ready : rc == 0 ? Wait::TimedOut : Wait::Failed;
    }
    Io sendSome(const char* data, std::size_t size) override {
        int n = send(m_socket, data, static_cast<int>(size), 0);
        return {n, n == SOCKET_ERROR ? WSAGetLastError() : 0};
    }
    Io recvSome(char* data, std::size_t size) override {
        int n = recv(m_socket, data, static_cast<int>(size), 0);
        return {n, n == SOCKET_ERROR ? WSAGetLastError() : 0};
    }
    bool isRetryable(int error) const override { return error == WSAEWOULDBLOCK || error == WSAEINTR; }
    bool isReset(int error) const override { return error == WSAECONNRESET; }
    std::string errorText(int error) const override { return wsaText(error); }
    int lastWaitError() const override { return m_waitError; }

private:
    SOCKET m_socket;
    int m_waitError = 0;
};

// A numeric address as a socket address, without asking any resolver.
addrinfo* numericAddrinfo(const std::string& numeric, int port) {
    ensureWinsock();
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
    addrinfo* res = nullptr;
    const std::string service = std::to_string(port);
    return getaddrinfo(numeric.c_str(), service.c_str(), &hints, &res) == 0 ? res : nullptr;
}

} // namespace

bool isLocalAddress(const std::string& numeric) {
    addrinfo* ai = numericAddrinfo(numeric, 0);
    if (!ai) return false;
    bool local = false;
    SOCKET s = socket(ai->ai_family, SOCK_STREAM, IPPROTO_TCP);
    if (s != INVALID_SOCKET) {
        // WSAEADDRNOTAVAIL: not an address of this machine
        local = bind(s, ai->ai_addr, static_cast<int>(ai->ai_addrlen)) == 0;
        closesocket(s);
    }
    freeaddrinfo(ai);
    return local;
}

std::string localHostName() {
    ensureWinsock();
    char name[256] = {0};
    if (gethostname(name, sizeof name - 1) != 0) return {};
    return name;
}

namespace {

// One connection attempt, bounded by `deadline`; 0 on success (result.connection set), else the WSA error.
int connectOne(const addrinfo* ai, TimePoint deadline, ConnectResult& result) {
    result.address = numericAddress(ai->ai_addr, static_cast<int>(ai->ai_addrlen));
    SOCKET s = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
    if (s == INVALID_SOCKET) {
        const int err = WSAGetLastError();
        result.status = ConnectStatus::Error;
        result.error = "socket failed: " + wsaText(err);
        return err ? err : -1;
    }
    u_long nonBlocking = 1;
    ioctlsocket(s, FIONBIO, &nonBlocking);
    int err = 0;
    if (connect(s, ai->ai_addr, static_cast<int>(ai->ai_addrlen)) == SOCKET_ERROR) {
        err = WSAGetLastError();
        if (err == WSAEWOULDBLOCK) {
            bool failed = false;
            const Millis left = detail::timeLeft(deadline);
            int wrc = left.count() > 0 ? waitSocket(s, true, left, &failed) : 0;
            if (wrc == 0) {
                err = WSAETIMEDOUT;
            } else if (failed || wrc < 0) {
                int len = sizeof err;
                getsockopt(s, SOL_SOCKET, SO_ERROR, reinterpret_cast<char*>(&err), &len);
                if (err == 0) err = WSAECONNREFUSED;
            } else {
                err = 0;
            }
        }
    }
    if (err == 0) {
        result.status = ConnectStatus::Connected;
        result.error.clear();
        result.connection = std::make_unique<WinConnection>(s);
        return 0;
    }
    closesocket(s);
    result.error = wsaText(err);
    if (err == WSAECONNREFUSED)
        result.status = ConnectStatus::Refused;
    else if (err == WSAETIMEDOUT)
        result.status = ConnectStatus::TimedOut;
    else if (err == WSAENETUNREACH || err == WSAEHOSTUNREACH)
        result.status = ConnectStatus::Unreachable;
    else
        result.status = ConnectStatus::Error;
    return err;
}

} // namespace

namespace detail {

bool isNumericHost(const std::string& host) {
    addrinfo* numeric = numericAddrinfo(host, 0);
    if (numeric) freeaddrinfo(numeric);
    return numeric != nullptr;
}

Resolved resolveBlocking(const std::string& host) {
    ensureWinsock();
    Resolved r;
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    int rc = getaddrinfo(host.c_str(), nullptr, &hints, &res);
    if (rc != 0) {
        r.error = wsaText(rc);
        return r;
    }
    for (addrinfo* ai = res; ai; ai = ai->ai_next) {
        detail::addUnique(r.addresses, numericAddress(ai->ai_addr, static_cast<int>(ai->ai_addrlen)));
    }
    freeaddrinfo(res);
    r.ok = !r.addresses.empty();
    return r;
}

bool connectNumeric(const std::string& numeric, int port, TimePoint deadline, ConnectResult& result) {
    addrinfo* ai = numericAddrinfo(numeric, port);
    if (!ai) return false;
    const int err = connectOne(ai, deadline, result);
    freeaddrinfo(ai);
    return err == 0;
}

int bindWildcard(bool ipv6, int port) {
    ensureWinsock();
    const int family = ipv6 ? AF_INET6 : AF_INET;
    SOCKET s = socket(family, SOCK_STREAM, IPPROTO_TCP);
    if (s == INVALID_SOCKET) {
        int err = WSAGetLastError();
        return err == WSAEAFNOSUPPORT ? 0 : err;
    }
    // Exclusive use so another socket's SO_REUSEADDR cannot make an occupied port look free.
    BOOL one = TRUE;
    setsockopt(s, SOL_SOCKET, SO_EXCLUSIVEADDRUSE, reinterpret_cast<const char*>(&one), sizeof one);
    int rc;
    if (family == AF_INET6) {
        DWORD zero = 0;
        setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, reinterpret_cast<const char*>(&zero), sizeof zero);
        sockaddr_in6 a{};
        a.sin6_family = AF_INET6;
        a.sin6_addr = in6addr_any;
        a.sin6_port = htons(static_cast<u_short>(port));
        rc = bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
    } else {
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_ANY);
        a.sin_port = htons(static_cast<u_short>(port));
        rc = bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
    }
    int err = rc == 0 ? 0 : WSAGetLastError();
    closesocket(s);
    return err;
}

BindStatus bindStatusOf(int error) {
    // WSAEACCES (10013) on bind: the port lies in an excluded range (Hyper-V/WinNAT reservations).
    return error == WSAEADDRINUSE ? BindStatus::InUse
           : error == WSAEACCES   ? BindStatus::AccessDenied
                                  : BindStatus::Error;
}

std::string socketErrorText(int error) {
    return wsaText(error);
}

} // namespace detail

int pickFreePort() {
    ensureWinsock();
    SOCKET s = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
    if (s == INVALID_SOCKET) return 0;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_ANY);
    int len = sizeof a;
    int port = 0;
    if (bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
        getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) == 0)
        port = ntohs(a.sin_port);
    closesocket(s);
    return port;
}

namespace {

class WinListener final : public Listener {
public:
    WinListener(SOCKET s, int port) : m_socket(s), m_port(port) {}
    ~WinListener() override { closesocket(m_socket); }
    int port() const override { return m_port; }
    std::unique_ptr<Connection> accept(Millis timeout) override {
        m_error.clear();
        bool failed = false;
        const int rc = waitSocket(m_socket, false, timeout, &failed);
        if (rc <= 0 || failed) {
            if (rc < 0 || failed) m_error = wsaText(WSAGetLastError());
            return nullptr;
        }
        SOCKET s = ::accept(m_socket, nullptr, nullptr);
        if (s == INVALID_SOCKET) {
            const int err = WSAGetLastError();
            if (err != WSAEWOULDBLOCK && err != WSAECONNRESET) m_error = wsaText(err);
            return nullptr;
        }
        u_long nonBlocking = 1;
        ioctlsocket(s, FIONBIO, &nonBlocking);
        BOOL one = TRUE;
        setsockopt(s, IPPROTO_TCP, TCP_NODELAY, reinterpret_cast<const char*>(&one), sizeof one);
        return std::make_unique<WinConnection>(s);
    }
    std::string lastError() const override { return m_error; }

private:
    SOCKET m_socket;
    int m_port;
    std::string m_error;
};

} // namespace

ListenResult listenTcp(const std::string& numeric, int port) {
    ensureWinsock();
    ListenResult r;
    addrinfo* ai = numericAddrinfo(numeric, port);
    if (!ai) {
        r.error = "not a numeric address: " + numeric;
        return r;
    }
    SOCKET s = socket(ai->ai_family, SOCK_STREAM, IPPROTO_TCP);
    int err = s == INVALID_SOCKET ? WSAGetLastError() : 0;
    if (err == 0) {
        // Without it another program could bind the same port with SO_REUSEADDR and take our clients.
        BOOL one = TRUE;
        setsockopt(s, SOL_SOCKET, SO_EXCLUSIVEADDRUSE, reinterpret_cast<const char*>(&one), sizeof one);
        if (ai->ai_family == AF_INET6)
            setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, reinterpret_cast<const char*>(&one), sizeof one);
        u_long nonBlocking = 1;
        ioctlsocket(s, FIONBIO, &nonBlocking);
        if (bind(s, ai->ai_addr, static_cast<int>(ai->ai_addrlen)) != 0 || listen(s, 128) != 0)
            err = WSAGetLastError();
    }
    freeaddrinfo(ai);
    sockaddr_storage bound{};
    int len = sizeof bound;
    if (err == 0 && getsockname(s, reinterpret_cast<sockaddr*>(&bound), &len) != 0) err = WSAGetLastError();
    if (err != 0) {
        if (s != INVALID_SOCKET) closesocket(s);
        r.error = wsaText(err);
        return r;
    }
    const int actual = bound.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port)
                                                   : ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
    r.listener = std::make_unique<WinListener>(s, actual);
    return r;
}

} // namespace ddpdesk::net
