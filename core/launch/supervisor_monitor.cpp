// Launcher-side samples (GPU + per-process CPU/RAM of every local worker) from core/monitor, into the
// RunModel and metrics.jsonl as `gpu` / `proc` events, the same path worker telemetry takes.
#include "launch/supervisor_impl.h"

#include "monitor/monitor_events.h"
#include "monitor/monitor_sampler.h"

namespace ddpdesk::launch {

void Supervisor::sampleMonitor() {
    if (m_monitorMs <= 0) return;
    std::vector<monitor::WatchedProcess> watched;
    for (const RankStatus& r : m_model.ranks())
        if (r.pid > 0 && (r.state == RankState::Starting || r.state == RankState::Rendezvous ||
                          r.state == RankState::Training))
            watched.push_back({r.pid, r.rank});
    if (d->sampler) {
        d->sampler->setProcesses(std::move(watched));
        return;
    }
    monitor::MonitorOptions options;
    options.intervalSeconds = qBound(0.05, m_monitorMs / 1000.0, 3600.0);
    options.processes = std::move(watched);
    try {
        d->sampler =
            std::make_unique<monitor::MonitorSampler>(options, [this](const monitor::MonitorSnapshot& s) {
                // On the sampler thread: hand the events to the Supervisor's thread. The destructor stops the
                // sampler (joining its thread) before the Supervisor goes away, so `this` is valid whenever
                // this runs.
                std::vector<nlohmann::json> events = monitor::snapshotEvents(s);
                QMetaObject::invokeMethod(
                    this,
                    [this, events = std::move(events)] {
                        if (!m_running) return;
                        for (const nlohmann::json& e : events) {
                            record(e);
                            m_model.applyMonitorEvent(e);
                        }
                    },
                    Qt::QueuedConnection);
            });
        d->sampler->start();
    } catch (const std::exception& e) {
        emit message(tr("resource monitor not available: %1").arg(QString::fromUtf8(e.what())));
    }
}

void Supervisor::stopMonitor() {
    if (d->sampler) {
        d->sampler->stop();
        d->sampler.reset();
    }
}

} // namespace ddpdesk::launch
