#pragma once

#include <string>
#include <string_view>

namespace ddpdesk {

// What `--version` prints for every executable: product version, the LibTorch and Qt it was built with (and
// the Qt it runs with), whether CUDA code paths are compiled in and with which CUDA, whether that LibTorch
// has NCCL, where the build found Gloo's headers, and whether NVML can be loaded on this machine.
std::string versionText(std::string_view program, std::string_view qtRuntimeVersion = {});

} // namespace ddpdesk
