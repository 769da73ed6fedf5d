// POSIX side of nvml_paths.h.
#include "os/nvml_paths.h"

namespace ddpdesk::monitor {

// The driver installs the versioned soname; the unversioned one exists only with development packages.
std::vector<std::string> platformNvmlCandidates() {
    return {"libnvidia-ml.so.1", "libnvidia-ml.so"};
}

} // namespace ddpdesk::monitor
