// The OS-independent parts of net_socket.h.

#include "net/net_socket.h"

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

} // namespace ddpdesk::net
