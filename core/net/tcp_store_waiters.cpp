#include "net/tcp_store_waiters.h"

#include <algorithm>

namespace ddpdesk::net {

std::uint64_t StoreWaiters::bytesFor(const std::vector<std::string>& missing) {
    std::uint64_t n = 0;
    for (const std::string& key : missing)
        n += 2 * key.size() + kOverheadPerKey;
    return n;
}

void StoreWaiters::add(std::shared_ptr<StoreSession> waiter, std::vector<std::string> missing) {
    const StoreSession* id = waiter.get();
    Wait w;
    w.who = std::move(waiter);
    w.missing = missing.size();
    w.bytes = bytesFor(missing);
    w.keys = std::move(missing);
    auto it = m_waits.emplace(id, std::move(w)).first; // throws before anything changed, or not at all
    m_bytes += it->second.bytes;
    try {
        for (const std::string& key : it->second.keys)
            m_byKey[key].push_back(id);
    } catch (...) { // out of memory half way: no wait is left that the index half knows
        remove(id);
        throw;
    }
}

void StoreWaiters::remove(const StoreSession* waiter) {
    auto w = m_waits.find(waiter);
    if (w == m_waits.end()) return;
    for (const std::string& key : w->second.keys) {
        auto it = m_byKey.find(key);
        if (it == m_byKey.end()) continue; // set already
        it->second.erase(std::remove(it->second.begin(), it->second.end(), waiter), it->second.end());
        if (it->second.empty()) m_byKey.erase(it);
    }
    m_bytes -= w->second.bytes;
    m_waits.erase(w);
}

void StoreWaiters::keySet(const std::string& key, Waiters& woken) {
    auto it = m_byKey.find(key);
    if (it == m_byKey.end()) return;
    woken.reserve(woken.size() + it->second.size()); // so that nothing below can throw half way
    for (const StoreSession* id : it->second) {
        auto w = m_waits.find(id);
        if (w == m_waits.end() || --w->second.missing > 0) continue;
        woken.push_back(std::move(w->second.who));
        m_bytes -= w->second.bytes;
        m_waits.erase(w); // its other keys were set before this one, so the index holds it nowhere else
    }
    m_byKey.erase(it);
}

} // namespace ddpdesk::net
