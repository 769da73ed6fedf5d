#pragma once

#include "train/base/errors.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

namespace ddpdesk::train {

// Writes telemetry events (core/protocol/telemetry.h) to stdout, one line each, flushed per line so a reader
// sees every event as it happens; human log lines go to stderr. Thread-safe.
class TelemetryEmitter {
public:
    static TelemetryEmitter& instance();

    void setRank(int rank);
    int rank() const { return m_rank; }

    nlohmann::json event(std::string_view type) const; // envelope filled in
    // Waits for its reader: what must arrive before the rank goes on or ends (hello, errors, the last step,
    // done). Events queued before it go first.
    void emit(const nlohmann::json& event);
    // A launcher that stops reading (its GUI hangs, it is stopped) fills the rank's stdout pipe; these two
    // never hold the training loop for it (os::standardOutputHasRoom tells whether a line goes through now).
    // emitIfRoom: for events a later one supersedes (steps): written only when the pipe has room and nothing
    // is queued; false: not written. emitQueued: for events that must not be lost (epoch, checkpoint):
    // written now when there is room, else kept in order and written first when there is (up to kQueueBytes;
    // past that it waits, so memory stays bounded).
    bool emitIfRoom(const nlohmann::json& event);
    void emitQueued(const nlohmann::json& event);
    static constexpr std::size_t kQueueBytes = 1 << 20;
    void emitError(const TrainError& error);
    void log(const std::string& line); // stderr, prefixed with the rank

    // Step-event throttle: true when at least `intervalMs` passed since the last accepted step event.
    bool stepDue(int intervalMs);

    // Where a line goes instead of stdout (an event, `log` false) or stderr (a log line, `log` true).
    using Sink = std::function<void(const std::string& line, bool log)>;
    // The engine tests' seam: ranks as threads of one process (tests/train/thread_ranks.h) each need their
    // own events. While a ThreadSink lives, instance() on the thread that made it is an emitter of its own
    // whose lines go to `sink`, which never runs out of room; other threads keep the process's emitter.
    class ThreadSink {
    public:
        explicit ThreadSink(Sink sink);
        ~ThreadSink();
        ThreadSink(const ThreadSink&) = delete;
        ThreadSink& operator=(const ThreadSink&) = delete;

    private:
        TelemetryEmitter* m_emitter;
        TelemetryEmitter* m_previous;
    };

private:
    TelemetryEmitter() = default;
    explicit TelemetryEmitter(Sink sink) : m_sink(std::move(sink)) {}
    bool hasRoom() const;                    // the sink always has; stdout when os::standardOutputHasRoom
    void writeLine(const std::string& line); // one fwrite and a flush, under m_mutex
    bool drainQueue(bool wait);              // under m_mutex; true when the queue is empty after it

    mutable std::mutex m_mutex;
    std::deque<std::string> m_queue; // lines emitQueued could not write yet, in order
    std::size_t m_queueBytes = 0;
    int m_rank = -1;
    std::chrono::steady_clock::time_point m_lastStep{};
    bool m_anyStep = false;
    Sink m_sink; // empty: stdout and stderr
};

} // namespace ddpdesk::train
