#pragma once

// CPU %, resident memory and thread count of chosen processes (the run's workers), on every platform: what
// CPU-only runs show instead of GPU bars. CPU % is measured between two calls of ProcessSampler::sample, the
// way top does: 100 means one core fully busy, so a process using 4 cores reads 400.

#include "os/process.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ddpdesk::monitor {

struct WatchedProcess {
    std::int64_t pid = 0;
    int rank = -1; // the worker's global rank, carried into the events; -1 when not a rank
};

struct ProcessSample {
    std::int64_t pid = 0;
    int rank = -1;
    double t = 0.0;                   // Unix seconds when it was read
    bool alive = false;               // false: exited, never existed, or not readable (see error)
    std::optional<double> cpuPercent; // since the previous sample of this pid; empty on the first one
    std::uint64_t residentBytes = 0;  // resident set (Linux VmRSS) / working set (Windows)
    int threads = 0;
    double cpuSeconds = 0.0; // user + system time consumed so far
    std::string error;       // why it is not alive/readable, in words
};

// What the OS says about one process (CPU time, memory, threads, start stamp) is core/os's answer.
using ddpdesk::os::RawProcessStats;
using ddpdesk::os::readProcessStats;

class ProcessSampler {
public:
    // Reads each process; CPU % compares with what this sampler read for the same pid (and process) last
    // time.
    std::vector<ProcessSample> sample(const std::vector<WatchedProcess>& processes);

private:
    struct Previous {
        double cpuSeconds = 0.0;
        double monotonicSeconds = 0.0;
        std::uint64_t startStamp = 0;
    };
    std::map<std::int64_t, Previous> m_previous;
};

} // namespace ddpdesk::monitor
