// POSIX side of net_interfaces.h: getifaddrs for the addresses and flags, /sys/class/net for what kind of
// link each is and its speed (Linux; elsewhere the kind comes from the name alone).

#include "os/net_interfaces.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace ddpdesk::os {

namespace {

namespace fs = std::filesystem;

std::string readLine(const fs::path& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

bool startsWith(const std::string& s, const char* prefix) {
    return s.rfind(prefix, 0) == 0;
}

// Why an interface is a virtual adapter, or "": what the kernel says of it first, then the names that
// Docker, libvirt, VPN clients and hypervisors give theirs.
std::string virtualWhy(const std::string& name) {
    const fs::path sys = fs::path("/sys/class/net") / name;
    std::error_code ec;
    if (fs::exists(sys / "bridge", ec)) return "a bridge";
    if (fs::exists(sys / "tun_flags", ec)) return "a tunnel (VPN)";
    if (readLine(sys / "type") == "65534") return "a tunnel (VPN)"; // ARPHRD_NONE: WireGuard, tun
    static const std::pair<const char*, const char*> names[] = {
        {"docker", "a Docker bridge"}, {"br-", "a Docker bridge"},          {"virbr", "a libvirt bridge"},
        {"vmnet", "a VMware adapter"}, {"vboxnet", "a VirtualBox adapter"}, {"tailscale", "a tunnel (VPN)"},
        {"wg", "a tunnel (VPN)"},      {"tun", "a tunnel (VPN)"},           {"tap", "a tunnel (VPN)"},
        {"zt", "a tunnel (VPN)"},      {"utun", "a tunnel (VPN)"},          {"ppp", "a tunnel (VPN)"}};
    for (const auto& [prefix, why] : names)
        if (startsWith(name, prefix)) return why;
    return {};
}

std::string numeric(const sockaddr* a) {
    char text[INET6_ADDRSTRLEN] = {};
    if (a->sa_family == AF_INET)
        inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(a)->sin_addr, text, sizeof text);
    else if (a->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(a)->sin6_addr, text, sizeof text);
    return text;
}

} // namespace

std::vector<NetInterface> netInterfaces() {
    std::vector<NetInterface> out;
    ifaddrs* list = nullptr;
    if (getifaddrs(&list) != 0) return out;
    auto find = [&out](const std::string& name) -> NetInterface& {
        for (NetInterface& i : out)
            if (i.name == name) return i;
        out.push_back(NetInterface{});
        out.back().name = name;
        return out.back();
    };
    for (const ifaddrs* a = list; a; a = a->ifa_next) {
        if (!a->ifa_name) continue;
        NetInterface& i = find(a->ifa_name);
        const unsigned flags = a->ifa_flags;
        i.up = (flags & IFF_UP) && (flags & IFF_RUNNING);
        if (flags & IFF_LOOPBACK) i.kind = InterfaceKind::Loopback;
        if (a->ifa_addr && (a->ifa_addr->sa_family == AF_INET || a->ifa_addr->sa_family == AF_INET6)) {
            const std::string text = numeric(a->ifa_addr);
            if (!text.empty()) i.addresses.push_back(text);
        }
    }
    freeifaddrs(list);
    for (NetInterface& i : out) {
        std::stable_partition(i.addresses.begin(), i.addresses.end(),
                              [](const std::string& s) { return s.find(':') == std::string::npos; });
        if (i.kind == InterfaceKind::Loopback) continue;
        const fs::path sys = fs::path("/sys/class/net") / i.name;
        std::error_code ec;
        if (const std::string why = virtualWhy(i.name); !why.empty()) {
            i.kind = InterfaceKind::Virtual;
            i.kindWhy = why;
        } else if (fs::exists(sys / "wireless", ec)) {
            i.kind = InterfaceKind::Wireless;
        }
        // Reading speed fails (EINVAL) on a link that is down or does not know it.
        const std::string speed = readLine(sys / "speed");
        if (!speed.empty() && speed.size() <= 12 &&
            speed.find_first_not_of("0123456789") == std::string::npos)
            i.speedMbps = std::stoll(speed);
    }
    return out;
}

} // namespace ddpdesk::os
