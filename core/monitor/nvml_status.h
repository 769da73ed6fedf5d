#pragma once

#include <string>

namespace ddpdesk::monitor {

// Whether NVML can be loaded and initialised on this machine right now. No driver is a normal state.
struct NvmlStatus {
    bool available = false;
    std::string reason;        // why not, in plain words (empty when available)
    std::string driverVersion; // when available
    int deviceCount = 0;
};

NvmlStatus probeNvml();

} // namespace ddpdesk::monitor
