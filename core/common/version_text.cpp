#include "common/version_text.h"

#include "monitor/nvml_status.h"

#include <ddpdesk/build_info.h>
#include <ddpdesk/torch_build_info.h>

#include <sstream>

namespace ddpdesk {

std::string versionText(std::string_view program, std::string_view qtRuntimeVersion) {
    std::ostringstream out;
    out << program << " " << DDPDESK_VERSION << "\n";
    out << "LibTorch: " << (DDPDESK_TORCH_VERSION[0] ? DDPDESK_TORCH_VERSION : "unknown") << "\n";
    std::string qtBuilt = DDPDESK_QT_BUILD_VERSION;
    if (qtRuntimeVersion.empty())
        out << "Qt: not used by this program"
            << (qtBuilt.empty() ? "" : " (the GUI and CLI use Qt " + qtBuilt + ")") << "\n";
    else
        out << "Qt: " << qtRuntimeVersion << " (built with " << (qtBuilt.empty() ? "unknown" : qtBuilt)
            << ")\n";
    // CUDA, NCCL and Gloo are facts of the LibTorch the worker was built against, in CMake's words: a GPU
    // user asks "which CUDA, is NCCL there" before a run, and a missing Gloo header folder was what stopped
    // pip builds.
    out << "CUDA: " << DDPDESK_CUDA_TEXT << "\n";
    out << "NCCL: " << DDPDESK_NCCL_TEXT << "\n";
    out << "Gloo headers: " << DDPDESK_GLOO_HEADERS_TEXT << "\n";
    monitor::NvmlStatus nvml = monitor::probeNvml();
    if (nvml.available)
        out << "NVML: available (driver " << nvml.driverVersion << ", " << nvml.deviceCount << " GPU(s))";
    else
        out << "NVML: not available (" << nvml.reason << ")";
    return out.str();
}

} // namespace ddpdesk
