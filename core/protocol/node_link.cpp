#include "protocol/node_link.h"

#include "protocol/sha256.h"

#include <regex>

namespace ddpdesk::protocol::node_link {

namespace {

std::string mac(const std::string& secret, const std::string& nonce, Direction d, std::uint64_t seq,
                const std::string& payload) {
    const std::string message = "ddpdesk-node-link|" + std::to_string(kVersion) + "|" + nonce + "|" +
                                (d == Direction::Up ? "up" : "down") + "|" + std::to_string(seq) + "|" +
                                payload;
    return toHex(hmacSha256(secret, message));
}

const std::string kUnsigned(kMacHexChars, '0');

} // namespace

std::string signFrame(const std::string& secret, const std::string& nonce, Direction d, std::uint64_t seq,
                      const std::string& payload) {
    return (secret.empty() ? kUnsigned : mac(secret, nonce, d, seq, payload)) + payload;
}

std::string frameBytes(const std::string& body) {
    const auto n = static_cast<std::uint32_t>(body.size());
    std::string out;
    out.reserve(4 + body.size());
    out.push_back(char((n >> 24) & 0xff));
    out.push_back(char((n >> 16) & 0xff));
    out.push_back(char((n >> 8) & 0xff));
    out.push_back(char(n & 0xff));
    return out + body;
}

std::optional<std::string> verifyFrame(const std::string& secret, const std::string& nonce, Direction d,
                                       std::uint64_t seq, const std::string& body) {
    if (secret.empty() || body.size() < kMacHexChars) return std::nullopt;
    const std::string payload = body.substr(kMacHexChars);
    if (!equalConstantTime(body.substr(0, kMacHexChars), mac(secret, nonce, d, seq, payload)))
        return std::nullopt;
    return payload;
}

std::optional<std::string> unsignedPayload(const std::string& body) {
    if (body.size() < kMacHexChars || body.compare(0, kMacHexChars, kUnsigned) != 0) return std::nullopt;
    return body.substr(kMacHexChars);
}

std::uint32_t frameLength(const unsigned char header[4]) {
    return (std::uint32_t(header[0]) << 24) | (std::uint32_t(header[1]) << 16) |
           (std::uint32_t(header[2]) << 8) | std::uint32_t(header[3]);
}

std::string folderName(const std::string& secret, const std::string& storeFileName) {
    return storeFileName + ".ddpdesk-link-" +
           toHex(hmacSha256(secret, "ddpdesk-node-link-folder")).substr(0, 16);
}

std::string segmentFileName(int node, const std::string& session, std::uint64_t segment) {
    return "node-" + std::to_string(node) + "-" + session + "-" + std::to_string(segment) + ".frames";
}

std::string segmentNonce(int node, const std::string& session, std::uint64_t segment) {
    return session + "/" + std::to_string(node) + "/" + std::to_string(segment);
}

bool parseSegmentFileName(const std::string& name, int* node, std::string* session, std::uint64_t* segment) {
    static const std::regex pattern("node-([0-9]{1,4})-([0-9a-f]{16})-([0-9]{1,9})\\.frames");
    std::smatch m;
    if (!std::regex_match(name, m, pattern)) return false;
    *node = std::stoi(m[1].str());
    *session = m[2].str();
    *segment = std::stoull(m[3].str());
    return true;
}

} // namespace ddpdesk::protocol::node_link
