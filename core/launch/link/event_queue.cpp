#include "launch/link/event_queue.h"

namespace ddpdesk::launch::link {

void EventQueue::push(std::string eventJson) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_bytes += eventJson.size();
    m_events.push_back(std::move(eventJson));
    while (m_bytes > m_maxBytes && m_events.size() > 1) {
        m_bytes -= m_events.front().size();
        m_events.pop_front();
        ++m_dropped;
    }
}

std::string EventQueue::take(std::size_t maxBytes, std::size_t* count) {
    std::string out;
    std::lock_guard<std::mutex> lock(m_mutex);
    while (!m_events.empty() && out.size() + m_events.front().size() < maxBytes) {
        if (!out.empty()) out.push_back(',');
        out += m_events.front();
        m_bytes -= m_events.front().size();
        m_events.pop_front();
        ++*count;
    }
    if (out.empty() && !m_events.empty()) {
        m_bytes -= m_events.front().size();
        m_events.pop_front();
        ++m_dropped;
    }
    return out;
}

bool EventQueue::empty() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_events.empty();
}

void EventQueue::addDropped(std::uint64_t n) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_dropped += n;
}

std::uint64_t EventQueue::dropped() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_dropped;
}

} // namespace ddpdesk::launch::link
