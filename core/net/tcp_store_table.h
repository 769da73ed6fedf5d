#pragma once

// What a TCPStore holds: its keys and values, and the clients waiting for keys (indexed by key,
// tcp_store_waiters.h). One lock guards both, and no socket is ever touched under it: every change returns
// the waiters it completed, and the caller wakes them after the call, so a client that stopped reading can
// delay nobody but itself.
//
// The table's size is capped: keys, values and the key lists of waits together. A change or a wait that would
// pass the cap is refused whole. An answer built from values (GET, MULTIGET, COMPARE_SET) is paid for before
// a byte of it is copied: the caller's charge is asked for its size under the lock, and a refusal copies
// nothing.

#include "net/tcp_store_waiters.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace ddpdesk::net {

// Where an answer made of values goes: `charge` is asked for the values' total size first (false: nothing is
// copied, the query is refused), then `each` is handed the values in order, under the table's lock.
struct AnswerSink {
    std::function<bool(std::uint64_t valueBytes)> charge;
    std::function<void(const std::string& value)> each;
};

class StoreTable {
public:
    explicit StoreTable(std::uint64_t maxBytes) : m_maxBytes(maxBytes) {}

    // AnswerRefused: the answer's charge said no; nothing changed.
    enum class Change { Done, OverCap, NotACounter, AnswerRefused };
    struct Result {
        Change change = Change::Done;
        Waiters woken; // to be woken by the caller, outside the table's lock
    };

    Result set(const std::string& key, std::string value);
    Result append(const std::string& key, const std::string& value);
    Result multiSet(std::vector<std::pair<std::string, std::string>> pairs);
    // c10d's answers, including its quirk: a missing key with a non-empty expectation answers the expectation
    // and sets nothing. The value the client is told goes to `answer` (one value).
    Result compareSet(const std::string& key, const std::string& expected, std::string desired,
                      const AnswerSink& answer);
    Result add(const std::string& key, std::int64_t delta, std::int64_t& sum);

    enum class Lookup { Done, Missing, AnswerRefused };
    // GET and MULTIGET: the values of `keys` in order (Missing: one is not there, nothing was charged).
    Lookup values(const std::vector<std::string>& keys, const AnswerSink& answer) const;
    bool allPresent(const std::vector<std::string>& keys) const;
    std::size_t erase(const std::string& key);
    std::size_t numKeys() const;
    std::uint64_t bytes() const; // keys, values and waits' key lists: what the cap is checked against
    std::uint64_t maxBytes() const { return m_maxBytes; }

    enum class Wait { Ready, Waiting, OverCap };
    // Ready: every key is present now (nothing registered); Waiting: `waiter` is woken once each missing key
    // has been set; OverCap: the wait's key list would pass the cap (nothing registered). A waiter's earlier
    // wait, if any, is replaced.
    Wait waitFor(const std::shared_ptr<StoreSession>& waiter, std::vector<std::string> keys);
    void cancelWait(const StoreSession* waiter);

private:
    bool presentLocked(const std::vector<std::string>& keys) const;
    // Whether replacing `key`'s value (absent: nothing) by `newSize` bytes keeps the table under its cap.
    bool fitsLocked(const std::string& key, std::uint64_t newSize) const;
    bool addFitsLocked(std::uint64_t extra) const;
    // Stores the value and appends the waiters its key completed to `woken`.
    void putLocked(const std::string& key, std::string value, Waiters& woken);

    const std::uint64_t m_maxBytes;
    mutable std::mutex m_mutex;
    std::map<std::string, std::string> m_data;
    std::uint64_t m_bytes = 0; // of m_data's keys and values
    StoreWaiters m_waiters;
};

} // namespace ddpdesk::net
