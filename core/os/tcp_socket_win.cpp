// Windows half of tcp_socket.h: Winsock non-blocking sockets driven by select() so every wait is bounded.

#include "os/tcp_socket.h"
#include "os/tcp_socket_shim.h"

#include <winsock2.h>
#include <ws2tcpip.h>

#include <mutex>

namespace ddpdesk::os {

namespace {

SOCKET socketOf(std::intptr_t handle) {
    return static_cast<SOCKET>(handle);
}

std::intptr_t handleOf(SOCKET s) {
    return static_cast<std::intptr_t>(s);
}

// select() with a timeout; returns >0 ready, 0 timeout, <0 error
int waitSocket(SOCKET s, bool forWrite, std::chrono::milliseconds timeout, bool* failed = nullptr) {
    fd_set rw, ex;
    FD_ZERO(&rw);
    FD_ZERO(&ex);
    FD_SET(s, &rw);
    FD_SET(s, &ex);
    timeval tv{static_cast<long>(timeout.count() / 1000), static_cast<long>((timeout.count() % 1000) * 1000)};
    const int rc = select(0, forWrite ? nullptr : &rw, forWrite ? &rw : nullptr, &ex, &tv);
    if (failed) *failed = rc > 0 && FD_ISSET(s, &ex);
    return rc;
}

void setNonBlocking(SOCKET s) {
    u_long nonBlocking = 1;
    ioctlsocket(s, FIONBIO, &nonBlocking);
}

} // namespace

namespace detail {

void ensureSockets() {
    static std::once_flag once;
    std::call_once(once, [] {
        WSADATA data;
        WSAStartup(MAKEWORD(2, 2), &data);
    });
}

int lastSocketError() {
    return WSAGetLastError();
}

std::string resolveErrorText(int rc) {
    return socketErrorText(rc); // Winsock's getaddrinfo returns WSA error codes
}

bool openStreamSocket(int family, std::intptr_t& handle) {
    const SOCKET s = socket(family, SOCK_STREAM, IPPROTO_TCP);
    handle = handleOf(s);
    return s != INVALID_SOCKET;
}

bool openListenSocket(int family, std::intptr_t& handle, int& error) {
    const SOCKET s = socket(family, SOCK_STREAM, IPPROTO_TCP);
    handle = handleOf(s);
    error = s == INVALID_SOCKET ? WSAGetLastError() : 0;
    if (s == INVALID_SOCKET) return false;
    // Without it another program could bind the same port with SO_REUSEADDR and take our clients.
    BOOL one = TRUE;
    setsockopt(s, SOL_SOCKET, SO_EXCLUSIVEADDRUSE, reinterpret_cast<const char*>(&one), sizeof one);
    if (family == AF_INET6)
        setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, reinterpret_cast<const char*>(&one), sizeof one);
    setNonBlocking(s);
    return true;
}

void closeSocket(std::intptr_t handle) {
    closesocket(socketOf(handle));
}

} // namespace detail

SocketErrorKind socketErrorKind(int error) {
    switch (error) {
    case WSAEWOULDBLOCK:
    case WSAEINTR:
        return SocketErrorKind::Retry;
    case WSAECONNRESET:
        return SocketErrorKind::Reset;
    case WSAECONNREFUSED:
        return SocketErrorKind::Refused;
    case WSAETIMEDOUT:
        return SocketErrorKind::TimedOut;
    case WSAENETUNREACH:
    case WSAEHOSTUNREACH:
        return SocketErrorKind::Unreachable;
    case WSAEADDRINUSE:
        return SocketErrorKind::InUse;
    case WSAEACCES: // on bind: the port lies in an excluded range (Hyper-V/WinNAT reservations)
        return SocketErrorKind::AccessDenied;
    default:
        return SocketErrorKind::Other;
    }
}

std::string socketErrorText(int error) {
    char buf[256] = {0};
    FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr,
                   static_cast<DWORD>(error), 0, buf, sizeof buf, nullptr);
    std::string text(buf);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
        text.pop_back();
    return text + " (WSA error " + std::to_string(error) + ")";
}

TcpSocket::~TcpSocket() {
    closesocket(socketOf(m_handle));
}

TcpSocket::Wait TcpSocket::waitReady(bool forWrite, std::chrono::milliseconds timeout) {
    const int rc = waitSocket(socketOf(m_handle), forWrite, timeout);
    m_waitError = rc < 0 ? WSAGetLastError() : 0;
    return rc > 0 ? Wait::Ready : rc == 0 ? Wait::TimedOut : Wait::Failed;
}

TcpSocket::Io TcpSocket::sendSome(const char* data, std::size_t size) {
    const int n = send(socketOf(m_handle), data, static_cast<int>(size), 0);
    return {n, n == SOCKET_ERROR ? WSAGetLastError() : 0};
}

TcpSocket::Io TcpSocket::recvSome(char* data, std::size_t size) {
    const int n = recv(socketOf(m_handle), data, static_cast<int>(size), 0);
    return {n, n == SOCKET_ERROR ? WSAGetLastError() : 0};
}

TcpListenSocket::~TcpListenSocket() {
    closesocket(socketOf(m_handle));
}

std::unique_ptr<TcpSocket> TcpListenSocket::accept(std::chrono::milliseconds timeout, std::string& error) {
    error.clear();
    bool failed = false;
    const int rc = waitSocket(socketOf(m_handle), false, timeout, &failed);
    if (rc <= 0 || failed) {
        if (rc < 0 || failed) error = socketErrorText(WSAGetLastError());
        return nullptr;
    }
    const SOCKET s = ::accept(socketOf(m_handle), nullptr, nullptr);
    if (s == INVALID_SOCKET) {
        const int err = WSAGetLastError();
        if (err != WSAEWOULDBLOCK && err != WSAECONNRESET) error = socketErrorText(err);
        return nullptr;
    }
    setNonBlocking(s);
    BOOL one = TRUE;
    setsockopt(s, IPPROTO_TCP, TCP_NODELAY, reinterpret_cast<const char*>(&one), sizeof one);
    return std::make_unique<TcpSocket>(handleOf(s));
}

bool connectNumeric(const std::string& numeric, int port, SocketDeadline deadline, SocketConnect& out) {
    addrinfo* ai = detail::numericAddrinfo(numeric, port);
    if (!ai) return false;
    out.address = detail::numericAddress(ai);
    out.socketFailed = false;
    const SOCKET s = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
    int err = 0;
    if (s == INVALID_SOCKET) {
        out.socketFailed = true;
        err = WSAGetLastError();
        if (err == 0) err = -1;
    } else {
        setNonBlocking(s);
        if (connect(s, ai->ai_addr, static_cast<int>(ai->ai_addrlen)) == SOCKET_ERROR) {
            err = WSAGetLastError();
            if (err == WSAEWOULDBLOCK) {
                bool failed = false;
                const auto left = timeLeft(deadline);
                const int wrc = left.count() > 0 ? waitSocket(s, true, left, &failed) : 0;
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
        if (err == 0)
            out.socket = std::make_unique<TcpSocket>(handleOf(s));
        else
            closesocket(s);
    }
    freeaddrinfo(ai);
    out.error = err;
    return true; // tried: out says how it went
}

int bindWildcard(bool ipv6, int port) {
    detail::ensureSockets();
    const int family = ipv6 ? AF_INET6 : AF_INET;
    const SOCKET s = socket(family, SOCK_STREAM, IPPROTO_TCP);
    if (s == INVALID_SOCKET) {
        const int err = WSAGetLastError();
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
    const int err = rc == 0 ? 0 : WSAGetLastError();
    closesocket(s);
    return err;
}

} // namespace ddpdesk::os
