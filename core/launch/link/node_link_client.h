#pragma once

// A node's end of the node link (protocol/node_link.h): its launcher's events go to node 0's launcher, and
// what node 0 asks (stop, stacks) comes back. Training never waits for it: push() only queues, and the queue
// is bounded (when full the oldest events are dropped and counted, the newest kept), a thread of its own
// connects (again and again while node 0 is not there yet or the link broke), proves the run secret and sends
// the queue in batches; a slow or gone node 0 delays only that thread. Plain C++: the hooks are called from
// its threads.

#include "launch/link/event_queue.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace ddpdesk::net {
class Connection;
}

namespace ddpdesk::launch::link {

struct NodeLinkClientConfig {
    std::string host; // node 0's: the store's host
    int port = 0;
    std::string secret; // raw bytes
    int nodeRank = 0, worldSize = 0, nproc = 0;
    std::string hostName; // this machine's, for node 0's view
    std::size_t maxQueuedBytes = 16u << 20;
};

struct NodeLinkClientHooks {
    std::function<void(const std::string& text)> status;        // connected, refused, lost
    std::function<void(const nlohmann::json& request)> control; // node 0's stop / stacks
};

class NodeLinkClient {
public:
    NodeLinkClient(NodeLinkClientConfig config, NodeLinkClientHooks hooks);
    ~NodeLinkClient(); // gives what is queued a second to leave, then stops

    void push(std::string eventJson); // one event object's text
    bool connected() const { return m_connected; }
    std::uint64_t dropped() const { return m_queue.dropped(); }

private:
    void run();
    bool session(); // one connection's life; false: node 0 refused us, do not try again
    void status(const std::string& text);
    std::string takeBatch(std::size_t* count); // the queue's head, joined by commas; marks it in flight

    const NodeLinkClientConfig m_config;
    NodeLinkClientHooks m_hooks;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    EventQueue m_queue;
    std::atomic<bool> m_connected{false};
    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_draining{false};
    bool m_inFlight = false;               // a batch taken from the queue is being sent (m_mutex)
    std::shared_ptr<net::Connection> m_io; // the current connection, for the destructor's cancel
    std::thread m_thread;
};

} // namespace ddpdesk::launch::link
