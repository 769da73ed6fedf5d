#pragma once

// The events a node's launcher has not sent to node 0 yet, bounded: over the limit the oldest are dropped and
// counted, the newest kept, so a slow or gone node 0 costs memory up to the limit and never blocks whoever
// pushes. Taken in batches of whole events joined by commas (the inside of an events frame's array). Plain
// C++, thread-safe.

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>

namespace ddpdesk::launch::link {

class EventQueue {
public:
    // A batch's size: one frame, well under kMaxFrameBytes with the frame's own fields.
    static constexpr std::size_t kBatchBytes = 512u << 10;

    explicit EventQueue(std::size_t maxBytes) : m_maxBytes(maxBytes) {}

    void push(std::string eventJson); // one event object's text
    // The queue's head up to `maxBytes`, joined by commas; *count: how many. An event over maxBytes alone
    // cannot go: it is dropped.
    std::string take(std::size_t maxBytes, std::size_t* count);
    bool empty() const;
    void addDropped(std::uint64_t n); // a batch taken but lost on the way
    std::uint64_t dropped() const;

private:
    const std::size_t m_maxBytes;
    mutable std::mutex m_mutex;
    std::deque<std::string> m_events;
    std::size_t m_bytes = 0;
    std::uint64_t m_dropped = 0;
};

} // namespace ddpdesk::launch::link
