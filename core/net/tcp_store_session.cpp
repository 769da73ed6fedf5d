#include "net/tcp_store_session.h"

#include "net/tcp_store_wire.h"

#include <algorithm>
#include <cstdio>

namespace ddpdesk::net {

namespace {

// Idle connections are read in slices this long: a pending wake-up goes out at the latest after one.
constexpr Millis kIdleSlice{200};
// A client writes a whole query in one flush; one that stalls mid-query this long is dropped.
constexpr Millis kQueryTime{30000};
// A client that does not take its answer this long has stopped reading: it is dropped, and nobody else waits.
constexpr Millis kAnswerTime{5000};

using wire::Query;

std::string byteText(std::uint8_t b) {
    char text[8];
    std::snprintf(text, sizeof text, "0x%02x", b);
    return text;
}

} // namespace

bool ByteBudget::take(std::uint64_t n) {
    std::uint64_t used = m_used.load();
    do {
        if (used + n > m_max) return false;
    } while (!m_used.compare_exchange_weak(used, used + n));
    return true;
}

StoreSession::StoreSession(std::unique_ptr<Connection> io, Context context)
    : m_io(std::move(io)), m_ctx(std::move(context)) {}

void StoreSession::run() {
    while (!m_ctx.stopping) {
        if (m_wakePending.exchange(false) && !answer(std::string(1, static_cast<char>(wire::kStopWaiting))))
            break;
        unsigned char first = 0;
        if (!m_io->recvExact(&first, 1, Clock::now() + kIdleSlice)) {
            if (m_io->timedOut()) continue;
            break; // closed or failed: as c10d does, the connection ends and the store lives on
        }
        m_queryDeadline = Clock::now() + kQueryTime;
        const bool keep = handle(first);
        m_ctx.buffers.give(m_buffered);
        m_buffered = 0;
        if (!keep) break;
    }
    m_ctx.table.cancelWait(this);
}

void StoreSession::wake() {
    {
        std::unique_lock<std::mutex> lock(m_sendMutex, std::try_to_lock);
        if (lock.owns_lock() && m_io->sendByteNow(static_cast<char>(wire::kStopWaiting))) return;
    }
    m_wakePending = true;
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
        if (!m_ctx.buffers.take(chunk)) {
            drop(kNoticeMemoryCap, "store clients are sending more than " +
                                       std::to_string(m_ctx.buffers.max() >> 20) +
                                       " MiB at once; the connection sending a " + std::to_string(*n) +
                                       "-byte " + what + " was closed");
            return std::nullopt;
        }
        m_buffered += chunk;
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
    for (std::uint64_t i = 0; i < *n; ++i) {
        auto k = readBytes(StoreLimits::kMaxKeyBytes, "key");
        if (!k) return std::nullopt;
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
        std::string value;
        if (!changed(table.compareSet(*key, *expected, std::move(*desired), value))) return false;
        wire::putString(reply, value);
        break;
    }
    case Query::Add: {
        auto key = readBytes(maxKey, "key");
        auto delta = key ? readU64() : std::nullopt;
        if (!delta) return false;
        std::int64_t sum = 0;
        if (!changed(table.add(*key, static_cast<std::int64_t>(*delta), sum))) return false;
        wire::putLe(reply, static_cast<std::uint64_t>(sum), 8);
        break;
    }
    case Query::Get: {
        auto key = readBytes(maxKey, "key");
        auto value = key ? table.get(*key) : std::nullopt;
        if (!value) return false; // clients wait first; c10d drops a client asking for a missing key too
        wire::putString(reply, *value);
        break;
    }
    case Query::MultiGet: {
        auto keys = readKeys();
        auto values = keys ? table.multiGet(*keys) : std::nullopt;
        if (!values) return false;
        for (const std::string& v : *values)
            wire::putString(reply, v);
        break;
    }
    case Query::Check: {
        auto keys = readKeys();
        if (!keys) return false;
        reply.push_back(
            static_cast<char>(table.allPresent(*keys) ? wire::kCheckReady : wire::kCheckNotReady));
        break;
    }
    case Query::Wait: {
        auto keys = readKeys();
        if (!keys) return false;
        if (!table.waitFor(shared_from_this(), std::move(*keys))) return true; // answered when complete
        reply.push_back(static_cast<char>(wire::kStopWaiting));
        break;
    }
    case Query::CancelWait:
        table.cancelWait(this);
        reply.push_back(static_cast<char>(wire::kWaitCanceled));
        break;
    case Query::NumKeys:
        wire::putLe(reply, table.numKeys(), 8);
        break;
    case Query::DeleteKey: {
        auto key = readBytes(maxKey, "key");
        if (!key) return false;
        wire::putLe(reply, table.erase(*key), 8);
        break;
    }
    case Query::Ping: {
        unsigned char nonce[4];
        if (!read(nonce, 4)) return false;
        reply.assign(reinterpret_cast<const char*>(nonce), 4);
        break;
    }
    case Query::WatchKey:
        return false;
    }
    return answer(reply);
}

} // namespace ddpdesk::net
