#include "protocol/store_spec.h"
#include "os/utf8_path.h"

#include <algorithm>
#include <cctype>

namespace ddpdesk::protocol {

namespace {

bool startsWith(const std::string& s, const std::string& prefix) {
    return s.compare(0, prefix.size(), prefix) == 0;
}

bool isDrive(const std::string& s, std::size_t at) {
    return s.size() > at + 1 && std::isalpha(static_cast<unsigned char>(s[at])) && s[at + 1] == ':';
}

int parsePort(const std::string& text) {
    if (text.empty() || text.size() > 5) return -1;
    for (char c : text)
        if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
    int value = std::stoi(text);
    return value <= 65535 ? value : -1;
}

StoreSpec parseTcp(const std::string& rest) {
    StoreSpec a;
    a.kind = StoreSpec::Kind::Tcp;
    if (startsWith(rest, "[")) {
        auto close = rest.find(']');
        if (close == std::string::npos) {
            a.kind = StoreSpec::Kind::Invalid;
            a.error = "missing ']' after the IPv6 address in 'tcp://" + rest + "'";
            return a;
        }
        a.host = rest.substr(1, close - 1);
        a.portText = close + 1 < rest.size() && rest[close + 1] == ':' ? rest.substr(close + 2) : "";
    } else {
        auto colon = rest.rfind(':');
        a.host = colon == std::string::npos ? rest : rest.substr(0, colon);
        a.portText = colon == std::string::npos ? "" : rest.substr(colon + 1);
    }
    while (!a.portText.empty() && a.portText.back() == '/')
        a.portText.pop_back();
    if (a.host.empty()) {
        a.kind = StoreSpec::Kind::Invalid;
        a.error = "no host in 'tcp://" + rest + "' (expected tcp://HOST:PORT, e.g. tcp://127.0.0.1:29500)";
        return a;
    }
    a.port = parsePort(a.portText);
    return a;
}

// file: URLs as users paste them, mapped to the path every OS API expects.
std::string filePath(std::string p) {
    if (startsWith(p, "///"))
        p = p.substr(2); // file:///tmp/x -> /tmp/x
    else if (startsWith(p, "//") && isDrive(p, 2))
        p = p.substr(2); // file://C:/x -> C:/x
    // Otherwise file://server/share/x stays //server/share/x: a UNC path on Windows.
    if (startsWith(p, "/") && isDrive(p, 1)) p = p.substr(1); // file:///C:/x -> C:/x
    return p;
}

} // namespace

StoreSpec parseStoreSpec(const std::string& store) {
    if (startsWith(store, "tcp://")) return parseTcp(store.substr(6));
    StoreSpec a;
    if (startsWith(store, "file:")) {
        std::string p = filePath(store.substr(5));
        if (p.empty()) {
            a.error = "no path in '" + store + "' (expected file:PATH, e.g. file:C:/share/run1/store)";
            return a;
        }
        a.kind = StoreSpec::Kind::File;
        a.path = os::pathFromUtf8(p);
        return a;
    }
    a.error = "'" + store + "' is neither file:PATH nor tcp://HOST:PORT";
    return a;
}

namespace {

bool isIpv4Literal(const std::string& text) {
    int parts = 0;
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t dot = std::min(text.find('.', at), text.size());
        const std::string part = text.substr(at, dot - at);
        if (part.empty() || part.size() > 3 || parsePort(part) < 0 || parsePort(part) > 255) return false;
        ++parts;
        at = dot + 1;
    }
    return parts == 4;
}

// Colon-separated groups of 1-4 hex digits, the last of which may be a dotted IPv4 address (two groups);
// -1 when malformed.
int countGroups(const std::string& text, bool allowIpv4Tail) {
    if (text.empty()) return 0;
    int groups = 0;
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t colon = std::min(text.find(':', at), text.size());
        const std::string group = text.substr(at, colon - at);
        if (colon == text.size() && allowIpv4Tail && group.find('.') != std::string::npos)
            return isIpv4Literal(group) ? groups + 2 : -1;
        if (group.empty() || group.size() > 4) return -1;
        for (char c : group)
            if (!std::isxdigit(static_cast<unsigned char>(c))) return -1;
        ++groups;
        at = colon + 1;
    }
    return groups;
}

} // namespace

bool isIpv6Literal(const std::string& text) {
    std::string address = text;
    const std::size_t zone = address.find('%');
    if (zone != std::string::npos) {
        if (zone + 1 == address.size()) return false; // "%" with no zone
        address.resize(zone);
    }
    const std::size_t gap = address.find("::");
    if (gap == std::string::npos) return countGroups(address, true) == 8;
    if (address.find("::", gap + 1) != std::string::npos) return false;
    const int before = countGroups(address.substr(0, gap), false);
    const int after = countGroups(address.substr(gap + 2), true);
    return before >= 0 && after >= 0 && before + after <= 7;
}

std::string urlHost(const std::string& host) {
    const bool v6 = host.find(':') != std::string::npos && host.front() != '[';
    return v6 ? "[" + host + "]" : host;
}

std::string tcpStoreSpec(const std::string& host, int port) {
    return "tcp://" + urlHost(host) + ":" + std::to_string(port);
}

std::string storeSpecText(const StoreSpec& spec) {
    switch (spec.kind) {
    case StoreSpec::Kind::File:
        return "file:" + os::utf8(spec.path);
    case StoreSpec::Kind::Tcp:
        return tcpStoreSpec(spec.host, spec.port);
    case StoreSpec::Kind::Invalid:
        break;
    }
    return std::string();
}

} // namespace ddpdesk::protocol
