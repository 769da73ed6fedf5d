#include "launch/link/frame_io.h"

namespace ddpdesk::launch::link {

namespace nl = protocol::node_link;

bool FrameIo::send(const nlohmann::json& payload, net::TimePoint deadline, bool sign) {
    return sendText(payload.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), deadline, sign);
}

bool FrameIo::sendText(const std::string& text, net::TimePoint deadline, bool sign) {
    const std::string body = nl::signFrame(sign ? m_secret : std::string(), m_nonce, m_sends, m_sent, text);
    if (body.size() > nl::kMaxFrameBytes) {
        m_sendError = "a frame of " + std::to_string(body.size()) + " bytes is over the limit";
        return false;
    }
    const std::string bytes = nl::frameBytes(body);
    if (!m_io.sendAll(bytes.data(), bytes.size(), deadline)) {
        m_sendError = m_io.lastError();
        return false;
    }
    if (sign) ++m_sent;
    return true;
}

std::optional<std::string> FrameIo::receiveBody(net::TimePoint deadline) {
    unsigned char header[4];
    if (!m_io.recvExact(header, sizeof header, deadline)) {
        m_receiveError = m_io.peerClosed() ? "closed by the other side" : m_io.lastError();
        return std::nullopt;
    }
    const std::uint32_t n = nl::frameLength(header);
    if (n < nl::kMacHexChars || n > nl::kMaxFrameBytes) {
        m_receiveError = "a frame announced " + std::to_string(n) + " bytes (at most " +
                         std::to_string(nl::kMaxFrameBytes) + ")";
        return std::nullopt;
    }
    std::string body(n, '\0');
    if (!m_io.recvExact(body.data(), n, deadline)) {
        m_receiveError = m_io.peerClosed() ? "closed by the other side" : m_io.lastError();
        return std::nullopt;
    }
    return body;
}

std::optional<nlohmann::json> FrameIo::receiveSigned(net::TimePoint deadline) {
    const auto body = receiveBody(deadline);
    if (!body) return std::nullopt;
    const nl::Direction from = m_sends == nl::Direction::Up ? nl::Direction::Down : nl::Direction::Up;
    const auto payload = nl::verifyFrame(m_secret, m_nonce, from, m_received, *body);
    if (!payload) {
        m_receiveError = "a frame's MAC is wrong: not signed with this run's secret";
        return std::nullopt;
    }
    ++m_received;
    return parse(*payload);
}

std::optional<nlohmann::json> FrameIo::parse(const std::string& payload) {
    nlohmann::json j = nlohmann::json::parse(payload, nullptr, false);
    if (!j.is_object()) {
        m_receiveError = "a frame is not a JSON object";
        return std::nullopt;
    }
    return j;
}

} // namespace ddpdesk::launch::link
