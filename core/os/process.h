#pragma once

// Facts about processes on this machine, asked once for every layer: the worker (is a shared-memory peer
// still there?), the doctor (does the pid in an arrival record still run?) and the launcher (is a rank
// gone?). Plain C++17, no Qt, no LibTorch; OS calls in process_posix.cpp / process_win.cpp.

#include <cstdint>
#include <string>

namespace ddpdesk::os {

// Whether a process with this id is running. One that has exited but was not yet reaped by its parent (a
// POSIX zombie) is gone: it holds no lock, answers nothing and will never write again. A process we may not
// query (another user's) counts as running.
bool processAlive(std::int64_t pid);

std::int64_t currentPid();

// The short name of a process ("python3", "ddpdesk-worker.exe"); empty when it cannot be read. Linux shortens
// names to 15 bytes.
std::string processName(std::int64_t pid);

// One process's line of /proc/<pid>/stat (Linux), the one parser of it: the launcher's process groups, the
// monitor's CPU times and processAlive's zombie check all read the same fields. Elsewhere (no /proc) found
// stays false.
struct ProcStat {
    bool found = false; // the file could be read
    bool valid = false; // it held every field below; a short or odd line leaves them zero
    char state = 0;     // 'R', 'S', 'D', ...; 'Z' and 'X' have exited (see exited())
    std::int64_t parentPid = 0;
    std::int64_t processGroup = 0;
    std::int64_t session = 0;
    std::uint64_t userTicks = 0; // CPU time, in clock ticks (sysconf(_SC_CLK_TCK))
    std::uint64_t systemTicks = 0;
    std::uint64_t startTicks = 0; // since boot: tells a reused pid from the process seen before

    // A zombie or dead process: it holds nothing and will never run again.
    bool exited() const { return state == 'Z' || state == 'X'; }
};
ProcStat readProcStat(std::int64_t pid);

// What the monitor samples about one process (Linux: /proc/<pid>/stat and status; Windows: GetProcessTimes,
// the working set and the Toolhelp snapshot's thread count).
struct RawProcessStats {
    bool alive = false;
    std::string error;               // why not alive, in words
    double cpuSeconds = 0.0;         // user + system
    std::uint64_t residentBytes = 0; // resident set (VmRSS) / working set
    int threads = 0;
    // Start time in platform units: tells a reused pid from the process seen before.
    std::uint64_t startStamp = 0;
};
RawProcessStats readProcessStats(std::int64_t pid);

} // namespace ddpdesk::os
