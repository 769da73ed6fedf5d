#pragma once

// The node link over a folder (protocol/node_link.h, "Over a folder"): for a multi-node run whose store is a
// FileStore on a share, where no port of node 0's may be reachable but the share is. Node 0 follows every
// other node's stream and hands their events on with the same hooks as NodeLinkServer (connected, events,
// disconnected, refused); a node above 0 queues its events (bounded, as NodeLinkClient) for its stream and
// obeys node 0's stop and stacks from node 0's stream. One thread does all the file work, so a slow share
// delays only it; training and the Qt thread never touch the folder.

#include "launch/link/hello_check.h"
#include "launch/link/node_link_client.h"
#include "launch/link/node_link_server.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace ddpdesk::launch::link {

struct FolderLinkConfig {
    std::filesystem::path folder; // the run's link folder (nl::folderName beside the store file)
    std::string secret;           // raw bytes
    int nodeRank = 0;
    RunShape run;
    std::string hostName; // this machine's
    std::size_t maxQueuedBytes = 16u << 20;
};

class FolderLink {
public:
    // Node 0 calls hub's hooks, the other nodes node's.
    FolderLink(FolderLinkConfig config, NodeLinkServerHooks hub, NodeLinkClientHooks node);
    // Node > 0: what is queued and a bye are written, node 0 gets 2 s to read them; then each launcher
    // removes what it wrote that is still there (node 0 also the other nodes' segments) and the folder once
    // empty. A share that hangs is given 5 s more, then left to the link's thread, whose hooks are off by
    // then.
    ~FolderLink();

    void push(std::string eventJson); // node > 0: one event object's text
    // Node 0: queued for its stream; the nodes whose streams it follows now.
    std::vector<int> sendToAll(const nlohmann::json& request);
    std::uint64_t dropped() const;

    FolderLink(const FolderLink&) = delete;
    FolderLink& operator=(const FolderLink&) = delete;

    struct Shared; // what the link's thread works on (folder_link.cpp)

private:
    std::shared_ptr<Shared> m_shared; // the thread's too: it may outlive this object on a hung share
    std::thread m_thread;
};

} // namespace ddpdesk::launch::link
