// Windows side of net_interfaces.h: IP Helper's GetAdaptersAddresses, which gives each adapter's friendly
// name (what Gloo's GLOO_SOCKET_IFNAME takes there), its type, description, state and link speed.

#include "os/net_interfaces.h"

// Winsock first: windows.h would otherwise pull in the old winsock.h.
#include <winsock2.h>
#include <ws2tcpip.h>

#include <windows.h>

#include <iphlpapi.h>

#include <algorithm>
#include <cctype>
#include <vector>

namespace ddpdesk::os {

namespace {

std::string utf8(const wchar_t* w) {
    if (!w || !*w) return {};
    const int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, nullptr, 0, nullptr, nullptr);
    if (n <= 1) return {};
    std::string s(size_t(n), '\0');
    WideCharToMultiByte(CP_UTF8, 0, w, -1, s.data(), n, nullptr, nullptr);
    s.resize(size_t(n - 1));
    return s;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

// Why an adapter is virtual, or "": its type first, then what the drivers of Hyper-V, WSL, Docker, VPN
// clients and hypervisors write in its description.
std::string virtualWhy(const IP_ADAPTER_ADDRESSES& a) {
    if (a.IfType == IF_TYPE_TUNNEL || a.IfType == IF_TYPE_PPP) return "a tunnel (VPN)";
    const std::string d = lower(utf8(a.Description)) + " " + lower(utf8(a.FriendlyName));
    static const std::pair<const char*, const char*> words[] = {
        {"hyper-v", "a Hyper-V adapter"}, {"wsl", "a WSL adapter"},
        {"docker", "a Docker adapter"},   {"virtualbox", "a VirtualBox adapter"},
        {"vmware", "a VMware adapter"},   {"vpn", "a tunnel (VPN)"},
        {"tap-", "a tunnel (VPN)"},       {"wireguard", "a tunnel (VPN)"},
        {"tailscale", "a tunnel (VPN)"},  {"zerotier", "a tunnel (VPN)"},
        {"virtual", "a virtual adapter"}};
    for (const auto& [word, why] : words)
        if (d.find(word) != std::string::npos) return why;
    if (a.IfType == IF_TYPE_PROP_VIRTUAL) return "a virtual adapter";
    return {};
}

std::string numeric(const SOCKADDR* s) {
    char text[INET6_ADDRSTRLEN] = {};
    DWORD size = sizeof text;
    const int length = s->sa_family == AF_INET ? int(sizeof(sockaddr_in)) : int(sizeof(sockaddr_in6));
    if (WSAAddressToStringA(const_cast<SOCKADDR*>(s), DWORD(length), nullptr, text, &size) != 0) return {};
    std::string out = text;
    if (const auto percent = out.find('%'); percent != std::string::npos) out.resize(percent); // zone id
    return out;
}

} // namespace

std::vector<NetInterface> netInterfaces() {
    std::vector<NetInterface> out;
    ULONG size = 16 * 1024;
    std::vector<unsigned char> buffer;
    ULONG rc = ERROR_BUFFER_OVERFLOW;
    for (int attempt = 0; attempt < 4 && rc == ERROR_BUFFER_OVERFLOW; ++attempt) {
        buffer.resize(size);
        rc = GetAdaptersAddresses(AF_UNSPEC,
                                  GAA_FLAG_SKIP_ANYCAST | GAA_FLAG_SKIP_MULTICAST | GAA_FLAG_SKIP_DNS_SERVER,
                                  nullptr, reinterpret_cast<IP_ADAPTER_ADDRESSES*>(buffer.data()), &size);
    }
    if (rc != NO_ERROR) return out;
    for (auto* a = reinterpret_cast<IP_ADAPTER_ADDRESSES*>(buffer.data()); a; a = a->Next) {
        NetInterface i;
        i.name = utf8(a->FriendlyName);
        i.up = a->OperStatus == IfOperStatusUp;
        if (a->IfType == IF_TYPE_SOFTWARE_LOOPBACK) {
            i.kind = InterfaceKind::Loopback;
        } else if (const std::string why = virtualWhy(*a); !why.empty()) {
            i.kind = InterfaceKind::Virtual;
            i.kindWhy = why;
        } else if (a->IfType == IF_TYPE_IEEE80211) {
            i.kind = InterfaceKind::Wireless;
        }
        if (a->TransmitLinkSpeed != 0 && a->TransmitLinkSpeed != ULONG64(-1))
            i.speedMbps = std::int64_t(a->TransmitLinkSpeed / 1000000);
        for (const IP_ADAPTER_UNICAST_ADDRESS* u = a->FirstUnicastAddress; u; u = u->Next)
            if (u->Address.lpSockaddr) {
                const std::string text = numeric(u->Address.lpSockaddr);
                if (!text.empty()) i.addresses.push_back(text);
            }
        std::stable_partition(i.addresses.begin(), i.addresses.end(),
                              [](const std::string& s) { return s.find(':') == std::string::npos; });
        out.push_back(std::move(i));
    }
    return out;
}

} // namespace ddpdesk::os
