#pragma once

// Owns the node link of a multi-node run (launch/link, protocol/node_link.h) on the launcher's side: node 0
// listens beside the store and hands what the other nodes' launchers forward to the run on the Qt thread,
// with each node's contact (connected, no contact for N s, gone); a node above 0 forwards every event it
// records and obeys node 0's stop and stacks requests. Nothing here waits on the network: the link's threads
// do, and the inbox toward the Qt thread is bounded (a burst beyond it is dropped and counted).

#include "launch/config/run_config.h"
#include "launch/link/folder_link.h"
#include "launch/link/node_link_client.h"
#include "launch/link/node_link_server.h"
#include "protocol/store_spec.h"
#include "protocol/telemetry.h"

#include <QCoreApplication>
#include <QObject>
#include <QTimer>
#include <QVector>

#include <nlohmann/json.hpp>

#include <deque>
#include <functional>
#include <memory>
#include <mutex>

namespace ddpdesk::launch {

struct NodeContact {
    int node = 0;
    QString host;
    bool connected = false;
    double lastT = 0; // unix seconds of its last frame
    bool silentSaid = false;
    bool ended = false; // its run_end came: its link closing next is the end, not a loss
    QString endStatus;  // that run's status: ok, failed, stopped
};

class NodeLinkFeed {
    Q_DECLARE_TR_FUNCTIONS(ddpdesk::launch::Supervisor) // its texts keep the Supervisor's translations

public:
    static constexpr double kNoContactS = 3; // a node silent this long (heartbeats come every second)
    static constexpr std::size_t kInboxEvents = 200000;
    static constexpr int kDrainSliceMs = 2;        // the UI thread's longest turn at the inbox
    static constexpr std::size_t kDrainChunk = 64; // events taken per lock

    struct Hooks {
        std::function<void(const QString&)> message;
        std::function<void(int node, nlohmann::json& event)> event; // node 0: a node's event, tagged
        std::function<void(const NodeContact& contact, const QString& state)> contact; // node 0
        std::function<void(const QString& reason)> stop;   // node > 0: node 0 stopped the run
        std::function<void(const QString& reason)> stacks; // node > 0: node 0 asks for stacks
    };

    NodeLinkFeed(QObject& owner, Hooks hooks);
    ~NodeLinkFeed();

    // A multi-node run with a tcp:// store: node 0 listens on the store's host and port + kPortOffset, other
    // nodes connect there; with a FileStore the launchers meet in the run's link folder beside the store file
    // (folder_link.h). secretHex: the run's secret. Says why when there is no link (--no-node-link, node 0
    // cannot listen); the run goes on, each node then showing its own ranks.
    void start(const RunConfig& config, const QString& secretHex);
    void close(); // the run is over: a node's last events get a moment to leave
    bool isHub() const { return bool(m_server) || (m_folder && m_nodeRank == 0); }
    void forward(const nlohmann::json& event); // node > 0
    // node 0: to every node connected now; the nodes reached.
    QVector<int> broadcast(const nlohmann::json& request);
    const QVector<NodeContact>& contacts() const { return m_contacts; }
    // node 0: how long the other nodes take to act on a request (the link, then their launcher's inbox every
    // 50 ms; over a folder also their next poll), so that its own ranks stop after theirs had the word.
    int stopLeadMs() const;
    // States a contact hook is called with (the `node` event's `state`, protocol/telemetry.h).
    static constexpr const char* kConnected = protocol::node_state::Connected;
    static constexpr const char* kNoContact = protocol::node_state::NoContact;
    static constexpr const char* kLost = protocol::node_state::Lost;   // "lost: WHY"
    static constexpr const char* kEnded = protocol::node_state::Ended; // "ended: STATUS"

private:
    struct Inbound {
        enum Kind { Event, Connected, Lost, Refused } kind;
        int node = 0;
        std::string host, text;
        nlohmann::json event;
    };
    link::NodeLinkServerHooks hubHooks();
    link::NodeLinkClientHooks nodeHooks();
    bool startTcp(const RunConfig& config, const protocol::StoreSpec& spec, const std::string& secret);
    bool startFolder(const RunConfig& config, const protocol::StoreSpec& spec, const std::string& secret);
    void post(Inbound in);
    void drain(bool all = false); // all: the whole inbox now (the run's end), else a slice
    void handle(std::deque<Inbound>& batch);
    void watchContacts();
    // A refusal's line, at most kRefusalsShown in each kRefusalWindowS, then one line counting the rest:
    // anyone who reaches the port could otherwise fill the log one connection at a time.
    void refusedMessage(double now, const QString& text);
    NodeContact& contact(int node);

    QObject& m_owner;
    Hooks m_hooks;
    std::unique_ptr<link::NodeLinkServer> m_server;
    std::unique_ptr<link::NodeLinkClient> m_client;
    std::unique_ptr<link::FolderLink> m_folder;
    int m_nodeRank = 0;
    std::mutex m_mutex;
    std::deque<Inbound> m_inbox;
    std::uint64_t m_inboxDropped = 0;
    QTimer m_drain, m_watch;
    QTimer m_more; // the inbox's rest, right after the event loop's turn
    QVector<NodeContact> m_contacts;
    double m_refusalWindowT = -1e300;
    int m_refusalsInWindow = 0, m_refusalsHidden = 0;
};

} // namespace ddpdesk::launch
