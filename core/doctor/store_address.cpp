#include "doctor/store_address.h"

#include <cctype>

namespace ddpdesk::doctor {

namespace {

bool startsWith(const std::string& s, const std::string& prefix) {
    return s.compare(0, prefix.size(), prefix) == 0;
}

int parsePort(const std::string& text) {
    if (text.empty() || text.size() > 5)
        return -1;
    for (char c : text)
        if (!std::isdigit(static_cast<unsigned char>(c)))
            return -1;
    int value = std::stoi(text);
    return value <= 65535 ? value : -1;
}

StoreAddress parseTcp(const std::string& rest) {
    StoreAddress a;
    a.kind = StoreAddress::Kind::Tcp;
    std::string hostPart;
    if (startsWith(rest, "[")) { // [v6]:port
        auto close = rest.find(']');
        if (close == std::string::npos) {
            a.kind = StoreAddress::Kind::Invalid;
            a.error = "missing ']' after the IPv6 address in '" + rest + "'";
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
        a.kind = StoreAddress::Kind::Invalid;
        a.error = "no host in 'tcp://" + rest + "' (expected tcp://HOST:PORT)";
        return a;
    }
    a.port = parsePort(a.portText);
    return a;
}

} // namespace

StoreAddress parseStoreAddress(const std::string& store) {
    if (startsWith(store, "tcp://"))
        return parseTcp(store.substr(6));
    if (startsWith(store, "file:")) {
        std::string p = store.substr(5);
        if (startsWith(p, "//"))
            p = p.substr(2); // file:///tmp/x -> /tmp/x, file://C:/x -> C:/x
        StoreAddress a;
        if (p.empty()) {
            a.error = "no path in '" + store + "' (expected file:PATH)";
            return a;
        }
        a.kind = StoreAddress::Kind::File;
        a.path = std::filesystem::u8path(p);
        return a;
    }
    StoreAddress a;
    a.error = "'" + store + "' is neither file:PATH nor tcp://HOST:PORT";
    return a;
}

} // namespace ddpdesk::doctor
