#pragma once

// Node 0's end of the node link (protocol/node_link.h): it listens beside the store for the launchers of the
// other nodes, lets in only those that sign with the run's secret, and hands their ranks' events on. A
// multi-node run's only listener of DDP Desk's beyond the store, so it is built like the store server: every
// local process can reach it, so a client that never speaks is dropped after the handshake's deadline, a
// frame is at most kMaxFrameBytes, at most maxConnections are served (one thread each), a node that stops
// reading delays only the stop or stacks request sent to it, and stopping cancels every connection. Plain
// C++: the hooks are called from its threads.

#include "net/net_socket.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ddpdesk::launch::link {

struct NodeLinkServerConfig {
    std::string address; // numeric, the store host's address on this machine
    int port = 0;
    std::string secret; // the run secret's raw bytes
    int worldSize = 0, nproc = 0, nnodes = 0;
    std::size_t maxConnections = 64;
};

struct NodeLinkServerHooks {
    std::function<void(int node, const std::string& host)> connected;
    // Events of node `node`'s ranks (each an object whose "rank" is one of that node's, or -1 for its
    // launcher's own); `dropped`: what that node says it dropped so far.
    std::function<void(int node, std::vector<nlohmann::json>& events, std::uint64_t dropped)> events;
    std::function<void(int node, const std::string& why)> disconnected;
    // A connection that did not prove the secret (or spoke another protocol): who it claimed to be, and why.
    std::function<void(const std::string& claimed, const std::string& why)> refused;
};

class NodeLinkServer {
public:
    struct StartResult {
        std::unique_ptr<NodeLinkServer> server;
        std::string error;
    };
    static StartResult start(const NodeLinkServerConfig& config, NodeLinkServerHooks hooks);
    ~NodeLinkServer(); // no new connections, open ones cancelled, every thread joined

    int port() const { return m_port; }
    // Sends to every node connected now; a node whose socket does not take it within a second is skipped.
    // The nodes reached.
    std::vector<int> sendToAll(const nlohmann::json& payload);

    NodeLinkServer(const NodeLinkServer&) = delete;
    NodeLinkServer& operator=(const NodeLinkServer&) = delete;

private:
    struct Session;
    NodeLinkServer(std::unique_ptr<net::Listener> listener, NodeLinkServerConfig config,
                   NodeLinkServerHooks hooks);
    void acceptLoop();
    void serve(const std::shared_ptr<Session>& s);
    bool handshake(Session& s);
    void reapFinished();
    // What a thread of this server that ended by an exception says: through the refused hook, by name.
    std::function<void(const std::string&)> notice();

    std::unique_ptr<net::Listener> m_listener;
    const NodeLinkServerConfig m_config;
    NodeLinkServerHooks m_hooks;
    int m_port = 0;
    std::atomic<bool> m_stop{false};
    std::mutex m_mutex;
    std::vector<std::shared_ptr<Session>> m_sessions;
    std::thread m_acceptor;
};

} // namespace ddpdesk::launch::link
