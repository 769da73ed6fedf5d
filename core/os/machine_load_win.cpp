// Windows side of machine_load.h.
#include "os/machine_load.h"

#include <windows.h>

namespace ddpdesk::os {

namespace {
double seconds(const FILETIME& t) {
    ULARGE_INTEGER v;
    v.LowPart = t.dwLowDateTime;
    v.HighPart = t.dwHighDateTime;
    return double(v.QuadPart) / 1e7; // 100 ns units
}
} // namespace

std::optional<MachineCpu> readMachineCpu() {
    FILETIME idle, kernel, user;
    if (!GetSystemTimes(&idle, &kernel, &user)) return std::nullopt;
    // Kernel time includes the idle time.
    const double busy = seconds(kernel) - seconds(idle) + seconds(user);
    return MachineCpu{busy, seconds(kernel) + seconds(user)};
}

std::optional<double> ownAndReapedCpuSeconds() {
    return std::nullopt; // Windows keeps no CPU sum of a process's exited children
}

} // namespace ddpdesk::os
