#pragma once

// One reading of one GPU. Every metric is optional on its own: a device may not support it (consumer boards
// have no power limit, passively cooled ones no fan), the driver may refuse it, or the GPU may be lost.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ddpdesk::monitor {

struct GpuProcess {
    std::uint32_t pid = 0;
    // Empty where the driver cannot attribute memory (Windows WDDM).
    std::optional<std::uint64_t> usedMemoryBytes;
};

struct GpuSample {
    int index = 0;        // NVML index (the order nvidia-smi uses)
    double t = 0.0;       // Unix seconds when this device was read
    bool lost = false;    // fell off the bus / became inaccessible; no metric is read any more
    std::string name;     // "NVIDIA H100 80GB HBM3"; empty when unknown
    std::string uuid;     // "GPU-…"; empty when unknown
    std::string pciBusId; // "00000000:3B:00.0"; empty when unknown
    std::optional<unsigned> gpuUtilPercent; // kernels running, % of the driver's sample period
    std::optional<unsigned> memUtilPercent; // memory controller busy, %
    std::optional<std::uint64_t> memUsedBytes;
    std::optional<std::uint64_t> memTotalBytes;
    std::optional<unsigned> temperatureC;
    std::optional<double> powerDrawW;
    std::optional<double> powerLimitW; // the enforced limit
    std::optional<unsigned> smClockMHz;
    std::optional<unsigned> memClockMHz;
    std::optional<unsigned> fanPercent;
    std::optional<double> pcieTxBytesPerSecond;
    std::optional<double> pcieRxBytesPerSecond;
    std::optional<std::vector<GpuProcess>> processes; // compute processes; empty optional = not available
};

} // namespace ddpdesk::monitor
