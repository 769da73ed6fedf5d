#include "launch/link/node_link_server.h"

#include "launch/link/frame_io.h"
#include "launch/link/hello_check.h"
#include "os/caught.h"
#include "protocol/json_fields.h"
#include "protocol/run_auth.h"
#include "protocol/telemetry_fields.h"
#include "protocol/utf8.h"

#include <algorithm>
#include <system_error>

namespace ddpdesk::launch::link {

namespace nl = protocol::node_link;

namespace {
constexpr net::Millis kLinkAcceptSlice{200};
constexpr net::Millis kRequestSendTimeout{1000};
// An authenticated node says something every kHeartbeat; one silent this long is gone (node 0's watch says
// "no contact" much sooner, from the last frame's time).
constexpr std::chrono::seconds kLinkSilentLimit{120};
} // namespace

struct NodeLinkServer::Session {
    std::unique_ptr<net::Connection> io;
    FrameIo frames;
    std::thread thread;
    std::atomic<bool> done{false};
    std::atomic<bool> welcomed{false};
    std::mutex sendMutex;
    int node = -1;
    std::string host;
    Session(std::unique_ptr<net::Connection> c, const std::string& secret)
        : io(std::move(c)), frames(*io, secret, nl::Direction::Down) {}
};

NodeLinkServer::StartResult NodeLinkServer::start(const NodeLinkServerConfig& config,
                                                  NodeLinkServerHooks hooks) {
    StartResult r;
    net::ListenResult l = net::listenTcp(config.address, config.port);
    if (!l.listener) {
        r.error = l.error;
        return r;
    }
    r.server.reset(new NodeLinkServer(std::move(l.listener), config, std::move(hooks)));
    return r;
}

NodeLinkServer::NodeLinkServer(std::unique_ptr<net::Listener> listener, NodeLinkServerConfig config,
                               NodeLinkServerHooks hooks)
    : m_listener(std::move(listener)), m_config(std::move(config)), m_hooks(std::move(hooks)),
      m_port(m_listener->port()) {
    m_acceptor = std::thread([this] {
        os::runCaught(
            "node link acceptor", [this] { acceptLoop(); }, notice());
    });
}

std::function<void(const std::string&)> NodeLinkServer::notice() {
    return [this](const std::string& what) {
        if (m_hooks.refused) m_hooks.refused("the node link's own thread", what);
    };
}

NodeLinkServer::~NodeLinkServer() {
    m_stop = true;
    if (m_acceptor.joinable()) m_acceptor.join();
    std::vector<std::shared_ptr<Session>> sessions;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        sessions.swap(m_sessions);
    }
    for (auto& s : sessions)
        s->io->cancel();
    for (auto& s : sessions)
        if (s->thread.joinable()) s->thread.join();
}

void NodeLinkServer::reapFinished() {
    std::vector<std::shared_ptr<Session>> finished;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        auto split = std::stable_partition(m_sessions.begin(), m_sessions.end(),
                                           [](const auto& s) { return !s->done; });
        finished.assign(split, m_sessions.end());
        m_sessions.erase(split, m_sessions.end());
    }
    for (auto& s : finished)
        s->thread.join();
}

void NodeLinkServer::acceptLoop() {
    while (!m_stop) {
        std::unique_ptr<net::Connection> io = m_listener->accept(kLinkAcceptSlice);
        reapFinished();
        if (!io) continue;
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            if (m_sessions.size() >= m_config.maxConnections) {
                if (m_hooks.refused)
                    m_hooks.refused("a connection", "over the limit of " +
                                                        std::to_string(m_config.maxConnections) +
                                                        " node-link connections; closed at once");
                continue;
            }
        }
        auto session = std::make_shared<Session>(std::move(io), m_config.secret);
        try {
            session->thread = std::thread([this, session] {
                os::runCaught(
                    "node link session", [&] { serve(session); }, notice());
                session->done = true;
            });
        } catch (const std::system_error&) {
            continue; // out of threads: this one is refused, the server lives
        }
        std::lock_guard<std::mutex> lock(m_mutex);
        m_sessions.push_back(std::move(session));
    }
}

bool NodeLinkServer::handshake(Session& s) {
    const auto deadline = net::Clock::now() + nl::kHandshakeTimeout;
    s.frames.setNonce(protocol::randomHex(16));
    if (!s.frames.send({{nl::field::Type, nl::type::Challenge},
                        {nl::field::Version, nl::kVersion},
                        {nl::field::Nonce, s.frames.nonce()}},
                       deadline, false))
        return false;
    const auto body = s.frames.receiveBody(deadline);
    if (!body) {
        if (m_hooks.refused) m_hooks.refused("a connection", "no hello came (" + s.frames.error() + ")");
        return false;
    }
    // Who it claims to be, for the message, before the MAC is checked.
    // Nothing of it is believed: every claimed field is shown as printable text, cut short.
    std::string claimed = "a launcher";
    if (body->size() > nl::kMacHexChars) {
        const nlohmann::json j = nlohmann::json::parse(body->substr(nl::kMacHexChars), nullptr, false);
        const protocol::JsonFields f(j);
        if (f.has(nl::field::NodeRank))
            claimed = "a launcher claiming node " +
                      protocol::printableLine(f.shown(nl::field::NodeRank, 24)) + " on host " +
                      protocol::printableLine(f.text(nl::field::Host, "?"));
    }
    auto refuse = [&](const std::string& why) {
        if (m_hooks.refused) m_hooks.refused(claimed, why);
        s.frames.send({{nl::field::Type, nl::type::Refused}, {nl::field::Why, why}},
                      net::Clock::now() + kRequestSendTimeout, false);
        return false;
    };
    const auto payload = nl::verifyFrame(m_config.secret, s.frames.nonce(), nl::Direction::Up, 0, *body);
    if (!payload) return refuse("its hello is not signed with this run's secret");
    const nlohmann::json hello = nlohmann::json::parse(*payload, nullptr, false);
    const std::string why = helloRefusal(hello, {m_config.nnodes, m_config.worldSize, m_config.nproc});
    if (!why.empty()) return refuse(why);
    const protocol::JsonFields fields(hello);
    const int node = fields.integer(nl::field::NodeRank, -1);
    s.frames.countReceived();
    s.node = node;
    s.host = protocol::printableLine(fields.text(nl::field::Host));
    if (!s.frames.send({{nl::field::Type, nl::type::Welcome}}, net::Clock::now() + kRequestSendTimeout))
        return false;
    // A node that connects again (its link broke) replaces its earlier connection.
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        for (auto& other : m_sessions)
            if (other.get() != &s && other->node == node) other->io->cancel();
    }
    s.welcomed = true;
    if (m_hooks.connected) m_hooks.connected(node, s.host);
    return true;
}

void NodeLinkServer::serve(const std::shared_ptr<Session>& s) {
    if (!handshake(*s)) return;
    std::string why = "its launcher closed the link";
    while (!m_stop) {
        auto frame = s->frames.receiveSigned(net::Clock::now() + kLinkSilentLimit);
        if (!frame) {
            why = s->frames.error();
            break;
        }
        const protocol::JsonFields fields(*frame);
        if (fields.text(nl::field::Type) != nl::type::Events) continue;
        const std::uint64_t dropped = fields.count(nl::field::Dropped, 0);
        std::vector<nlohmann::json> events = nodeEvents(*frame, s->node, m_config.nproc);
        if (m_hooks.events) m_hooks.events(s->node, events, dropped);
    }
    s->welcomed = false;
    if (m_hooks.disconnected && !m_stop) m_hooks.disconnected(s->node, why);
}

std::vector<int> NodeLinkServer::sendToAll(const nlohmann::json& payload) {
    std::vector<std::shared_ptr<Session>> sessions;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        sessions = m_sessions;
    }
    std::vector<int> reached;
    for (auto& s : sessions) {
        if (!s->welcomed) continue;
        std::lock_guard<std::mutex> lock(s->sendMutex);
        if (s->frames.send(payload, net::Clock::now() + kRequestSendTimeout)) reached.push_back(s->node);
    }
    return reached;
}

} // namespace ddpdesk::launch::link
