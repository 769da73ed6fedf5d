#pragma once

// The clients waiting for keys in a StoreTable, indexed by key: a change looks up the waiters of the one key
// it changed and no others, so a hundred waiters with long key lists cost a change nothing. As in c10d's own
// server, a wait counts the keys missing when it came and is complete once each of them has been set (a key
// deleted again in between does not undo that). What a wait holds is counted (bytes()) so that the table can
// charge it to its cap like the keys and values it holds. Not locked: the table's lock guards it.

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace ddpdesk::net {

class StoreSession;
using Waiters = std::vector<std::shared_ptr<StoreSession>>;

class StoreWaiters {
public:
    // Per key a wait holds the key twice (its own list and the index) plus a node of each container; this is
    // a generous bound on those nodes, so the count stays above the memory really used.
    static constexpr std::uint64_t kOverheadPerKey = 128;
    // What a wait for `missing` (distinct keys) holds.
    static std::uint64_t bytesFor(const std::vector<std::string>& missing);

    // `missing`: distinct keys, none present now, at least one. A waiter has one wait: call remove() first.
    void add(std::shared_ptr<StoreSession> waiter, std::vector<std::string> missing);
    void remove(const StoreSession* waiter);
    // `key` was set: the waits it completed end, their waiters are appended to `woken`.
    void keySet(const std::string& key, Waiters& woken);
    std::uint64_t bytes() const { return m_bytes; }
    std::size_t size() const { return m_waits.size(); }

private:
    struct Wait {
        std::shared_ptr<StoreSession> who;
        std::vector<std::string> keys; // all it waited for, to find it in the index when it is cancelled
        std::size_t missing = 0;       // of those, not yet set
        std::uint64_t bytes = 0;
    };
    std::unordered_map<const StoreSession*, Wait> m_waits;
    std::unordered_map<std::string, std::vector<const StoreSession*>> m_byKey;
    std::uint64_t m_bytes = 0;
};

} // namespace ddpdesk::net
