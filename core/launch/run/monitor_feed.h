#pragma once

// Owns the launcher's own resource sampler (core/monitor): GPU + per-process CPU/RAM of every live local
// rank, delivered on the owner's thread as `gpu` / `proc` events, the same path worker telemetry takes.

#include "launch/model/run_model.h"

#include <QCoreApplication>
#include <QString>

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <vector>

namespace ddpdesk::monitor {
class MonitorSampler;
}

namespace ddpdesk::launch {

class MonitorFeed {
    Q_DECLARE_TR_FUNCTIONS(ddpdesk::launch::Supervisor) // its texts keep the Supervisor's translations

public:
    using EventsFn = std::function<void(const std::vector<nlohmann::json>& events)>;

    // owner: the thread the events are delivered on, and their context (gone with it). model: whose ranks are
    // watched. message: why there is no sampling.
    MonitorFeed(QObject& owner, const RunModel& model, EventsFn deliver,
                std::function<void(const QString&)> message);
    ~MonitorFeed(); // stop()

    // Starts the sampler (every intervalMs; 0 or less: never) or updates its list of worker processes.
    void update(int intervalMs);
    void stop();

private:
    QObject& m_owner;
    const RunModel& m_model;
    EventsFn m_deliver;
    std::function<void(const QString&)> m_message;
    std::unique_ptr<monitor::MonitorSampler> m_sampler;
};

} // namespace ddpdesk::launch
