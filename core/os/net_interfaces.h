#pragma once

// This machine's network interfaces, as the OS lists them: what Gloo's traffic goes through and what else
// could carry it (the scaling diagnosis's WRONG_INTERFACE). Linux reads getifaddrs and /sys/class/net
// (net_interfaces_posix.cpp), Windows GetAdaptersAddresses (net_interfaces_win.cpp).

#include <cstdint>
#include <string>
#include <vector>

namespace ddpdesk::os {

enum class InterfaceKind {
    Loopback,
    Wired,    // an Ethernet adapter, a container's veth end
    Wireless, // Wi-Fi
    Virtual,  // a bridge, a tunnel or VPN, a Hyper-V / Docker / VirtualBox / WSL adapter
};

struct NetInterface {
    std::string name; // what GLOO_SOCKET_IFNAME / --iface takes: "eth0"; Windows' friendly name "Ethernet 2"
    InterfaceKind kind = InterfaceKind::Wired;
    std::string kindWhy;                // for Virtual: "a bridge", "a tunnel (VPN)", "a Hyper-V adapter"
    std::vector<std::string> addresses; // numeric, IPv4 then IPv6
    bool up = false;                    // administratively up with a carrier
    std::int64_t speedMbps = -1;        // the link's nominal speed; -1 where the OS does not say
};

// Every interface, in the OS's order. Empty where the OS cannot be asked.
std::vector<NetInterface> netInterfaces();

inline const char* interfaceKindName(InterfaceKind kind) {
    switch (kind) {
    case InterfaceKind::Loopback:
        return "loopback";
    case InterfaceKind::Wired:
        return "wired";
    case InterfaceKind::Wireless:
        return "wireless";
    case InterfaceKind::Virtual:
        return "virtual";
    }
    return "wired";
}

} // namespace ddpdesk::os
