#include "launch/link/node_link_client.h"

#include "launch/link/frame_io.h"
#include "net/net_socket.h"
#include "os/caught.h"
#include "protocol/json_fields.h"
#include "protocol/node_link.h"
#include "protocol/utf8.h"

namespace ddpdesk::launch::link {

namespace nl = protocol::node_link;

namespace {
constexpr net::Millis kNodeZeroConnectTimeout{2000};
constexpr net::Millis kReconnectDelay{500};
constexpr net::Millis kEventsSendTimeout{5000};
} // namespace

NodeLinkClient::NodeLinkClient(NodeLinkClientConfig config, NodeLinkClientHooks hooks)
    : m_config(std::move(config)), m_hooks(std::move(hooks)), m_queue(m_config.maxQueuedBytes) {
    m_thread = std::thread([this] {
        os::runCaught(
            "node link to node 0", [this] { run(); }, [this](const std::string& why) { status(why); });
        m_connected = false;
    });
}

NodeLinkClient::~NodeLinkClient() {
    { // what the run said last (its end) is worth a second
        std::unique_lock<std::mutex> lock(m_mutex);
        m_draining = true;
        m_wake.notify_all();
        m_wake.wait_for(lock, std::chrono::seconds(1),
                        [this] { return (m_queue.empty() && !m_inFlight) || !m_connected; });
        m_stop = true;
        if (m_io) m_io->cancel();
    }
    m_wake.notify_all();
    if (m_thread.joinable()) m_thread.join();
}

void NodeLinkClient::push(std::string eventJson) {
    m_queue.push(std::move(eventJson));
    // No wake-up but at the end: the sender sends a batch every kBatchInterval, one frame for many events
    // (waking it per event costs a context switch each, on a machine whose cores train).
    if (m_draining) {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_wake.notify_all();
    }
}

void NodeLinkClient::status(const std::string& text) {
    if (m_hooks.status) m_hooks.status(text);
}

std::string NodeLinkClient::takeBatch(std::size_t* count) {
    std::lock_guard<std::mutex> lock(m_mutex);
    std::string events = m_queue.take(EventQueue::kBatchBytes, count);
    m_inFlight = *count > 0; // until it is sent: the destructor's drain waits for it too
    return events;
}

void NodeLinkClient::run() {
    bool said = false; // "node 0 is not there yet" once, not every half second
    while (!m_stop) {
        net::ConnectResult c = net::connectTcp(m_config.host, m_config.port, kNodeZeroConnectTimeout);
        if (!c.connection) {
            if (!said)
                status("node 0's launcher is not reachable at " + m_config.host + ":" +
                       std::to_string(m_config.port) + " yet (" + c.error + "); trying again");
            said = true;
            std::unique_lock<std::mutex> lock(m_mutex);
            m_wake.wait_for(lock, kReconnectDelay, [this] { return m_stop.load(); });
            continue;
        }
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_io = std::shared_ptr<net::Connection>(std::move(c.connection));
        }
        if (m_stop) break;
        const bool again = session();
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_io.reset();
        }
        if (!again) return;
        said = false;
    }
}

bool NodeLinkClient::session() {
    std::shared_ptr<net::Connection> io;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        io = m_io;
    }
    FrameIo frames(*io, m_config.secret, nl::Direction::Up);
    auto deadline = net::Clock::now() + nl::kHandshakeTimeout;
    const auto challengeBody = frames.receiveBody(deadline);
    const auto challengeText = challengeBody ? nl::unsignedPayload(*challengeBody) : std::nullopt;
    const nlohmann::json challenge =
        challengeText ? nlohmann::json::parse(*challengeText, nullptr, false) : nlohmann::json();
    const protocol::JsonFields challengeFields(challenge);
    if (challengeFields.text(nl::field::Type) != nl::type::Challenge ||
        challengeFields.text(nl::field::Nonce).empty()) {
        status("the node-link port of node 0 did not answer as DDP Desk's launcher does (" + frames.error() +
               "); trying again");
        return true;
    }
    frames.setNonce(challengeFields.text(nl::field::Nonce));
    if (!frames.send({{nl::field::Type, nl::type::Hello},
                      {nl::field::Version, nl::kVersion},
                      {nl::field::NodeRank, m_config.nodeRank},
                      {nl::field::Host, m_config.hostName},
                      {nl::field::WorldSize, m_config.worldSize},
                      {nl::field::Nproc, m_config.nproc}},
                     deadline))
        return true;
    const auto replyBody = frames.receiveBody(deadline);
    if (!replyBody) return true;
    if (const auto refusal = nl::unsignedPayload(*replyBody)) {
        const nlohmann::json r = nlohmann::json::parse(*refusal, nullptr, false);
        status("node 0's launcher refused this one: " +
               protocol::printableLine(protocol::JsonFields(r).text(nl::field::Why, "no reason given"), 300) +
               "; its events stay on this node");
        return false;
    }
    if (!nl::verifyFrame(m_config.secret, frames.nonce(), nl::Direction::Down, 0, *replyBody)) {
        status("node 0's answer is not signed with this run's secret; its events stay on this node");
        return false;
    }
    frames.countReceived();
    m_connected = true;
    status("connected to node 0's launcher at " + m_config.host + ":" + std::to_string(m_config.port) +
           ": this node's ranks show there too");
    std::thread receiver([this, &frames, io] {
        os::runCaught(
            "node link from node 0",
            [&] {
                while (!m_stop) {
                    const auto request = frames.receiveSigned(net::Clock::now() + std::chrono::hours(24));
                    if (!request) break;
                    if (m_hooks.control) m_hooks.control(*request);
                }
            },
            [this](const std::string& why) { status(why); });
        io->cancel(); // the sender stops too: the link is broken
    });
    auto lastSent = net::Clock::now();
    while (!m_stop) {
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            m_wake.wait_for(lock, nl::kBatchInterval,
                            [this] { return m_stop.load() || (m_draining.load() && !m_queue.empty()); });
        }
        std::size_t count = 0;
        const std::string events = takeBatch(&count);
        if (count == 0 && net::Clock::now() - lastSent < nl::kHeartbeat) continue;
        const std::string payload = "{\"type\":\"events\",\"dropped\":" + std::to_string(m_queue.dropped()) +
                                    ",\"events\":[" + events + "]}";
        if (!frames.sendText(payload, net::Clock::now() + kEventsSendTimeout)) {
            m_queue.addDropped(count); // the batch is lost
            {
                std::lock_guard<std::mutex> lock(m_mutex);
                m_inFlight = false;
            }
            status("the link to node 0's launcher broke (" + frames.sendError() + "); reconnecting");
            break;
        }
        lastSent = net::Clock::now();
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_inFlight = false;
        }
        if (m_draining) m_wake.notify_all();
    }
    m_connected = false;
    io->cancel();
    receiver.join();
    m_wake.notify_all();
    return true;
}

} // namespace ddpdesk::launch::link
