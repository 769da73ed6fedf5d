#include "net/tcp_store_table.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

namespace ddpdesk::net {

bool StoreTable::presentLocked(const std::vector<std::string>& keys) const {
    return std::all_of(keys.begin(), keys.end(),
                       [this](const std::string& k) { return m_data.count(k) > 0; });
}

bool StoreTable::addFitsLocked(std::uint64_t extra) const {
    const std::uint64_t held = m_bytes + m_waiters.bytes();
    return held <= m_maxBytes && extra <= m_maxBytes - held; // no sum that could wrap around
}

bool StoreTable::fitsLocked(const std::string& key, std::uint64_t newSize) const {
    auto it = m_data.find(key);
    const std::uint64_t old = it == m_data.end() ? 0 : key.size() + it->second.size();
    const std::uint64_t grows = key.size() + newSize;
    return grows <= old || addFitsLocked(grows - old);
}

void StoreTable::putLocked(const std::string& key, std::string value, Waiters& woken) {
    auto it = m_data.find(key);
    if (it != m_data.end()) {
        m_bytes -= key.size() + it->second.size();
        it->second = std::move(value);
    } else {
        it = m_data.emplace(key, std::move(value)).first;
    }
    m_bytes += key.size() + it->second.size();
    m_waiters.keySet(key, woken);
}

StoreTable::Result StoreTable::set(const std::string& key, std::string value) {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (!fitsLocked(key, value.size())) return {Change::OverCap, {}};
    Result r;
    putLocked(key, std::move(value), r.woken);
    return r;
}

StoreTable::Result StoreTable::append(const std::string& key, const std::string& value) {
    std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_data.find(key);
    const std::uint64_t old = it == m_data.end() ? 0 : it->second.size();
    if (!fitsLocked(key, old + value.size())) return {Change::OverCap, {}};
    std::string joined = it == m_data.end() ? std::string() : it->second;
    joined += value;
    Result r;
    putLocked(key, std::move(joined), r.woken);
    return r;
}

StoreTable::Result StoreTable::multiSet(std::vector<std::pair<std::string, std::string>> pairs) {
    std::lock_guard<std::mutex> lock(m_mutex);
    std::uint64_t total = 0; // an upper bound: as if no key replaced another
    for (const auto& [key, value] : pairs)
        total += key.size() + value.size();
    if (!addFitsLocked(total)) return {Change::OverCap, {}};
    Result r;
    for (auto& [key, value] : pairs)
        putLocked(key, std::move(value), r.woken);
    return r;
}

StoreTable::Result StoreTable::compareSet(const std::string& key, const std::string& expected,
                                          std::string desired, const AnswerSink& answer) {
    std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_data.find(key);
    const bool replaces = it == m_data.end() ? expected.empty() : it->second == expected;
    if (!replaces) {
        const std::string& told = it == m_data.end() ? expected : it->second;
        if (!answer.charge(told.size())) return {Change::AnswerRefused, {}};
        answer.each(told);
        return {Change::Done, {}};
    }
    if (!fitsLocked(key, desired.size())) return {Change::OverCap, {}};
    if (!answer.charge(desired.size())) return {Change::AnswerRefused, {}};
    answer.each(desired);
    Result r;
    putLocked(key, std::move(desired), r.woken);
    return r;
}

StoreTable::Result StoreTable::add(const std::string& key, std::int64_t delta, std::int64_t& sum) {
    std::lock_guard<std::mutex> lock(m_mutex);
    sum = delta;
    auto it = m_data.find(key);
    if (it != m_data.end()) {
        char* end = nullptr;
        errno = 0;
        const long long old = std::strtoll(it->second.c_str(), &end, 10);
        if (it->second.empty() || end != it->second.c_str() + it->second.size() || errno == ERANGE)
            return {Change::NotACounter, {}};
        // c10d's counter wraps like the int64 it is; unsigned arithmetic makes that defined here too.
        sum = static_cast<std::int64_t>(static_cast<std::uint64_t>(old) + static_cast<std::uint64_t>(delta));
    }
    std::string text = std::to_string(sum);
    if (!fitsLocked(key, text.size())) return {Change::OverCap, {}};
    Result r;
    putLocked(key, std::move(text), r.woken);
    return r;
}

StoreTable::Lookup StoreTable::values(const std::vector<std::string>& keys, const AnswerSink& answer) const {
    std::lock_guard<std::mutex> lock(m_mutex);
    // Sized first (the same key asked for 1,024 times counts 1,024 times), copied only once paid for.
    std::vector<const std::string*> found;
    found.reserve(keys.size());
    std::uint64_t total = 0;
    for (const std::string& key : keys) {
        auto it = m_data.find(key);
        if (it == m_data.end()) return Lookup::Missing;
        found.push_back(&it->second);
        total += it->second.size(); // at most 64 Ki keys of at most 1 GiB held: cannot wrap
    }
    if (!answer.charge(total)) return Lookup::AnswerRefused;
    for (const std::string* value : found)
        answer.each(*value);
    return Lookup::Done;
}

bool StoreTable::allPresent(const std::vector<std::string>& keys) const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return presentLocked(keys);
}

std::size_t StoreTable::erase(const std::string& key) {
    std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_data.find(key);
    if (it == m_data.end()) return 0;
    m_bytes -= key.size() + it->second.size();
    m_data.erase(it);
    return 1;
}

std::size_t StoreTable::numKeys() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_data.size();
}

std::uint64_t StoreTable::bytes() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_bytes + m_waiters.bytes();
}

StoreTable::Wait StoreTable::waitFor(const std::shared_ptr<StoreSession>& waiter,
                                     std::vector<std::string> missing) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_waiters.remove(waiter.get());
    missing.erase(std::remove_if(missing.begin(), missing.end(),
                                 [this](const std::string& k) { return m_data.count(k) > 0; }),
                  missing.end());
    if (missing.empty()) return Wait::Ready;
    // A key listed twice is waited for once: it is set once.
    std::sort(missing.begin(), missing.end());
    missing.erase(std::unique(missing.begin(), missing.end()), missing.end());
    if (!addFitsLocked(StoreWaiters::bytesFor(missing))) return Wait::OverCap;
    m_waiters.add(waiter, std::move(missing));
    return Wait::Waiting;
}

void StoreTable::cancelWait(const StoreSession* waiter) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_waiters.remove(waiter);
}

} // namespace ddpdesk::net
