// POSIX side of machine_load.h.
#include "os/machine_load.h"

#include <sys/resource.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

namespace ddpdesk::os {

std::optional<MachineCpu> readMachineCpu() {
    // "cpu  user nice system idle iowait irq softirq steal guest guest_nice", in clock ticks (guest time is
    // already in user).
    std::ifstream in("/proc/stat");
    std::string line;
    if (!std::getline(in, line) || line.rfind("cpu ", 0) != 0) return std::nullopt;
    std::istringstream fields(line.substr(4));
    unsigned long long v[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (unsigned long long& x : v)
        if (!(fields >> x)) return std::nullopt;
    const long ticks = sysconf(_SC_CLK_TCK);
    const double perTick = 1.0 / double(ticks > 0 ? ticks : 100);
    // iowait (v[4]) is left out of both: Linux lets that counter go backwards, which would make a window's
    // total smaller than its busy time. Time a core waited for I/O is neither busy nor counted.
    const unsigned long long idle = v[3];
    const unsigned long long busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
    return MachineCpu{double(busy) * perTick, double(busy + idle) * perTick};
}

std::optional<double> ownAndReapedCpuSeconds() {
    double total = 0;
    for (const int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
        rusage u{};
        if (getrusage(who, &u) != 0) return std::nullopt;
        total += double(u.ru_utime.tv_sec) + double(u.ru_utime.tv_usec) / 1e6 + double(u.ru_stime.tv_sec) +
                 double(u.ru_stime.tv_usec) / 1e6;
    }
    return total;
}

} // namespace ddpdesk::os
