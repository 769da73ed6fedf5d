#include "net/tcp_store_server.h"

#include <algorithm>
#include <iterator>
#include <system_error>

namespace ddpdesk::net {

namespace {
// The accept loop wakes this often to see stop() and to join the threads of clients that left.
constexpr Millis kAcceptSlice{200};
} // namespace

TcpStoreServer::StartResult TcpStoreServer::start(const std::string& numeric, int port,
                                                  StoreNoticeSink notices, Limits limits) {
    StartResult r;
    ListenResult l = listenTcp(numeric, port);
    if (!l.listener) {
        r.error = l.error;
        return r;
    }
    r.server.reset(new TcpStoreServer(std::move(l.listener), numeric, std::move(notices), limits));
    return r;
}

TcpStoreServer::TcpStoreServer(std::unique_ptr<Listener> listener, std::string address,
                               StoreNoticeSink notices, Limits limits)
    : m_listener(std::move(listener)), m_address(std::move(address)), m_port(m_listener->port()),
      m_sink(std::move(notices)), m_limits(limits), m_table(limits.maxStoredBytes),
      m_buffers(limits.maxBufferedBytes) {
    m_acceptor = std::thread([this] { acceptLoop(); });
}

TcpStoreServer::~TcpStoreServer() {
    m_stop = true;
    if (m_acceptor.joinable()) m_acceptor.join();
    std::vector<Served> served;
    {
        std::lock_guard<std::mutex> lock(m_servedMutex);
        served.swap(m_served);
    }
    for (Served& s : served)
        s.session->cancel();
    for (Served& s : served)
        s.thread.join();
}

std::size_t TcpStoreServer::connectionsOpen() const {
    std::lock_guard<std::mutex> lock(m_servedMutex);
    return m_served.size();
}

void TcpStoreServer::reapFinished() {
    std::vector<Served> finished;
    {
        std::lock_guard<std::mutex> lock(m_servedMutex);
        auto split =
            std::stable_partition(m_served.begin(), m_served.end(), [](const Served& s) { return !*s.done; });
        std::move(split, m_served.end(), std::back_inserter(finished));
        m_served.erase(split, m_served.end());
    }
    for (Served& s : finished)
        s.thread.join(); // it has returned already: this only reclaims its stack
}

void TcpStoreServer::acceptLoop() noexcept {
    while (!m_stop) {
        try {
            acceptOne();
        } catch (const std::exception& e) {
            acceptFailed(e.what());
        } catch (...) {
            acceptFailed("an exception of unknown type");
        }
    }
}

void TcpStoreServer::acceptFailed(const char* what) noexcept {
    try {
        sayNoThrow([this](const StoreNotice& n) { notice(n); },
                   {kNoticeInternal, std::string("the store server's accepting thread failed (") + what +
                                         "); it goes on accepting"});
    } catch (...) {
        // Building the text ran out of memory: it goes on all the same.
    }
    // Whatever ran out (memory, descriptors) may come back; no busy loop meanwhile.
    std::this_thread::sleep_for(kAcceptSlice);
}

void TcpStoreServer::acceptOne() {
    std::unique_ptr<Connection> io = m_listener->accept(kAcceptSlice);
    reapFinished();
    if (!io) return;
    ++m_accepted;
    if (connectionsOpen() >= m_limits.maxConnections) {
        notice({kNoticeConnectionLimit, "a client connected while " +
                                            std::to_string(m_limits.maxConnections) +
                                            " store connections were open; it was closed at once"});
        return; // `io` closes here
    }
    auto session = std::make_shared<StoreSession>(
        std::move(io),
        StoreSession::Context{m_table, m_buffers, m_stop, [this](const StoreNotice& n) { notice(n); }});
    auto done = std::make_shared<std::atomic<bool>>(false);
    {
        std::lock_guard<std::mutex> lock(m_servedMutex);
        m_served.reserve(m_served.size() + 1); // so that keeping the thread below cannot throw
    }
    std::thread thread;
    try {
        // run() catches whatever the work throws and names it; nothing is left that could reach terminate.
        thread = std::thread([session, done] {
            session->run();
            *done = true;
        });
    } catch (const std::system_error& e) {
        // The process is out of threads (something else took them): this client is refused, the store lives.
        notice({kNoticeConnectionLimit, std::string("no thread could be started for a store client (") +
                                            e.what() + "); it was closed at once"});
        return;
    }
    std::lock_guard<std::mutex> lock(m_servedMutex);
    m_served.push_back({std::move(session), std::move(thread), std::move(done)});
}

void TcpStoreServer::notice(const StoreNotice& n) {
    if (!m_sink) return;
    std::size_t repeats = 0;
    {
        std::lock_guard<std::mutex> lock(m_noticeMutex);
        // Repeats of one code are counted; an unknown query is its own kind per byte and dialect (its text
        // says which), so a second, different one is still named.
        auto& [last, since] = m_noticeCounts[n.code == kNoticeUnknownQuery ? n.text : n.code];
        const auto now = Clock::now();
        if (last != TimePoint{} && now - last < kNoticeInterval) {
            ++since;
            return;
        }
        repeats = since;
        last = now;
        since = 0;
    }
    StoreNotice said = n;
    if (repeats > 0) said.text += " (" + std::to_string(repeats) + " more like it since the last notice)";
    m_sink(said);
}

} // namespace ddpdesk::net
