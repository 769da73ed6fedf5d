#include "monitor/process_stats.h"

#include "protocol/telemetry.h"

#include <chrono>

namespace ddpdesk::monitor {

namespace {

double monotonicSeconds() {
    using namespace std::chrono;
    return duration_cast<duration<double>>(steady_clock::now().time_since_epoch()).count();
}

} // namespace

std::vector<ProcessSample> ProcessSampler::sample(const std::vector<WatchedProcess>& processes) {
    std::vector<ProcessSample> out;
    out.reserve(processes.size());
    std::map<std::int64_t, Previous> seen;
    for (const WatchedProcess& watched : processes) {
        ProcessSample s;
        s.pid = watched.pid;
        s.rank = watched.rank;
        RawProcessStats raw = readProcessStats(watched.pid);
        double now = monotonicSeconds();
        s.t = protocol::nowSeconds();
        s.alive = raw.alive;
        s.error = raw.error;
        if (raw.alive) {
            s.residentBytes = raw.residentBytes;
            s.threads = raw.threads;
            s.cpuSeconds = raw.cpuSeconds;
            auto previous = m_previous.find(watched.pid);
            if (previous != m_previous.end() && previous->second.startStamp == raw.startStamp) {
                double wall = now - previous->second.monotonicSeconds;
                double cpu = raw.cpuSeconds - previous->second.cpuSeconds;
                if (wall > 0 && cpu >= 0) s.cpuPercent = 100.0 * cpu / wall;
            }
            seen[watched.pid] = Previous{raw.cpuSeconds, now, raw.startStamp};
        }
        out.push_back(std::move(s));
    }
    // Only the processes still watched are remembered, so a long run's exited workers do not pile up.
    m_previous = std::move(seen);
    return out;
}

} // namespace ddpdesk::monitor
