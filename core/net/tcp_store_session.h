#pragma once

// One client connection of DDP Desk's TCPStore server: reads its queries in either wire dialect
// (tcp_store_wire.h), answers them from the StoreTable, and wakes the waiters its changes complete.
//
// What a broken or hostile client can cost is bounded here: a frame's values are read in chunks charged to a
// budget shared by every connection (memory follows the bytes that really arrive, never a length prefix), a
// query must arrive whole within kQueryTime, an answer that cannot go out within kAnswerTime drops only this
// client, and a wake-up from another client's thread is sent only when it can go out at once (otherwise this
// session's own thread sends it). A query this server does not know is named in a notice before the
// connection closes: a newer PyTorch's ranks are never disconnected without a word.

#include "net/net_socket.h"
#include "net/tcp_store_table.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace ddpdesk::net {

struct StoreLimits {
    static constexpr std::uint64_t kMaxKeyBytes = 64 * 1024;
    static constexpr std::uint64_t kMaxValueBytes = 256ull * 1024 * 1024; // one value in one frame
    static constexpr std::uint64_t kMaxKeysPerQuery = 64 * 1024;
    static constexpr std::uint64_t kReadChunk =
        64 * 1024; // memory is taken as the bytes arrive, this much at a time
};

// Bytes of frames being received, all connections together.
class ByteBudget {
public:
    explicit ByteBudget(std::uint64_t max) : m_max(max) {}
    bool take(std::uint64_t n);
    void give(std::uint64_t n) { m_used -= n; }
    std::uint64_t used() const { return m_used.load(); }
    std::uint64_t max() const { return m_max; }

private:
    const std::uint64_t m_max;
    std::atomic<std::uint64_t> m_used{0};
};

// A reason the server refused or dropped a client, for the host's log and events. `code` is one of the
// kNotice* names below.
struct StoreNotice {
    std::string code;
    std::string text;
};
using StoreNoticeSink = std::function<void(const StoreNotice&)>;
inline constexpr const char* kNoticeUnknownQuery = "STORE_UNKNOWN_QUERY";
inline constexpr const char* kNoticeOversized = "STORE_OVERSIZED_FRAME";
inline constexpr const char* kNoticeMemoryCap = "STORE_MEMORY_CAP";
inline constexpr const char* kNoticeStalled = "STORE_CLIENT_STALLED";
inline constexpr const char* kNoticeConnectionLimit = "STORE_CONNECTION_LIMIT";

class StoreSession : public std::enable_shared_from_this<StoreSession> {
public:
    struct Context {
        StoreTable& table;
        ByteBudget& buffers;
        const std::atomic<bool>& stopping;
        StoreNoticeSink notice; // called from this session's thread
    };
    StoreSession(std::unique_ptr<Connection> io, Context context);

    // Serves until the peer leaves, breaks the protocol, stalls, or the server stops.
    void run();
    // Any thread: ends run() within Connection::kCancelSlice, even in the middle of a frame.
    void cancel() { m_io->cancel(); }
    // Another session's thread: this session's wait is complete. Never blocks.
    void wake();

private:
    bool handle(std::uint8_t first);
    bool answer(const std::string& bytes);
    bool changed(StoreTable::Result result);
    bool drop(const char* code, const std::string& text);

    bool read(void* data, std::size_t n);
    std::optional<std::uint64_t> readU64();
    std::optional<std::string> readBytes(std::uint64_t limit, const char* what,
                                         std::optional<std::uint64_t> knownLength = {});
    std::optional<std::vector<std::string>> readKeys();

    std::unique_ptr<Connection> m_io;
    Context m_ctx;
    std::mutex m_sendMutex; // this session's answers and another thread's wake-up never interleave
    std::atomic<bool> m_wakePending{false};
    int m_dialect = 0; // 0 until the first bytes say
    TimePoint m_queryDeadline{};
    std::uint64_t m_buffered = 0; // of the query being read, charged to m_ctx.buffers
};

} // namespace ddpdesk::net
