#include "net/tcp_store_session.h"

#include "net/tcp_store_wire.h"

#include <algorithm>
#include <cstdio>
#include <exception>

namespace ddpdesk::net {

namespace {

// Idle connections are read in slices this long: a pending wake-up goes out at the latest after one.
constexpr Millis kIdleSlice{200};
// A client writes a whole query in one flush; one that stalls mid-query this long is dropped.
constexpr Millis kQueryTime{30000};
// A client that does not take its answer this long has stopped reading: it is dropped, and nobody else waits.
constexpr Millis kAnswerTime{5000};

using wire::Query;

std::string describe(const std::exception_ptr& error) {
    try {
        std::rethrow_exception(error);
    } catch (const std::exception& e) {
        return e.what();
    } catch (...) {
        return "an exception of unknown type";
    }
}

std::string byteText(std::uint8_t b) {
    char text[8];
    std::snprintf(text, sizeof text, "0x%02x", b);
    return text;
}

} // namespace

StoreSession::StoreSession(std::unique_ptr<Connection> io, Context context)
    : m_io(std::move(io)), m_ctx(std::move(context)), m_frame(m_ctx.buffers), m_answer(m_ctx.buffers) {}

void sayNoThrow(const StoreNoticeSink& sink, const StoreNotice& n) noexcept {
    try {
        if (sink) sink(n);
    } catch (...) {
        // The sink itself threw: nothing more can be said from here, and the thread must still end cleanly.
    }
}

void StoreSession::run() noexcept {
    std::exception_ptr error; // described after the handler: building text there could throw again
    try {
        serve();
    } catch (...) {
        error = std::current_exception();
    }
    if (error && !m_ctx.stopping) {
        try {
            sayNoThrow(m_ctx.notice,
                       {kNoticeInternal, "a store connection's thread failed (" + describe(error) +
                                             "); its connection was closed (the store and other "
                                             "clients go on)"});
        } catch (...) {
            // Building the text ran out of memory: the connection still closes below.
        }
    }
    m_frame.release();
    m_answer.release();
    try {
        m_ctx.table.cancelWait(this);
    } catch (...) {
        // Only locking can throw here, and then the table is unusable for everyone anyway.
    }
}

void StoreSession::serve() {
    while (!m_ctx.stopping) {
        if (m_wakePending.exchange(false)) {
            const bool sent =
                chargeAnswer(1, "a wake-up") && answer(std::string(1, static_cast<char>(wire::kStopWaiting)));
            m_answer.release();
            if (!sent) break;
        }
        unsigned char first = 0;
        if (!m_io->recvExact(&first, 1, Clock::now() + kIdleSlice)) {
            if (m_io->timedOut()) continue;
            break; // closed or failed: as c10d does, the connection ends and the store lives on
        }
        m_queryDeadline = Clock::now() + kQueryTime;
        const bool keep = handle(first);
        m_frame.release();
        m_answer.release();
        if (!keep) break;
    }
}

void StoreSession::wake() {
    {
        std::unique_lock<std::mutex> lock(m_sendMutex, std::try_to_lock);
        if (lock.owns_lock() && m_io->sendByteNow(static_cast<char>(wire::kStopWaiting))) return;
    }
    m_wakePending = true;
}

bool StoreSession::chargeAnswer(std::uint64_t n, const std::string& what) {
    if (m_answer.take(n)) return true;
    m_refused = n;
    return refused(what);
}

bool StoreSession::refused(const std::string& what) {
    const ByteBudget& b = m_ctx.buffers;
    return drop(kNoticeMemoryCap,
                "a store client's answer to " + what + " would take " + std::to_string(m_refused) +
                    " bytes, past the " + std::to_string(b.max() >> 20) +
                    " MiB budget of frames and answers in flight (" + std::to_string(b.used() >> 20) +
                    " MiB in use); it was not built and its connection was closed (the store "
                    "and other clients go on)");
}

AnswerSink StoreSession::answerSink(std::string& reply, std::size_t values) {
    // Called under the table's lock: no notice from here (drop() says it after), only the budget's atomic.
    return {[this, &reply, values](std::uint64_t valueBytes) {
                const std::uint64_t n = valueBytes + 8 * std::uint64_t(values);
                if (!m_answer.take(n)) {
                    m_refused = n;
                    return false;
                }
                reply.reserve(static_cast<std::size_t>(n)); // built in place: no copy beyond the one charged
                return true;
            },
            [&reply](const std::string& v) { wire::putString(reply, v); }};
}

bool StoreSession::answer(const std::string& bytes) {
    std::lock_guard<std::mutex> lock(m_sendMutex);
    if (m_io->sendAll(bytes.data(), bytes.size(), Clock::now() + kAnswerTime)) return true;
    if (m_io->timedOut())
        return drop(kNoticeStalled, "a store client stopped reading its answers for " +
                                        std::to_string(kAnswerTime.count() / 1000) +
                                        " s; its connection was closed (the store and other clients go on)");
    return false;
}

bool StoreSession::changed(StoreTable::Result result) {
    if (result.change == StoreTable::Change::OverCap)
        return drop(kNoticeMemoryCap, "a store client's value would take the store past its " +
                                          std::to_string(m_ctx.table.maxBytes() >> 20) +
                                          " MiB cap; its connection was closed");
    if (result.change == StoreTable::Change::NotACounter) return false; // c10d drops such a client too
    if (result.change == StoreTable::Change::AnswerRefused) return refused("COMPARE_SET");
    for (const auto& waiter : result.woken)
        waiter->wake();
    return true;
}

bool StoreSession::drop(const char* code, const std::string& text) {
    if (m_ctx.notice && !m_ctx.stopping) m_ctx.notice({code, text});
    return false;
}

bool StoreSession::read(void* data, std::size_t n) {
    if (m_io->recvExact(data, n, m_queryDeadline)) return true;
    if (m_io->timedOut())
        drop(kNoticeStalled, "a store client sent part of a query and nothing more for " +
                                 std::to_string(kQueryTime.count() / 1000) + " s; its connection was closed");
    return false;
}

std::optional<std::uint64_t> StoreSession::readU64() {
    unsigned char b[8];
    if (!read(b, 8)) return std::nullopt;
    return wire::getLe(b, 8);
}

std::optional<std::string> StoreSession::readBytes(std::uint64_t limit, const char* what,
                                                   std::optional<std::uint64_t> knownLength) {
    const auto n = knownLength ? knownLength : readU64();
    if (!n) return std::nullopt;
    if (*n > limit) {
        drop(kNoticeOversized, std::string("a store client announced a ") + what + " of " +
                                   std::to_string(*n) + " bytes (at most " + std::to_string(limit) +
                                   "); its connection was closed");
        return std::nullopt;
    }
    std::string s;
    while (s.size() < *n) {
        const std::size_t chunk =
            static_cast<std::size_t>(std::min<std::uint64_t>(StoreLimits::kReadChunk, *n - s.size()));
        if (!m_frame.take(chunk)) {
            drop(kNoticeMemoryCap, "store clients are sending more than " +
                                       std::to_string(m_ctx.buffers.max() >> 20) +
                                       " MiB at once; the connection sending a " + std::to_string(*n) +
                                       "-byte " + what + " was closed");
            return std::nullopt;
        }
        const std::size_t at = s.size();
        s.resize(at + chunk);
        if (!read(&s[at], chunk)) return std::nullopt;
    }
    return s;
}

std::optional<std::vector<std::string>> StoreSession::readKeys() {
    const auto n = readU64();
    if (!n) return std::nullopt;
    if (*n > StoreLimits::kMaxKeysPerQuery) {
        drop(kNoticeOversized,
             "a store client announced " + std::to_string(*n) + " keys in one query (at most " +
                 std::to_string(StoreLimits::kMaxKeysPerQuery) + "); its connection was closed");
        return std::nullopt;
    }
    std::vector<std::string> keys;
    std::uint64_t listBytes = 0;
    for (std::uint64_t i = 0; i < *n; ++i) {
        // Each key's string in the list is memory too: charged like the bytes, and counted against the list.
        if (!m_frame.take(StoreLimits::kKeyOverhead)) {
            drop(kNoticeMemoryCap, "store clients are sending more than " +
                                       std::to_string(m_ctx.buffers.max() >> 20) +
                                       " MiB at once; the connection sending a list of " +
                                       std::to_string(*n) + " keys was closed");
            return std::nullopt;
        }
        auto k = readBytes(StoreLimits::kMaxKeyBytes, "key");
        if (!k) return std::nullopt;
        listBytes += k->size() + StoreLimits::kKeyOverhead;
        if (listBytes > StoreLimits::kMaxKeyListBytes) {
            drop(kNoticeOversized, "a store client sent a list of " + std::to_string(*n) + " keys past " +
                                       std::to_string(StoreLimits::kMaxKeyListBytes >> 20) +
                                       " MiB (counting " + std::to_string(StoreLimits::kKeyOverhead) +
                                       " bytes a key); its connection was closed");
            return std::nullopt;
        }
        keys.push_back(std::move(*k));
    }
    return keys;
}

// One query, its first byte already read. false: the connection is to be closed (a protocol error, a query
// this server does not serve, a limit passed, or the peer went away mid-query).
bool StoreSession::handle(std::uint8_t first) {
    std::optional<std::uint64_t>
        setKeyLength; // a v1 SET whose first length bytes were read to tell the dialect
    if (m_dialect == 0) {
        m_dialect = 1;
        if (first == 0) {
            unsigned char b[4];
            if (!read(b, 4)) return false;
            if (wire::getLe(b, 4) == wire::kValidationMagic) {
                m_dialect = 2;
                return true;
            }
            unsigned char high[4];
            if (!read(high, 4)) return false;
            setKeyLength = wire::getLe(b, 4) | (wire::getLe(high, 4) << 32);
        }
    }
    const std::optional<Query> q = wire::query(m_dialect, first);
    if (!q || *q == Query::WatchKey) {
        // WATCH_KEY is PyTorch 1.x's callback API: no rendezvous uses it, and a silent "yes" would hang a
        // caller.
        return drop(
            kNoticeUnknownQuery,
            "a PyTorch " + std::string(m_dialect == 2 ? "2.x (v2 wire dialect)" : "1.x (v1 wire dialect)") +
                " store client sent query byte " + byteText(first) +
                (q ? " (WATCH_KEY, which DDP Desk's store does not serve)"
                   : ", which DDP Desk's store server does not know (a newer PyTorch may have added it)") +
                "; its connection was closed");
    }
    StoreTable& table = m_ctx.table;
    const auto maxKey = StoreLimits::kMaxKeyBytes;
    const auto maxValue = StoreLimits::kMaxValueBytes;
    std::string reply;
    switch (*q) {
    case Query::Validate: {
        unsigned char b[4];
        return read(b, 4) && wire::getLe(b, 4) == wire::kValidationMagic;
    }
    case Query::Set:
    case Query::Append: {
        auto key = readBytes(maxKey, "key", setKeyLength);
        auto value = key ? readBytes(maxValue, "value") : std::nullopt;
        if (!value) return false;
        return changed(*q == Query::Set ? table.set(*key, std::move(*value)) : table.append(*key, *value));
    }
    case Query::MultiSet: {
        const auto n = readU64();
        if (!n || *n > StoreLimits::kMaxKeysPerQuery) return false;
        std::vector<std::pair<std::string, std::string>> pairs;
        for (std::uint64_t i = 0; i < *n; ++i) {
            auto key = readBytes(maxKey, "key");
            auto value = key ? readBytes(maxValue, "value") : std::nullopt;
            if (!value) return false;
            pairs.emplace_back(std::move(*key), std::move(*value));
        }
        return changed(table.multiSet(std::move(pairs)));
    }
    case Query::CompareSet: {
        auto key = readBytes(maxKey, "key");
        auto expected = key ? readBytes(maxValue, "value") : std::nullopt;
        auto desired = expected ? readBytes(maxValue, "value") : std::nullopt;
        if (!desired) return false;
        if (!changed(table.compareSet(*key, *expected, std::move(*desired), answerSink(reply, 1))))
            return false;
        break;
    }
    case Query::Add: {
        auto key = readBytes(maxKey, "key");
        auto delta = key ? readU64() : std::nullopt;
        if (!delta) return false;
        std::int64_t sum = 0;
        if (!chargeAnswer(8, "ADD") || !changed(table.add(*key, static_cast<std::int64_t>(*delta), sum)))
            return false;
        wire::putLe(reply, static_cast<std::uint64_t>(sum), 8);
        break;
    }
    case Query::Get:
    case Query::MultiGet: {
        std::optional<std::vector<std::string>> keys;
        if (*q == Query::Get) {
            auto key = readBytes(maxKey, "key");
            if (key) keys.emplace(1, std::move(*key));
        } else {
            keys = readKeys();
        }
        if (!keys) return false;
        const std::string what =
            *q == Query::Get ? std::string("GET") : "MULTIGET of " + std::to_string(keys->size()) + " keys";
        switch (table.values(*keys, answerSink(reply, keys->size()))) {
        case StoreTable::Lookup::Done:
            break;
        case StoreTable::Lookup::Missing:
            return false; // clients wait first; c10d drops a client asking for a missing key too
        case StoreTable::Lookup::AnswerRefused:
            return refused(what);
        }
        break;
    }
    case Query::Check: {
        auto keys = readKeys();
        if (!keys || !chargeAnswer(1, "CHECK")) return false;
        reply.push_back(
            static_cast<char>(table.allPresent(*keys) ? wire::kCheckReady : wire::kCheckNotReady));
        break;
    }
    case Query::Wait: {
        auto keys = readKeys();
        if (!keys) return false;
        const std::size_t listed = keys->size();
        switch (table.waitFor(shared_from_this(), std::move(*keys))) {
        case StoreTable::Wait::Waiting:
            return true; // answered when complete (its key list is held within the store's cap till then)
        case StoreTable::Wait::OverCap:
            return drop(kNoticeMemoryCap, "a store client's WAIT for " + std::to_string(listed) +
                                              " keys would take the store past its " +
                                              std::to_string(table.maxBytes() >> 20) +
                                              " MiB cap (keys, values and waits' key lists); its connection "
                                              "was closed");
        case StoreTable::Wait::Ready:
            break;
        }
        if (!chargeAnswer(1, "WAIT")) return false;
        reply.push_back(static_cast<char>(wire::kStopWaiting));
        break;
    }
    case Query::CancelWait:
        table.cancelWait(this);
        if (!chargeAnswer(1, "CANCEL_WAIT")) return false;
        reply.push_back(static_cast<char>(wire::kWaitCanceled));
        break;
    case Query::NumKeys:
        if (!chargeAnswer(8, "NUM_KEYS")) return false;
        wire::putLe(reply, table.numKeys(), 8);
        break;
    case Query::DeleteKey: {
        auto key = readBytes(maxKey, "key");
        if (!key || !chargeAnswer(8, "DELETE_KEY")) return false;
        wire::putLe(reply, table.erase(*key), 8);
        break;
    }
    case Query::Ping: {
        unsigned char nonce[4];
        if (!read(nonce, 4) || !chargeAnswer(4, "PING")) return false;
        reply.assign(reinterpret_cast<const char*>(nonce), 4);
        break;
    }
    case Query::WatchKey:
        return false;
    }
    return answer(reply);
}

} // namespace ddpdesk::net
