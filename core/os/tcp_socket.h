#pragma once

// The OS's TCP sockets, handle by handle: non-blocking, every wait bounded by the caller. The portable
// logic above them (resolving with a bound, trying each address, sending and receiving until one deadline,
// cancelling) is core/net's; these are only the OS calls, defined once in tcp_socket.cpp where both systems
// read alike (resolving, listening) and otherwise in tcp_socket_posix.cpp (poll, errno) and
// tcp_socket_win.cpp (Winsock's select, WSA errors). Error codes are the OS's own and only travel back here:
// socketErrorKind and socketErrorText read them.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ddpdesk::os {

using SocketClock = std::chrono::steady_clock;
using SocketDeadline = SocketClock::time_point;

// What an OS error code means to the code above; Other for everything it does not act on.
enum class SocketErrorKind { Retry, Reset, Refused, TimedOut, Unreachable, InUse, AccessDenied, Other };
SocketErrorKind socketErrorKind(int error);
std::string socketErrorText(int error); // the OS's words and its number

// Milliseconds left until `deadline`, rounded up (0 when it has passed; a day for "no deadline").
std::chrono::milliseconds timeLeft(SocketDeadline deadline);

// One connected stream socket, non-blocking; closed on destruction.
class TcpSocket {
public:
    enum class Wait { Ready, TimedOut, Failed };
    struct Io {
        long long bytes = 0; // < 0: failed, see error
        int error = 0;
    };
    explicit TcpSocket(std::intptr_t handle) : m_handle(handle) {}
    ~TcpSocket();
    TcpSocket(const TcpSocket&) = delete;
    TcpSocket& operator=(const TcpSocket&) = delete;

    // Readable (or writable), closed or failed all count as ready: the next send/recv says which.
    Wait waitReady(bool forWrite, std::chrono::milliseconds timeout);
    int lastWaitError() const { return m_waitError; }
    Io sendSome(const char* data, std::size_t size);
    Io recvSome(char* data, std::size_t size);

private:
    std::intptr_t m_handle; // a file descriptor, or a Winsock SOCKET
    int m_waitError = 0;
};

// A listening socket; closed on destruction.
class TcpListenSocket {
public:
    TcpListenSocket(std::intptr_t handle, int port) : m_handle(handle), m_port(port) {}
    ~TcpListenSocket();
    TcpListenSocket(const TcpListenSocket&) = delete;
    TcpListenSocket& operator=(const TcpListenSocket&) = delete;

    int port() const { return m_port; }
    // The next connection (non-blocking, no Nagle delay), or nullptr: none within `timeout` (error empty) or
    // the socket failed (error says how). A peer that gave up before it was accepted is no failure.
    std::unique_ptr<TcpSocket> accept(std::chrono::milliseconds timeout, std::string& error);

private:
    std::intptr_t m_handle;
    int m_port;
};

// Whether `host` is a numeric address: one that answers without asking any resolver.
bool isNumericHost(const std::string& host);

struct HostAddresses {
    bool ok = false;
    std::vector<std::string> addresses; // numeric, IPv4 and IPv6, each once
    std::string error;
};
// getaddrinfo, blocking, without a bound of its own.
HostAddresses resolveBlocking(const std::string& host);

struct SocketConnect {
    int error = 0;             // 0: connected
    bool socketFailed = false; // no socket could be made (error says why), nothing was tried
    std::string address;       // the numeric address tried
    std::unique_ptr<TcpSocket> socket;
};
// One connection attempt to a numeric address, bounded by `deadline`. false when `numeric` is not numeric
// (out untouched).
bool connectNumeric(const std::string& numeric, int port, SocketDeadline deadline, SocketConnect& out);

// Binds (not listens) one family's wildcard address on `port` the way a TCPStore server would, then releases
// it: 0, or the OS's error code. 0 where the family is not supported here: nothing to conflict with.
int bindWildcard(bool ipv6, int port);

struct SocketListen {
    std::unique_ptr<TcpListenSocket> listener;
    std::string error; // the OS's words, e.g. "Address already in use"
};
// Binds one numeric address and listens; port 0 takes one the OS hands out. Windows holds the port with
// SO_EXCLUSIVEADDRUSE, so nobody can bind it beside us; POSIX sets SO_REUSEADDR only, as c10d does, so a
// rerun is not blocked by TIME_WAIT.
SocketListen listenTcp(const std::string& numeric, int port);

// True when `numeric` is an address of this machine (a socket can be bound to it).
bool isLocalAddress(const std::string& numeric);
std::string localHostName();
// A port the OS hands out now for the wildcard address; 0 when none could be obtained.
int pickFreePort();

// getaddrinfo lists an address once per socket type/protocol; callers want each address once.
void addUnique(std::vector<std::string>& addresses, const std::string& address);

} // namespace ddpdesk::os
