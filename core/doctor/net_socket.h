#pragma once

// Portable, bounded TCP client primitives for the probes (implemented in net_socket_posix.cpp / net_socket_win.cpp).
// Every call takes a timeout: a dropped port must cost the diagnosis seconds, never minutes.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ddpdesk::doctor::net {

using Millis = std::chrono::milliseconds;

struct Resolved {
    bool ok = false;
    std::vector<std::string> addresses; // numeric, IPv4 and IPv6
    std::string error;
};
Resolved resolveHost(const std::string& host);

bool isLoopbackAddress(const std::string& numeric); // 127.0.0.0/8, ::1, ::ffff:127.x
std::string localHostName();

enum class ConnectStatus { Connected, Refused, TimedOut, Unreachable, Unresolved, Error };
const char* connectStatusName(ConnectStatus s);

// One connected TCP stream; closed on destruction.
class Connection {
public:
    virtual ~Connection() = default;
    // false on timeout, error or peer close; then lastError() says which
    virtual bool sendAll(const void* data, std::size_t size, Millis timeout) = 0;
    virtual bool recvExact(void* data, std::size_t size, Millis timeout) = 0;
    virtual bool peerClosed() const = 0; // the last failed recv saw an orderly close
    virtual std::string lastError() const = 0;
};

struct ConnectResult {
    ConnectStatus status = ConnectStatus::Error;
    std::string address; // the numeric address tried last
    std::string error;
    std::unique_ptr<Connection> connection;
};
ConnectResult connectTcp(const std::string& host, int port, Millis timeout);

enum class BindStatus { Free, InUse, AccessDenied, Error };
struct BindResult {
    BindStatus status = BindStatus::Error;
    std::string error;
};
// Tries to bind (not listen) the wildcard address on `port` the way a TCPStore server would, then releases it.
BindResult tryBind(int port);

// A port the OS hands out now for the wildcard address; 0 when none could be obtained.
int pickFreePort();

} // namespace ddpdesk::doctor::net
