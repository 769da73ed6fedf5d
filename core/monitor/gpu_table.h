#pragma once

// The nvidia-smi-like text view of GPU samples, used by `ddpdesk-cli gpus`. Plain ASCII so every console
// shows it.

#include "monitor/gpu_sample.h"
#include "monitor/nvml_status.h"

#include <string>
#include <vector>

namespace ddpdesk::monitor {

// A header line (driver, GPU count, local time of `t`), one table row per GPU ("N/A" for what a device does
// not report, "GPU lost" for a lost one) and a process list. Without NVML: the reason, in one paragraph.
std::string formatGpuTable(const NvmlStatus& nvml, const std::vector<GpuSample>& gpus, double t);

// "1.5 GiB", "512 MiB", "0 B": memory for people.
std::string formatBytes(double bytes);

} // namespace ddpdesk::monitor
