// Launcher-side samples (GPU + per-process CPU/RAM of every local worker) from core/monitor, handed to the
// owner's thread as `gpu` / `proc` events.
#include "launch/run/monitor_feed.h"

#include "monitor/monitor_events.h"
#include "monitor/monitor_sampler.h"

namespace ddpdesk::launch {

MonitorFeed::MonitorFeed(QObject& owner, const RunModel& model, EventsFn deliver,
                         std::function<void(const QString&)> message)
    : m_owner(owner), m_model(model), m_deliver(std::move(deliver)), m_message(std::move(message)) {}

MonitorFeed::~MonitorFeed() {
    stop();
}

void MonitorFeed::update(int intervalMs) {
    if (intervalMs <= 0) return;
    std::vector<monitor::WatchedProcess> watched;
    for (const RankStatus& r : m_model.ranks())
        if (r.pid > 0 && (r.state == RankState::Starting || r.state == RankState::Rendezvous ||
                          r.state == RankState::Training))
            watched.push_back({r.pid, r.rank});
    if (m_sampler) {
        m_sampler->setProcesses(std::move(watched));
        return;
    }
    monitor::MonitorOptions options;
    options.intervalSeconds = qBound(0.05, intervalMs / 1000.0, 3600.0);
    options.processes = std::move(watched);
    try {
        m_sampler =
            std::make_unique<monitor::MonitorSampler>(options, [this](const monitor::MonitorSnapshot& s) {
                // On the sampler thread: hand the events to the owner's thread. stop() (joining the sampler's
                // thread) comes before this feed goes away, and the owner's queued calls go with the owner,
                // so `this` is valid whenever this runs.
                std::vector<nlohmann::json> events = monitor::snapshotEvents(s);
                QMetaObject::invokeMethod(
                    &m_owner, [this, events = std::move(events)] { m_deliver(events); },
                    Qt::QueuedConnection);
            });
        m_sampler->start();
    } catch (const std::exception& e) {
        m_message(tr("resource monitor not available: %1").arg(QString::fromUtf8(e.what())));
    }
}

void MonitorFeed::stop() {
    if (m_sampler) {
        m_sampler->stop();
        m_sampler.reset();
    }
}

} // namespace ddpdesk::launch
