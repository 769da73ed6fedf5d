#pragma once

// How busy the whole machine was, against what this process and the children it reaped used: a sweep size
// measured while other work took the cores is slower than the machine can give (launch/run/sweep_trust.h:
// MACHINE_BUSY). Two readings, at a window's start and end, subtract. OS calls in machine_load_posix.cpp /
// machine_load_win.cpp.

#include <optional>

namespace ddpdesk::os {

struct MachineCpu {
    double busySeconds = 0;  // CPU time spent running anything, summed over every core
    double totalSeconds = 0; // busy + idle, summed over every core (cores x wall time, as the OS counts;
                             // Linux: less the time cores waited for I/O)
};

// Since boot (Linux: /proc/stat's first line; Windows: GetSystemTimes); nullopt where it cannot be read.
std::optional<MachineCpu> readMachineCpu();

// CPU time (user + system) of this process and of every child it has waited for, with theirs (POSIX:
// getrusage SELF + CHILDREN). nullopt where the OS keeps no such sum for children (Windows): what other work
// took can then not be told from the run's own.
std::optional<double> ownAndReapedCpuSeconds();

} // namespace ddpdesk::os
