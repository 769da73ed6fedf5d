#include "monitor/process_stats.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

namespace ddpdesk::monitor {

std::int64_t currentProcessId() {
    return std::int64_t(getpid());
}

// Linux /proc: CPU times and state from /proc/<pid>/stat, memory and threads from /proc/<pid>/status.
RawProcessStats readProcessStats(std::int64_t pid) {
    RawProcessStats raw;
    if (pid <= 0) {
        raw.error = "invalid pid " + std::to_string(pid);
        return raw;
    }
    const std::string dir = "/proc/" + std::to_string(pid);
    std::ifstream statFile(dir + "/stat");
    std::string stat;
    if (!statFile || !std::getline(statFile, stat)) {
        raw.error = "process " + std::to_string(pid) + " does not exist (no " + dir + "/stat)";
        return raw;
    }
    // The command name (field 2) is in parentheses and may itself contain spaces and ')'.
    size_t close = stat.rfind(')');
    if (close == std::string::npos) {
        raw.error = "unreadable " + dir + "/stat";
        return raw;
    }
    std::istringstream in(stat.substr(close + 1));
    std::vector<std::string> fields; // fields[0] is field 3 of proc(5)
    for (std::string token; in >> token;)
        fields.push_back(token);
    if (fields.size() < 20) {
        raw.error = "unreadable " + dir + "/stat";
        return raw;
    }
    if (fields[0] == "Z" || fields[0] == "X") {
        raw.error = "process " + std::to_string(pid) + " has exited (zombie, not yet reaped)";
        return raw;
    }
    auto field = [&](int number) { return std::strtoull(fields[size_t(number - 3)].c_str(), nullptr, 10); };
    unsigned long long utime = field(14), stime = field(15), starttime = field(22); // clock ticks
    long ticks = sysconf(_SC_CLK_TCK);
    raw.cpuSeconds = double(utime + stime) / double(ticks > 0 ? ticks : 100);
    raw.startStamp = starttime;

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

} // namespace ddpdesk::monitor
