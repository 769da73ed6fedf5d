#include "protocol/store_spec.h"

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
        a.path = std::filesystem::u8path(p);
        return a;
    }
    a.error = "'" + store + "' is neither file:PATH nor tcp://HOST:PORT";
    return a;
}

std::string tcpStoreSpec(const std::string& host, int port) {
    const bool v6 = host.find(':') != std::string::npos;
    return "tcp://" + (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

} // namespace ddpdesk::protocol
