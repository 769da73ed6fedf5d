#pragma once

// What a TCPStore holds: its keys and values, and the clients waiting for keys. One lock guards both, and no
// socket is ever touched under it: every change returns the waiters it completed, and the caller wakes them
// after the call, so a client that stopped reading can delay nobody but itself.
//
// The table's size is capped (keys and values together): a change that would pass the cap is refused whole.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ddpdesk::net {

class StoreSession;
using Waiters = std::vector<std::shared_ptr<StoreSession>>;

class StoreTable {
public:
    explicit StoreTable(std::uint64_t maxBytes) : m_maxBytes(maxBytes) {}

    enum class Change { Done, OverCap, NotACounter };
    struct Result {
        Change change = Change::Done;
        Waiters woken; // to be woken by the caller, outside the table's lock
    };

    Result set(const std::string& key, std::string value);
    Result append(const std::string& key, const std::string& value);
    Result multiSet(std::vector<std::pair<std::string, std::string>> pairs);
    // c10d's answers, including its quirk: a missing key with a non-empty expectation answers the expectation
    // and sets nothing. `answer` is the value the client is told.
    Result compareSet(const std::string& key, const std::string& expected, std::string desired,
                      std::string& answer);
    Result add(const std::string& key, std::int64_t delta, std::int64_t& sum);

    std::optional<std::string> get(const std::string& key) const;
    std::optional<std::vector<std::string>> multiGet(const std::vector<std::string>& keys) const;
    bool allPresent(const std::vector<std::string>& keys) const;
    std::size_t erase(const std::string& key);
    std::size_t numKeys() const;
    std::uint64_t bytes() const;
    std::uint64_t maxBytes() const { return m_maxBytes; }

    // true: every key is present now (nothing registered); false: `waiter` is woken once they all are.
    bool waitFor(const std::shared_ptr<StoreSession>& waiter, std::vector<std::string> keys);
    void cancelWait(const StoreSession* waiter);

private:
    bool presentLocked(const std::vector<std::string>& keys) const;
    // Whether replacing `key`'s value (absent: nothing) by `newSize` bytes keeps the table under its cap.
    bool fitsLocked(const std::string& key, std::uint64_t newSize, std::uint64_t extra = 0) const;
    void putLocked(const std::string& key, std::string value);
    Waiters wakeLocked();

    const std::uint64_t m_maxBytes;
    mutable std::mutex m_mutex;
    std::map<std::string, std::string> m_data;
    std::uint64_t m_bytes = 0;
    std::vector<std::pair<std::shared_ptr<StoreSession>, std::vector<std::string>>> m_waiting;
};

} // namespace ddpdesk::net
