#pragma once

// Where this OS's NVIDIA driver installs NVML: the names or full paths the monitor's loader
// (core/monitor/nvml_library.h) tries in order when DDPDESK_NVML_LIBRARY is not set. POSIX answers sonames
// the dynamic loader searches (nvml_paths_posix.cpp); Windows answers full paths only (nvml_paths_win.cpp),
// since a bare name would be searched where a planted DLL wins. In the monitor's namespace, its only user.

#include <string>
#include <vector>

namespace ddpdesk::monitor {

std::vector<std::string> platformNvmlCandidates();

} // namespace ddpdesk::monitor
