#pragma once

// Reading and writing node-link frames (protocol/node_link.h) on one connection, each direction counting its
// own frames: the seq every MAC covers. Plain C++: the server and the client threads use it.

#include "net/net_socket.h"
#include "protocol/node_link.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace ddpdesk::launch::link {

class FrameIo {
public:
    FrameIo(net::Connection& io, std::string secret, protocol::node_link::Direction sends)
        : m_io(io), m_secret(std::move(secret)), m_sends(sends) {}

    void setNonce(const std::string& nonce) { m_nonce = nonce; }
    const std::string& nonce() const { return m_nonce; }

    // A signed frame (unsigned: `sign` false, for the challenge and a refusal).
    bool send(const nlohmann::json& payload, net::TimePoint deadline, bool sign = true);
    // A payload already written as one JSON object's text (the event batches).
    bool sendText(const std::string& payload, net::TimePoint deadline, bool sign = true);
    // The next frame's body, at most kMaxFrameBytes; nullopt on timeout, close or a length over the limit
    // (error() says which).
    std::optional<std::string> receiveBody(net::TimePoint deadline);
    // The next frame, its MAC checked against the other direction's seq; nullopt (error()) otherwise.
    std::optional<nlohmann::json> receiveSigned(net::TimePoint deadline);
    // A frame checked by the caller (the hello, whose claims are read before its MAC is) counts too.
    void countReceived() { ++m_received; }
    // One thread may send while another receives: each keeps its own error.
    const std::string& error() const { return m_receiveError; }
    const std::string& sendError() const { return m_sendError; }

private:
    std::optional<nlohmann::json> parse(const std::string& payload);

    net::Connection& m_io;
    const std::string m_secret;
    const protocol::node_link::Direction m_sends;
    std::string m_nonce;
    std::uint64_t m_sent = 0, m_received = 0;
    std::string m_receiveError, m_sendError;
};

} // namespace ddpdesk::launch::link
