// net_socket.h over core/os's sockets (os/tcp_socket.h): the bounds, the order addresses are tried in and
// what an OS error means to a probe are decided here, once for every OS.

#include "net/net_socket.h"
#include "net/stream_connection.h"
#include "os/bounded_call.h"
#include "os/tcp_socket.h"

namespace ddpdesk::net {

bool isLoopbackAddress(const std::string& a) {
    return a.rfind("127.", 0) == 0 || a == "::1" || a.rfind("::ffff:127.", 0) == 0;
}

bool isWildcardAddress(const std::string& a) {
    return a == "0.0.0.0" || a == "::" || a == "::ffff:0.0.0.0";
}

const char* connectStatusName(ConnectStatus s) {
    switch (s) {
    case ConnectStatus::Connected:
        return "connected";
    case ConnectStatus::Refused:
        return "refused";
    case ConnectStatus::TimedOut:
        return "timed out";
    case ConnectStatus::Unreachable:
        return "unreachable";
    case ConnectStatus::Unresolved:
        return "unresolved";
    case ConnectStatus::Error:
        return "error";
    }
    return "error";
}

namespace {

Resolved resolveNow(const std::string& host) {
    os::HostAddresses a = os::resolveBlocking(host);
    Resolved r;
    r.ok = a.ok;
    r.addresses = std::move(a.addresses);
    r.error = std::move(a.error);
    return r;
}

ConnectStatus connectStatusOf(const os::SocketConnect& attempt) {
    if (attempt.error == 0) return ConnectStatus::Connected;
    if (attempt.socketFailed) return ConnectStatus::Error;
    switch (os::socketErrorKind(attempt.error)) {
    case os::SocketErrorKind::Refused:
        return ConnectStatus::Refused;
    case os::SocketErrorKind::TimedOut:
        return ConnectStatus::TimedOut;
    case os::SocketErrorKind::Unreachable:
        return ConnectStatus::Unreachable;
    default:
        return ConnectStatus::Error;
    }
}

// Accepted connections get the same bounded calls as connectTcp's.
class SocketListener final : public Listener {
public:
    explicit SocketListener(std::unique_ptr<os::TcpListenSocket> socket) : m_socket(std::move(socket)) {}
    int port() const override { return m_socket->port(); }
    std::unique_ptr<Connection> accept(Millis timeout) override {
        std::unique_ptr<os::TcpSocket> s = m_socket->accept(timeout, m_error);
        if (!s) return nullptr;
        return std::make_unique<detail::StreamConnection>(std::move(s));
    }
    std::string lastError() const override { return m_error; }

private:
    std::unique_ptr<os::TcpListenSocket> m_socket;
    std::string m_error;
};

} // namespace

bool isLocalAddress(const std::string& numeric) {
    return os::isLocalAddress(numeric);
}

std::string localHostName() {
    return os::localHostName();
}

int pickFreePort() {
    return os::pickFreePort();
}

Resolved resolveHost(const std::string& host, Millis timeout) {
    if (os::isNumericHost(host)) return resolveNow(host);
    if (auto r = os::callBounded<Resolved>([host] { return resolveNow(host); }, timeout)) return *r;
    Resolved r;
    r.error = "no answer from name resolution within " + std::to_string(timeout.count()) + " ms";
    return r;
}

ConnectResult connectTcp(const std::string& host, int port, Millis timeout) {
    ConnectResult result;
    const TimePoint deadline = Clock::now() + timeout;
    const Resolved resolved = resolveHost(host, timeout);
    if (!resolved.ok) {
        result.status = ConnectStatus::Unresolved;
        result.error = resolved.error;
        return result;
    }
    result.status = ConnectStatus::Unreachable;
    for (const std::string& numeric : resolved.addresses) {
        os::SocketConnect attempt;
        if (!os::connectNumeric(numeric, port, deadline, attempt)) continue;
        result.address = attempt.address;
        result.status = connectStatusOf(attempt);
        if (attempt.socket) {
            result.error.clear();
            result.connection = std::make_unique<detail::StreamConnection>(std::move(attempt.socket));
            break;
        }
        result.error = (attempt.socketFailed ? "socket failed: " : "") + os::socketErrorText(attempt.error);
    }
    return result;
}

BindResult tryBind(int port) {
    BindResult r;
    for (bool ipv6 : {false, true}) {
        const int err = os::bindWildcard(ipv6, port);
        if (err == 0) continue;
        r.error = os::socketErrorText(err);
        switch (os::socketErrorKind(err)) {
        case os::SocketErrorKind::InUse:
            r.status = BindStatus::InUse;
            break;
        case os::SocketErrorKind::AccessDenied:
            r.status = BindStatus::AccessDenied;
            break;
        default:
            r.status = BindStatus::Error;
        }
        return r;
    }
    r.status = BindStatus::Free;
    return r;
}

ListenResult listenTcp(const std::string& numeric, int port) {
    os::SocketListen s = os::listenTcp(numeric, port);
    ListenResult r;
    r.error = std::move(s.error);
    if (s.listener) r.listener = std::make_unique<SocketListener>(std::move(s.listener));
    return r;
}

} // namespace ddpdesk::net
