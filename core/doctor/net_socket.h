#pragma once

// Portable, bounded TCP client primitives for the probes (implemented in net_socket_posix.cpp /
// net_socket_win.cpp). Every call takes a timeout: a dropped port must cost the diagnosis seconds, never
// minutes.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ddpdesk::doctor::net {

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
    virtual bool peerClosed() const = 0; // the last failed recv saw an orderly close
    virtual std::string lastError() const = 0;
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

} // namespace ddpdesk::doctor::net
