#include "monitor/nvml_library.h"

#include <cstdlib>

namespace ddpdesk::monitor {

// Current drivers put nvml.dll into System32 (found by the normal search); drivers before R418 kept it in
// NVSMI.
std::vector<std::string> platformNvmlCandidates() {
    std::vector<std::string> candidates{"nvml.dll"};
    for (const char* variable : {"ProgramW6432", "ProgramFiles"}) {
        const char* root = std::getenv(variable);
        if (root && *root) {
            candidates.push_back(std::string(root) + "\\NVIDIA Corporation\\NVSMI\\nvml.dll");
            break;
        }
    }
    return candidates;
}

} // namespace ddpdesk::monitor
