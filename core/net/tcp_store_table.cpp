#include "net/tcp_store_table.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

namespace ddpdesk::net {

bool StoreTable::presentLocked(const std::vector<std::string>& keys) const {
    return std::all_of(keys.begin(), keys.end(),
                       [this](const std::string& k) { return m_data.count(k) > 0; });
}

bool StoreTable::fitsLocked(const std::string& key, std::uint64_t newSize, std::uint64_t extra) const {
    auto it = m_data.find(key);
    const std::uint64_t old = it == m_data.end() ? 0 : key.size() + it->second.size();
    return m_bytes - old + key.size() + newSize + extra <= m_maxBytes;
}

void StoreTable::putLocked(const std::string& key, std::string value) {
    auto it = m_data.find(key);
    if (it != m_data.end()) {
        m_bytes -= key.size() + it->second.size();
        it->second = std::move(value);
    } else {
        it = m_data.emplace(key, std::move(value)).first;
    }
    m_bytes += key.size() + it->second.size();
}

Waiters StoreTable::wakeLocked() {
    Waiters woken;
    for (auto it = m_waiting.begin(); it != m_waiting.end();) {
        if (presentLocked(it->second)) {
            woken.push_back(std::move(it->first));
            it = m_waiting.erase(it);
        } else {
            ++it;
        }
    }
    return woken;
}

StoreTable::Result StoreTable::set(const std::string& key, std::string value) {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (!fitsLocked(key, value.size())) return {Change::OverCap, {}};
    putLocked(key, std::move(value));
    return {Change::Done, wakeLocked()};
}

StoreTable::Result StoreTable::append(const std::string& key, const std::string& value) {
    std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_data.find(key);
    std::string joined = it == m_data.end() ? std::string() : it->second;
    if (!fitsLocked(key, joined.size() + value.size())) return {Change::OverCap, {}};
    joined += value;
    putLocked(key, std::move(joined));
    return {Change::Done, wakeLocked()};
}

StoreTable::Result StoreTable::multiSet(std::vector<std::pair<std::string, std::string>> pairs) {
    std::lock_guard<std::mutex> lock(m_mutex);
    std::uint64_t total = 0; // an upper bound: as if no key replaced another
    for (const auto& [key, value] : pairs)
        total += key.size() + value.size();
    if (m_bytes + total > m_maxBytes) return {Change::OverCap, {}};
    for (auto& [key, value] : pairs)
        putLocked(key, std::move(value));
    return {Change::Done, wakeLocked()};
}

StoreTable::Result StoreTable::compareSet(const std::string& key, const std::string& expected,
                                          std::string desired, std::string& answer) {
    std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_data.find(key);
    const bool replaces = it == m_data.end() ? expected.empty() : it->second == expected;
    if (!replaces) {
        answer = it == m_data.end() ? expected : it->second;
        return {Change::Done, {}};
    }
    if (!fitsLocked(key, desired.size())) return {Change::OverCap, {}};
    answer = desired;
    putLocked(key, std::move(desired));
    return {Change::Done, wakeLocked()};
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
    putLocked(key, std::move(text));
    return {Change::Done, wakeLocked()};
}

std::optional<std::string> StoreTable::get(const std::string& key) const {
    std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_data.find(key);
    if (it == m_data.end()) return std::nullopt;
    return it->second;
}

std::optional<std::vector<std::string>> StoreTable::multiGet(const std::vector<std::string>& keys) const {
    std::lock_guard<std::mutex> lock(m_mutex);
    std::vector<std::string> values;
    for (const std::string& key : keys) {
        auto it = m_data.find(key);
        if (it == m_data.end()) return std::nullopt;
        values.push_back(it->second);
    }
    return values;
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
    return m_bytes;
}

bool StoreTable::waitFor(const std::shared_ptr<StoreSession>& waiter, std::vector<std::string> keys) {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (presentLocked(keys)) return true;
    for (auto& [who, wanted] : m_waiting)
        if (who == waiter) {
            wanted = std::move(keys);
            return false;
        }
    m_waiting.emplace_back(waiter, std::move(keys));
    return false;
}

void StoreTable::cancelWait(const StoreSession* waiter) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_waiting.erase(std::remove_if(m_waiting.begin(), m_waiting.end(),
                                   [waiter](const auto& w) { return w.first.get() == waiter; }),
                    m_waiting.end());
}

} // namespace ddpdesk::net
