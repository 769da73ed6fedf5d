#pragma once

// A c10d TCPStore server of DDP Desk's own, bound to the address it is given (loopback unless the user asked
// for the network). c10d's own server listens on every interface (PyTorch 1.x has no bind address at all;
// Python's TCPStore has none either), so anyone who reaches the port could join or read a single-node run.
// This one speaks both wire dialects (tcp_store_wire.h), told apart per connection by the first bytes, so
// PyTorch 1.x and 2.x clients - Python scripts through torchrun's TORCHELASTIC_USE_AGENT_STORE, and LibTorch
// workers - join it unchanged.
//
// Every local process can reach it, so nothing a client does may take it down or stall others: at most
// Limits::maxConnections are served at once (one thread each, joined as soon as its client leaves; more are
// closed at once), frames are read in chunks charged to one budget shared by all and every answer is charged
// to it before it is built, the store's size is capped (waits' key lists count), waiters are indexed by key
// (a change wakes its own waiters and looks at no others), no socket is written under the store's lock (a
// client that stops reading delays itself only), and stopping cancels every connection mid-frame. Every
// thread of the server catches whatever its work throws and names it (kNoticeInternal): no client can end the
// process. Each client refused or dropped for one of these reasons, and each query this server does not know,
// is named in a StoreNotice (tcp_store_session.h).

#include "net/net_socket.h"
#include "net/tcp_store_session.h"
#include "net/tcp_store_table.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ddpdesk::net {

struct StoreServerLimits {
    // A run has a few connections per rank; 64 ranks of a busy script stay far below this.
    std::size_t maxConnections = 512;
    // Frames being received and answers being built or sent, all clients together (byte_budget.h).
    std::uint64_t maxBufferedBytes = 512ull * 1024 * 1024;
    std::uint64_t maxStoredBytes = 1024ull * 1024 * 1024; // keys and values held, and waits' key lists
};

class TcpStoreServer {
public:
    static constexpr std::uint64_t kMaxKeyBytes = StoreLimits::kMaxKeyBytes;
    static constexpr std::uint64_t kMaxValueBytes = StoreLimits::kMaxValueBytes;
    static constexpr std::uint64_t kMaxKeysPerQuery = StoreLimits::kMaxKeysPerQuery;
    using Limits = StoreServerLimits;
    // Notices of one code closer together than this are counted, not repeated (a flood stays one line a
    // while).
    static constexpr Millis kNoticeInterval{5000};

    struct StartResult {
        std::unique_ptr<TcpStoreServer> server;
        std::string error; // why it could not listen, e.g. "Address already in use (errno 98)"
    };
    // `numeric`: the address to bind (127.0.0.1 for a single-node run); port 0 takes a free one. `notices` is
    // called from the server's threads, never under its locks.
    static StartResult start(const std::string& numeric, int port, StoreNoticeSink notices = {},
                             Limits limits = Limits());
    ~TcpStoreServer(); // stops: no new connections, open ones cancelled (mid-frame too), every thread joined

    int port() const { return m_port; }
    const std::string& address() const { return m_address; }
    // What a client sees, for the launcher's log and the tests.
    std::size_t numKeys() const { return m_table.numKeys(); }
    std::size_t connectionsAccepted() const { return m_accepted.load(); }
    std::size_t connectionsOpen() const;                             // threads not yet joined, too
    std::uint64_t bufferedBytes() const { return m_buffers.used(); } // frames and answers in flight
    std::uint64_t heldBytes() const { return m_table.bytes(); }      // keys, values and waits' key lists

    TcpStoreServer(const TcpStoreServer&) = delete;
    TcpStoreServer& operator=(const TcpStoreServer&) = delete;

private:
    struct Served {
        std::shared_ptr<StoreSession> session;
        std::thread thread;
        std::shared_ptr<std::atomic<bool>> done;
    };
    TcpStoreServer(std::unique_ptr<Listener> listener, std::string address, StoreNoticeSink notices,
                   Limits limits);
    void acceptLoop() noexcept;
    void acceptOne();
    void acceptFailed(const char* what) noexcept;
    void reapFinished();
    void notice(const StoreNotice& n);

    std::unique_ptr<Listener> m_listener;
    std::string m_address;
    int m_port = 0;
    StoreNoticeSink m_sink;
    std::atomic<bool> m_stop{false};
    std::atomic<std::size_t> m_accepted{0};
    const Limits m_limits;
    StoreTable m_table;
    ByteBudget m_buffers;
    mutable std::mutex m_servedMutex;
    std::vector<Served> m_served;
    std::mutex m_noticeMutex;
    std::map<std::string, std::pair<TimePoint, std::size_t>> m_noticeCounts; // last said, said since
    std::thread m_acceptor;
};

} // namespace ddpdesk::net
