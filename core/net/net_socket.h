#pragma once

// Portable, bounded TCP client primitives for the probes (net_socket.cpp, over core/os's sockets,
// os/tcp_socket.h). Every call takes a timeout: a dropped port must cost the
// diagnosis seconds, never minutes.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ddpdesk::net {

using Millis = std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;
using TimePoint = Clock::time_point;

struct Resolved {
    bool ok = false;
    std::vector<std::string> addresses; // numeric, IPv4 and IPv6
    std::string error;
};
// getaddrinfo has no timeout of its own: it runs in a detached helper thread, abandoned after `timeout` (a
// numeric address answers at once).
Resolved resolveHost(const std::string& host, Millis timeout);

bool isLoopbackAddress(const std::string& numeric); // 127.0.0.0/8, ::1, ::ffff:127.x
bool isWildcardAddress(const std::string& numeric); // 0.0.0.0, ::, ::ffff:0.0.0.0
// True when `numeric` is an address of this machine (a socket can be bound to it).
bool isLocalAddress(const std::string& numeric);
std::string localHostName();

enum class ConnectStatus { Connected, Refused, TimedOut, Unreachable, Unresolved, Error };
const char* connectStatusName(ConnectStatus s);

// One connected TCP stream; closed on destruction.
class Connection {
public:
    virtual ~Connection() = default;
    // false on timeout, error or peer close; then lastError() says which. `deadline` is absolute: a peer that
    // trickles one byte at a time cannot stretch the call past it.
    virtual bool sendAll(const void* data, std::size_t size, TimePoint deadline) = 0;
    virtual bool recvExact(void* data, std::size_t size, TimePoint deadline) = 0;
    // One byte, sent now or not at all (a full send buffer: false at once, nothing sent): a server can answer
    // a waiting client from another client's thread without ever blocking that thread.
    virtual bool sendByteNow(char byte) = 0;
    virtual bool peerClosed() const = 0; // the last failed recv saw an orderly close
    virtual bool timedOut() const = 0; // the last failed call ran into its deadline (nothing else went wrong)
    virtual std::string lastError() const = 0;
    // Ends every call in progress on this connection, and every later one, within kCancelSlice, from any
    // thread: a server stopping never waits for a peer's half-sent frame to reach its deadline.
    virtual void cancel() = 0;
    static constexpr Millis kCancelSlice{100};
};

struct ConnectResult {
    ConnectStatus status = ConnectStatus::Error;
    std::string address; // the numeric address tried last
    std::string error;
    std::unique_ptr<Connection> connection;
};
// `timeout` bounds name resolution and the connection attempts together.
ConnectResult connectTcp(const std::string& host, int port, Millis timeout);

enum class BindStatus { Free, InUse, AccessDenied, Error };
struct BindResult {
    BindStatus status = BindStatus::Error;
    std::string error;
};
// Tries to bind (not listen) the wildcard address on `port` the way a TCPStore server would, then releases
// it.
BindResult tryBind(int port);

// A port the OS hands out now for the wildcard address; 0 when none could be obtained.
int pickFreePort();

// A listening TCP socket; closed on destruction. Accepted connections have the same bounded calls as
// connectTcp's.
class Listener {
public:
    virtual ~Listener() = default;
    virtual int port() const = 0;
    // The next connection, or nullptr when none came within `timeout` (lastError() is empty then) or the
    // socket failed.
    virtual std::unique_ptr<Connection> accept(Millis timeout) = 0;
    virtual std::string lastError() const = 0;
};
struct ListenResult {
    std::unique_ptr<Listener> listener;
    std::string error; // the OS's words, e.g. "Address already in use"
};
// Binds one numeric address (127.0.0.1 / ::1 for loopback only; 0.0.0.0 / :: only when the user asked for the
// network) and listens; port 0 takes one the OS hands out. The port is held exclusively: on Windows
// SO_EXCLUSIVEADDRUSE, so nobody can bind it beside us; on POSIX SO_REUSEADDR only, as c10d does, so a rerun
// is not blocked by TIME_WAIT.
ListenResult listenTcp(const std::string& numeric, int port);

} // namespace ddpdesk::net
