#pragma once

#include "train/base/errors.h"

#include <nlohmann/json.hpp>

#include <chrono>
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
    void emit(const nlohmann::json& event);
    // emit() only if stdout takes the line without waiting (os::standardOutputHasRoom): for events a later
    // one supersedes (steps), so a launcher that stops reading never holds the training loop. False: not
    // written.
    bool emitIfRoom(const nlohmann::json& event);
    void emitError(const TrainError& error);
    void log(const std::string& line); // stderr, prefixed with the rank

    // Step-event throttle: true when at least `intervalMs` passed since the last accepted step event.
    bool stepDue(int intervalMs);

private:
    TelemetryEmitter() = default;
    mutable std::mutex m_mutex;
    int m_rank = -1;
    std::chrono::steady_clock::time_point m_lastStep{};
    bool m_anyStep = false;
};

} // namespace ddpdesk::train
