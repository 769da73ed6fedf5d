// The OS-independent parts of net_socket.h; the OS calls under them are in net_socket_os.h's halves.

#include "net/net_socket.h"
#include "net/net_socket_os.h"
#include "os/bounded_call.h"

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

Resolved resolveHost(const std::string& host, Millis timeout) {
    if (detail::isNumericHost(host)) return detail::resolveBlocking(host);
    if (auto r = os::callBounded<Resolved>([host] { return detail::resolveBlocking(host); }, timeout))
        return *r;
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
    for (const std::string& numeric : resolved.addresses)
        if (detail::connectNumeric(numeric, port, deadline, result)) break;
    return result;
}

BindResult tryBind(int port) {
    BindResult r;
    for (bool ipv6 : {false, true}) {
        const int err = detail::bindWildcard(ipv6, port);
        if (err == 0) continue;
        r.error = detail::socketErrorText(err);
        r.status = detail::bindStatusOf(err);
        return r;
    }
    r.status = BindStatus::Free;
    return r;
}

} // namespace ddpdesk::net
