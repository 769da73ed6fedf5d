#include "launch/link/folder_link.h"

#include "launch/link/event_queue.h"
#include "launch/link/folder_stream.h"
#include "os/caught.h"
#include "os/plain_file.h"
#include "protocol/json_fields.h"
#include "protocol/node_link.h"
#include "protocol/utf8.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <set>

namespace ddpdesk::launch::link {

namespace nl = protocol::node_link;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {
constexpr std::chrono::seconds kReadAtEnd{2}; // node 0's time to read a node's last events
constexpr std::chrono::seconds kHungShare{5}; // then the thread is left behind
constexpr std::size_t kMaxCandidates = 16;    // new streams for followed nodes, waiting for their hello
} // namespace

struct FolderLink::Shared {
    FolderLinkConfig config;
    NodeLinkServerHooks hub;
    NodeLinkClientHooks node;
    EventQueue queue;

    std::mutex mutex; // everything below
    std::condition_variable wake;
    bool stop = false, done = false, hooksLive = true;
    std::deque<std::string> requests; // node 0's, for its stream
    std::vector<int> followed;        // node 0: the nodes whose streams it follows

    Shared(FolderLinkConfig c, NodeLinkServerHooks h, NodeLinkClientHooks n)
        : config(std::move(c)), hub(std::move(h)), node(std::move(n)), queue(config.maxQueuedBytes) {}

    // A hook, unless the FolderLink is gone (the hooks' owner with it).
    template <typename F> void call(F&& f) {
        std::lock_guard<std::mutex> lock(hookMutex);
        if (hooksLive) f();
    }
    std::mutex hookMutex; // held while a hook runs, so the destructor can switch them off
};

namespace {

// What one FolderLink's thread keeps between polls.
class Worker {
public:
    explicit Worker(std::shared_ptr<FolderLink::Shared> s)
        : m_s(std::move(s)), m_c(m_s->config), m_writer(m_c.folder, m_c.secret, m_c.nodeRank) {}

    void run();

private:
    bool isHub() const { return m_c.nodeRank == 0; }
    void status(const std::string& text) {
        m_s->call([&] {
            if (m_s->node.status) m_s->node.status(text);
        });
    }
    bool stopping() {
        std::lock_guard<std::mutex> lock(m_s->mutex);
        return m_s->stop;
    }
    bool ensureFolder();
    bool write(const nlohmann::json& payload) { return write(payload.dump()); }
    bool write(const std::string& payload);
    void writeTurn(bool force);
    void readTurn();
    void handle(FolderStreamReader& r, nlohmann::json& payload);
    std::string helloWhy(const FolderStreamReader& r, const nlohmann::json& payload) const;
    void refuse(const std::string& claimed, const std::string& why);
    void candidatesTurn();
    void scan();
    void follow(int node, const std::string& session, std::uint64_t first);
    void finish();
    void publishFollowed();

    std::shared_ptr<FolderLink::Shared> m_s;
    const FolderLinkConfig& m_c;
    FolderStreamWriter m_writer;
    bool m_folderReady = false, m_helloWritten = false, m_writeFailedSaid = false, m_folderSaid = false;
    bool m_scanned = false;
    Clock::time_point m_lastWrite{};
    std::map<int, std::unique_ptr<FolderStreamReader>> m_readers; // by node
    std::map<int, bool> m_helloSeen;                              // by node: its current stream's hello
    std::map<std::string, std::uintmax_t> m_sizes;                // by session: bytes at the last scan
    std::set<std::string> m_refused;                              // sessions not to follow again
    std::vector<std::unique_ptr<FolderStreamReader>> m_finished;  // streams read to their end
    // A new stream for a node whose stream is followed already: it replaces that one only once its hello is
    // signed with the run's secret (the node's launcher started again). Until then anyone who can write to
    // the share could name a stream after node 1 and blind node 0 to the real one.
    std::map<std::string, std::unique_ptr<FolderStreamReader>> m_candidates; // by session
};

bool Worker::ensureFolder() {
    if (m_folderReady) return true;
    std::error_code ec;
    const fs::file_status st = fs::symlink_status(m_c.folder, ec);
    if (fs::is_symlink(st) || (fs::exists(st) && !fs::is_directory(st))) {
        if (!m_folderSaid)
            status("the link folder " + m_c.folder.string() + " exists and is not a folder DDP Desk made");
        m_folderSaid = true;
        return false;
    }
    if (!fs::exists(st))
        fs::create_directory(m_c.folder, ec); // not its parents: the store's folder is the user's
    m_folderReady = fs::is_directory(fs::symlink_status(m_c.folder, ec));
    if (!m_folderReady && !m_folderSaid)
        status("cannot make the link folder " + m_c.folder.string() + " yet (" + ec.message() +
               "); trying again");
    m_folderSaid = m_folderSaid || !m_folderReady;
    return m_folderReady;
}

bool Worker::write(const std::string& payload) {
    if (!m_writer.append(payload)) {
        if (!m_writeFailedSaid) status("cannot write the link folder: " + m_writer.error());
        m_writeFailedSaid = true;
        return false;
    }
    m_lastWrite = Clock::now();
    return true;
}

void Worker::writeTurn(bool force) {
    if (!ensureFolder()) return;
    if (!m_helloWritten) {
        m_helloWritten = write({{nl::field::Type, nl::type::Hello},
                                {nl::field::Version, nl::kVersion},
                                {nl::field::NodeRank, m_c.nodeRank},
                                {nl::field::Host, m_c.hostName},
                                {nl::field::WorldSize, m_c.run.worldSize},
                                {nl::field::Nproc, m_c.run.nproc}});
        if (!m_helloWritten) return;
    }
    if (isHub()) {
        std::deque<std::string> requests;
        {
            std::lock_guard<std::mutex> lock(m_s->mutex);
            requests.swap(m_s->requests);
        }
        for (const std::string& r : requests)
            write(r);
    } else {
        do {
            std::size_t count = 0;
            // Node 0 not reading: the share holds at most kMaxUnreadSegments of this node's, the rest is
            // dropped.
            if (m_writer.unreadSegments() >= nl::kMaxUnreadSegments) {
                m_s->queue.take(std::size_t(-1), &count);
                m_s->queue.addDropped(count);
                break;
            }
            const std::string events = m_s->queue.take(EventQueue::kBatchBytes, &count);
            if (count == 0) break;
            if (!write("{\"type\":\"events\",\"dropped\":" + std::to_string(m_s->queue.dropped()) +
                       ",\"events\":[" + events + "]}")) {
                m_s->queue.addDropped(count);
                return;
            }
        } while (force);
    }
    if (Clock::now() - m_lastWrite >= nl::kHeartbeat)
        write("{\"type\":\"events\",\"dropped\":" + std::to_string(m_s->queue.dropped()) + ",\"events\":[]}");
}

std::string Worker::helloWhy(const FolderStreamReader& r, const nlohmann::json& payload) const {
    const protocol::JsonFields f(payload);
    if (isHub()) {
        std::string why = helloRefusal(payload, m_c.run);
        if (why.empty() && f.integer(nl::field::NodeRank, -1) != r.node())
            why = "its hello names node " + f.shown(nl::field::NodeRank, 16);
        return why;
    }
    if (f.text(nl::field::Type) != nl::type::Hello || f.integer(nl::field::Version, 0) != nl::kVersion ||
        f.integer(nl::field::WorldSize, 0) != m_c.run.worldSize)
        return "node 0's stream is not this run's (world size " + f.shown(nl::field::WorldSize, 16) +
               ", node-link protocol " + f.shown(nl::field::Version, 16) + ")";
    return {};
}

void Worker::refuse(const std::string& claimed, const std::string& why) {
    if (isHub())
        m_s->call([&] {
            if (m_s->hub.refused) m_s->hub.refused(claimed, why);
        });
    else
        status("not following " + claimed + ": " + why);
}

void Worker::handle(FolderStreamReader& r, nlohmann::json& payload) {
    const int node = r.node();
    const protocol::JsonFields fields(payload);
    const std::string type = fields.text(nl::field::Type);
    if (!m_helloSeen[node]) {
        const std::string claimed = "node " + std::to_string(node) + "'s link stream " + r.session();
        const std::string why = helloWhy(r, payload);
        if (!why.empty()) {
            m_refused.insert(r.session());
            m_readers.erase(node); // r is gone after this
            refuse(claimed, why);
            return;
        }
        m_helloSeen[node] = true;
        const std::string host = protocol::printableLine(fields.text(nl::field::Host));
        if (isHub()) {
            publishFollowed();
            m_s->call([&] {
                if (m_s->hub.connected) m_s->hub.connected(node, host);
            });
        } else {
            status("connected to node 0's launcher through the link folder " + m_c.folder.string() +
                   ": this node's ranks show there too");
        }
        return;
    }
    if (isHub()) {
        if (type != nl::type::Events) return;
        const std::uint64_t dropped = fields.count(nl::field::Dropped, 0);
        std::vector<nlohmann::json> events = nodeEvents(payload, node, m_c.run.nproc);
        m_s->call([&] {
            if (m_s->hub.events) m_s->hub.events(node, events, dropped);
        });
    } else if (type == nl::type::Stop || type == nl::type::Stacks) {
        m_s->call([&] {
            if (m_s->node.control) m_s->node.control(payload);
        });
    }
}

void Worker::readTurn() {
    candidatesTurn();
    for (auto it = m_readers.begin(); it != m_readers.end();) {
        const int node = it->first;
        FolderStreamReader* r = it->second.get();
        std::vector<nlohmann::json> payloads = r->poll();
        for (nlohmann::json& p : payloads) {
            handle(*r, p);
            if (m_readers.find(node) == m_readers.end() || m_readers[node].get() != r) break; // refused
        }
        auto now = m_readers.find(node);
        if (now == m_readers.end() || now->second.get() != r) {
            it = m_readers.upper_bound(node);
            continue;
        }
        if (r->state() == FolderStreamReader::State::Reading) {
            ++it;
            continue;
        }
        const bool ended = r->state() == FolderStreamReader::State::Ended;
        const std::string why = ended ? "its launcher closed the link" : "its link stream: " + r->error();
        if (!ended) m_refused.insert(r->session());
        if (isHub() && m_helloSeen[node])
            m_s->call([&] {
                if (m_s->hub.disconnected) m_s->hub.disconnected(node, why);
            });
        else if (isHub() && !ended) // broken before its hello: not one of this run's launchers
            m_s->call([&] {
                if (m_s->hub.refused)
                    m_s->hub.refused("node " + std::to_string(node) + "'s link stream " + r->session(),
                                     r->error());
            });
        else if (!isHub() && !ended)
            status("node 0's link stream broke (" + r->error() + "); its requests no longer reach this node");
        m_helloSeen[node] = false;
        m_finished.push_back(std::move(it->second));
        it = m_readers.erase(it);
        if (isHub()) publishFollowed();
    }
}

void Worker::follow(int node, const std::string& session, std::uint64_t first) {
    auto reader = std::make_unique<FolderStreamReader>(m_c.folder, m_c.secret, node, session, isHub());
    if (first > 0) { // its first segments were read (and removed) by an earlier reader: nothing to follow
        m_refused.insert(session);
        return;
    }
    auto old = m_readers.find(node);
    if (old != m_readers.end() && m_helloSeen[node]) { // it must prove itself first (candidatesTurn)
        if (m_candidates.size() < kMaxCandidates) m_candidates[session] = std::move(reader);
        return;
    }
    if (old != m_readers.end()) { // the one followed has not said its hello either: the newer one counts
        m_finished.push_back(std::move(old->second));
        m_readers.erase(old);
    }
    m_helloSeen[node] = false;
    m_readers[node] = std::move(reader);
}

void Worker::candidatesTurn() {
    for (auto it = m_candidates.begin(); it != m_candidates.end();) {
        FolderStreamReader& c = *it->second;
        std::vector<nlohmann::json> payloads = c.poll(1u << 16); // a hello is small: no more of it yet
        const std::string claimed = "node " + std::to_string(c.node()) + "'s link stream " + c.session();
        std::string why;
        if (!payloads.empty())
            why = helloWhy(c, payloads.front());
        else if (c.state() != FolderStreamReader::State::Reading)
            why = c.state() == FolderStreamReader::State::Broken ? c.error() : "it ended before its hello";
        else {
            ++it;
            continue; // nothing verified yet
        }
        if (!why.empty()) {
            m_refused.insert(c.session());
            refuse(claimed, why);
            it = m_candidates.erase(it);
            continue;
        }
        // Signed with the run's secret: the node's launcher started again, its new stream replaces the old.
        const int node = c.node();
        auto old = m_readers.find(node);
        if (old != m_readers.end()) m_finished.push_back(std::move(old->second));
        m_readers[node] = std::move(it->second);
        it = m_candidates.erase(it);
        m_helloSeen[node] = false;
        FolderStreamReader& r = *m_readers[node];
        for (nlohmann::json& p : payloads) {
            handle(r, p);
            if (m_readers.find(node) == m_readers.end() || m_readers[node].get() != &r) break;
        }
    }
}

// New streams: one that appears after the first scan is followed at once; one there already is followed once
// it grows between two scans (a live writer heartbeats every second; a stream a crashed run left never
// grows).
void Worker::scan() {
    std::error_code ec;
    struct Seen {
        int node = -1;
        std::uintmax_t bytes = 0;
        std::uint64_t first = std::uint64_t(-1);
    };
    std::map<std::string, Seen> seen;
    for (fs::directory_iterator it(m_c.folder, ec), end; !ec && it != end; it.increment(ec)) {
        int node = 0;
        std::string session;
        std::uint64_t k = 0;
        if (!nl::parseSegmentFileName(it->path().filename().string(), &node, &session, &k)) continue;
        if (session == m_writer.session() || (isHub() ? node < 1 || node >= m_c.run.nnodes : node != 0))
            continue;
        // A FIFO, a folder or a link named like a segment is nobody's stream (and its size is no answer: the
        // scan went on to the next entry only because each entry has its own error code).
        if (!os::isPlainFileEntry(it->path())) continue;
        std::error_code sizeError;
        const std::uintmax_t bytes = it->file_size(sizeError);
        if (sizeError) continue;
        Seen& s = seen[session];
        s.node = node;
        s.bytes += bytes;
        s.first = std::min(s.first, k);
    }
    std::map<std::string, std::uintmax_t> sizes;
    for (const auto& [session, s] : seen) {
        sizes[session] = s.bytes;
        if (m_refused.count(session) || m_candidates.count(session)) continue;
        auto r = m_readers.find(s.node);
        if (r != m_readers.end() && r->second->session() == session) continue;
        bool finished = false;
        for (const auto& f : m_finished)
            finished = finished || f->session() == session;
        if (finished) continue;
        auto before = m_sizes.find(session);
        const bool cameLater = m_scanned && before == m_sizes.end(); // after this launcher's first look
        if (cameLater || (before != m_sizes.end() && before->second != s.bytes))
            follow(s.node, session, s.first);
    }
    m_sizes = std::move(sizes);
    m_scanned = true;
}

void Worker::publishFollowed() {
    std::vector<int> nodes;
    for (const auto& [node, r] : m_readers)
        if (m_helloSeen[node]) nodes.push_back(node);
    std::lock_guard<std::mutex> lock(m_s->mutex);
    m_s->followed = std::move(nodes);
}

void Worker::finish() {
    writeTurn(true);
    if (isHub() && m_folderReady) scan(); // a stream that appeared or grew since the last look is read too
    readTurn();                           // node 0: what the others said last
    if (m_helloWritten) write({{nl::field::Type, nl::type::Bye}});
    // Node > 0: node 0 removes each segment once read; while its stream is there, give it a moment for the
    // last ones (also when this node has not followed it yet: a short run).
    if (!isHub() && m_folderReady) scan();
    const auto until = Clock::now() + kReadAtEnd;
    while (!isHub() && m_helloWritten && !m_sizes.empty() && m_writer.unreadSegments() > 0 &&
           Clock::now() < until)
        std::this_thread::sleep_for(nl::kFolderPoll);
    m_writer.removeAll();
    if (isHub()) {
        for (auto& [node, r] : m_readers)
            r->removeRest();
        for (auto& r : m_finished)
            r->removeRest();
    }
    std::error_code ec;
    if (m_folderReady && fs::is_empty(m_c.folder, ec) && !ec) fs::remove(m_c.folder, ec); // only when empty
}

void Worker::run() {
    auto lastScan = Clock::now() - nl::kFolderScan;
    while (!stopping()) {
        writeTurn(false);
        if (m_folderReady && Clock::now() - lastScan >= nl::kFolderScan) {
            scan();
            lastScan = Clock::now();
        }
        readTurn();
        std::unique_lock<std::mutex> lock(m_s->mutex);
        m_s->wake.wait_for(lock, nl::kFolderPoll, [this] { return m_s->stop || !m_s->requests.empty(); });
    }
    finish();
}

} // namespace

FolderLink::FolderLink(FolderLinkConfig config, NodeLinkServerHooks hub, NodeLinkClientHooks node)
    : m_shared(std::make_shared<Shared>(std::move(config), std::move(hub), std::move(node))) {
    m_thread = std::thread([s = m_shared] {
        os::runCaught(
            "node link folder", [&] { Worker(s).run(); },
            [&](const std::string& why) {
                s->call([&] {
                    if (s->node.status) s->node.status(why);
                    if (s->hub.refused) s->hub.refused("the node link's own thread", why);
                });
            });
        std::lock_guard<std::mutex> lock(s->mutex);
        s->done = true;
        s->wake.notify_all();
    });
}

FolderLink::~FolderLink() {
    std::unique_lock<std::mutex> lock(m_shared->mutex);
    m_shared->stop = true;
    m_shared->wake.notify_all();
    const bool done =
        m_shared->wake.wait_for(lock, kReadAtEnd + kHungShare, [this] { return m_shared->done; });
    lock.unlock();
    {
        std::lock_guard<std::mutex> hooks(m_shared->hookMutex);
        m_shared->hooksLive = false;
    }
    if (done)
        m_thread.join();
    else
        m_thread.detach(); // a hung share: the thread keeps m_shared and calls no hook any more
}

void FolderLink::push(std::string eventJson) {
    m_shared->queue.push(std::move(eventJson));
}

std::vector<int> FolderLink::sendToAll(const nlohmann::json& request) {
    std::lock_guard<std::mutex> lock(m_shared->mutex);
    m_shared->requests.push_back(request.dump());
    m_shared->wake.notify_all();
    return m_shared->followed;
}

std::uint64_t FolderLink::dropped() const {
    return m_shared->queue.dropped();
}

} // namespace ddpdesk::launch::link
