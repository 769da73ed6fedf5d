// POSIX side of process.h's readProcessStats, the monitor's per-process sample.
#include "os/process.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>

namespace ddpdesk::os {

// Linux /proc: CPU times and state from /proc/<pid>/stat (readProcStat), memory and threads from
// /proc/<pid>/status.
RawProcessStats readProcessStats(std::int64_t pid) {
    RawProcessStats raw;
    if (pid <= 0) {
        raw.error = "invalid pid " + std::to_string(pid);
        return raw;
    }
    const std::string dir = "/proc/" + std::to_string(pid);
    const ProcStat stat = readProcStat(pid);
    if (!stat.found) {
        raw.error = "process " + std::to_string(pid) + " does not exist (no " + dir + "/stat)";
        return raw;
    }
    if (!stat.valid) {
        raw.error = "unreadable " + dir + "/stat";
        return raw;
    }
    if (stat.exited()) {
        raw.error = "process " + std::to_string(pid) + " has exited (zombie, not yet reaped)";
        return raw;
    }
    long ticks = sysconf(_SC_CLK_TCK);
    raw.cpuSeconds = double(stat.userTicks + stat.systemTicks) / double(ticks > 0 ? ticks : 100);
    raw.startStamp = stat.startTicks;

    std::ifstream status(dir + "/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0) // "VmRSS:   12345 kB"
            raw.residentBytes = std::strtoull(line.c_str() + 6, nullptr, 10) * 1024ULL;
        else if (line.rfind("Threads:", 0) == 0)
            raw.threads = int(std::strtol(line.c_str() + 8, nullptr, 10));
    }
    raw.alive = true;
    return raw;
}

} // namespace ddpdesk::os
