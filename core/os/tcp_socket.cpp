// The parts of tcp_socket.h that read the same on every OS: getaddrinfo, getnameinfo, bind and listen behave
// alike on both, so only the calls in tcp_socket_shim.h differ.

#include "os/tcp_socket.h"
#include "os/tcp_socket_shim.h"

#include <algorithm>

#ifdef _WIN32
#include "os/socket_headers_win.h"
#else
#include "os/socket_headers_posix.h"
#endif

namespace ddpdesk::os {

namespace {

using detail::NativeSocket;

NativeSocket nativeOf(std::intptr_t handle) {
    return static_cast<NativeSocket>(handle);
}

} // namespace

namespace detail {

addrinfo* numericAddrinfo(const std::string& numeric, int port) {
    ensureSockets();
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
    addrinfo* res = nullptr;
    const std::string service = std::to_string(port);
    return ::getaddrinfo(numeric.c_str(), service.c_str(), &hints, &res) == 0 ? res : nullptr;
}

std::string numericAddress(const addrinfo* ai) {
    char host[NI_MAXHOST] = {0};
    if (::getnameinfo(ai->ai_addr, static_cast<socklen_t>(ai->ai_addrlen), host, sizeof host, nullptr, 0,
                      NI_NUMERICHOST) != 0)
        return "?";
    return host;
}

} // namespace detail

std::chrono::milliseconds timeLeft(SocketDeadline deadline) {
    using std::chrono::milliseconds;
    const auto now = SocketClock::now();
    if (deadline <= now) return milliseconds(0);
    if (deadline == SocketDeadline::max()) return milliseconds(24LL * 3600 * 1000);
    return std::chrono::ceil<milliseconds>(deadline - now);
}

void addUnique(std::vector<std::string>& addresses, const std::string& address) {
    if (std::find(addresses.begin(), addresses.end(), address) == addresses.end())
        addresses.push_back(address);
}

bool isNumericHost(const std::string& host) {
    addrinfo* numeric = detail::numericAddrinfo(host, 0);
    if (numeric) ::freeaddrinfo(numeric);
    return numeric != nullptr;
}

HostAddresses resolveBlocking(const std::string& host) {
    detail::ensureSockets();
    HostAddresses r;
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    const int rc = ::getaddrinfo(host.c_str(), nullptr, &hints, &res);
    if (rc != 0) {
        r.error = detail::resolveErrorText(rc);
        return r;
    }
    for (addrinfo* ai = res; ai; ai = ai->ai_next)
        addUnique(r.addresses, detail::numericAddress(ai));
    ::freeaddrinfo(res);
    r.ok = !r.addresses.empty();
    return r;
}

SocketListen listenTcp(const std::string& numeric, int port) {
    SocketListen r;
    addrinfo* ai = detail::numericAddrinfo(numeric, port);
    if (!ai) {
        r.error = "not a numeric address: " + numeric;
        return r;
    }
    std::intptr_t handle = 0;
    int err = 0;
    const bool opened = detail::openListenSocket(ai->ai_family, handle, err);
    if (opened && (::bind(nativeOf(handle), ai->ai_addr, static_cast<socklen_t>(ai->ai_addrlen)) != 0 ||
                   ::listen(nativeOf(handle), 128) != 0))
        err = detail::lastSocketError();
    ::freeaddrinfo(ai);
    sockaddr_storage bound{};
    socklen_t len = sizeof bound;
    if (err == 0 && ::getsockname(nativeOf(handle), reinterpret_cast<sockaddr*>(&bound), &len) != 0)
        err = detail::lastSocketError();
    if (err != 0) {
        if (opened) detail::closeSocket(handle);
        r.error = socketErrorText(err);
        return r;
    }
    const int actual = bound.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port)
                                                   : ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
    r.listener = std::make_unique<TcpListenSocket>(handle, actual);
    return r;
}

bool isLocalAddress(const std::string& numeric) {
    addrinfo* ai = detail::numericAddrinfo(numeric, 0);
    if (!ai) return false;
    bool local = false;
    std::intptr_t handle = 0;
    if (detail::openStreamSocket(ai->ai_family, handle)) {
        // EADDRNOTAVAIL: not an address of this machine
        local = ::bind(nativeOf(handle), ai->ai_addr, static_cast<socklen_t>(ai->ai_addrlen)) == 0;
        detail::closeSocket(handle);
    }
    ::freeaddrinfo(ai);
    return local;
}

std::string localHostName() {
    detail::ensureSockets();
    char name[256] = {0};
    if (::gethostname(name, sizeof name - 1) != 0) return {};
    return name;
}

int pickFreePort() {
    detail::ensureSockets();
    std::intptr_t handle = 0;
    if (!detail::openStreamSocket(AF_INET, handle)) return 0;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_ANY);
    a.sin_port = 0;
    int port = 0;
    socklen_t len = sizeof a;
    if (::bind(nativeOf(handle), reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
        ::getsockname(nativeOf(handle), reinterpret_cast<sockaddr*>(&a), &len) == 0)
        port = ntohs(a.sin_port);
    detail::closeSocket(handle);
    return port;
}

} // namespace ddpdesk::os
