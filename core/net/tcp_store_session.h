#pragma once

// One client connection of DDP Desk's TCPStore server: reads its queries in either wire dialect
// (tcp_store_wire.h), answers them from the StoreTable, and wakes the waiters its changes complete.
//
// What a broken or hostile client can cost is bounded here: a frame's values are read in chunks charged to a
// budget shared by every connection (memory follows the bytes that really arrive, never a length prefix),
// every answer is charged to the same budget before it is built (a MULTIGET of one large key 1,024 times is
// refused, not copied), a query must arrive whole within kQueryTime, an answer that cannot go out within
// kAnswerTime drops only this client, and a wake-up from another client's thread is sent only when it can go
// out at once (otherwise this session's own thread sends it). A query this server does not know is named in a
// notice before the connection closes: a newer PyTorch's ranks are never disconnected without a word.
// Whatever the work throws (out of memory, a notice sink that throws) ends this connection with a notice,
// never the process.

#include "net/byte_budget.h"
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
    // One query's key list (WAIT, CHECK, MULTIGET), counting kKeyOverhead a key: a rendezvous lists a few
    // keys per rank, and a WAIT's list is held as long as it waits.
    static constexpr std::uint64_t kMaxKeyListBytes = 8ull * 1024 * 1024;
    static constexpr std::uint64_t kKeyOverhead = 64; // a std::string in a vector, and its allocation
    static constexpr std::uint64_t kReadChunk =
        64 * 1024; // memory is taken as the bytes arrive, this much at a time
};

// A reason the server refused or dropped a client, for the host's log and events. `code` is one of the
// kNotice* names below.
struct StoreNotice {
    std::string code;
    std::string text;
};
using StoreNoticeSink = std::function<void(const StoreNotice&)>;
// For a thread's last words: says `n` unless the sink throws (or no memory is left to say it); never throws.
void sayNoThrow(const StoreNoticeSink& sink, const StoreNotice& n) noexcept;
inline constexpr const char* kNoticeUnknownQuery = "STORE_UNKNOWN_QUERY";
inline constexpr const char* kNoticeOversized = "STORE_OVERSIZED_FRAME";
inline constexpr const char* kNoticeMemoryCap = "STORE_MEMORY_CAP";
inline constexpr const char* kNoticeStalled = "STORE_CLIENT_STALLED";
inline constexpr const char* kNoticeConnectionLimit = "STORE_CONNECTION_LIMIT";
// A server thread met an exception (out of memory, a notice sink that threw): its connection was closed.
inline constexpr const char* kNoticeInternal = "STORE_INTERNAL_ERROR";

class StoreSession : public std::enable_shared_from_this<StoreSession> {
public:
    struct Context {
        StoreTable& table;
        ByteBudget& buffers;
        const std::atomic<bool>& stopping;
        StoreNoticeSink notice; // called from this session's thread
    };
    StoreSession(std::unique_ptr<Connection> io, Context context);

    // Serves until the peer leaves, breaks the protocol, stalls, or the server stops. Never throws: whatever
    // the work throws closes this connection with a kNoticeInternal notice.
    void run() noexcept;
    // Any thread: ends run() within Connection::kCancelSlice, even in the middle of a frame.
    void cancel() { m_io->cancel(); }
    // Another session's thread: this session's wait is complete. Never blocks.
    void wake();

private:
    void serve();
    bool handle(std::uint8_t first);
    // Takes `n` bytes of the budget for the answer being built; false (after a notice): the connection is to
    // be closed, nothing was taken.
    bool chargeAnswer(std::uint64_t n, const std::string& what);
    // What `values` answers with (a uint64 length and the bytes each), charged before a byte of it is built.
    AnswerSink answerSink(std::string& reply, std::size_t values);
    bool answer(const std::string& bytes); // once charged
    bool refused(const std::string& what); // the answer's charge said no
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
    BudgetCharge m_frame;        // the query being read
    BudgetCharge m_answer;       // the answer being built and sent
    std::uint64_t m_refused = 0; // the size of the answer whose charge was refused, for its notice
};

} // namespace ddpdesk::net
