#pragma once

// Reads every GPU NVML knows about. Each metric is probed on first use and skipped for good once the device
// says NOT_SUPPORTED (or refuses it), so unsupported metrics cost nothing at 2 Hz. A device that reports
// GPU_IS_LOST is marked lost, reported once through takeNotices(), and no longer queried; the other devices
// go on being sampled. Not thread-safe: one thread samples (the MonitorSampler's, or the CLI's).

#include "monitor/gpu_sample.h"
#include "monitor/nvml_library.h"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace ddpdesk::monitor {

class GpuReader {
public:
    GpuReader(); // loads NVML (see NvmlLibrary) and enumerates the devices once

    const NvmlStatus& status() const { return m_nvml->status(); }
    const NvmlLibrary& library() const { return *m_nvml; }
    int deviceCount() const { return int(m_devices.size()); }

    // One sample per device, lost ones included (lost = true, no metrics). Empty when NVML is unavailable.
    std::vector<GpuSample> sample();

    // One-time messages since the last call, e.g. "GPU 1 (NAME, 00000000:3B:00.0) was lost: GPU is lost (NVML
    // error 15); it is no longer sampled".
    std::vector<std::string> takeNotices();

private:
    enum class Metric {
        Utilization,
        Memory,
        Temperature,
        Power,
        PowerLimit,
        SmClock,
        MemClock,
        Fan,
        PcieTx,
        PcieRx,
        Processes,
        Count
    };
    enum class Support { Unknown, Supported, Unsupported };
    struct Device {
        unsigned index = 0;
        nvml::Device handle = nullptr;
        bool lost = false;
        std::string name, uuid, pciBusId;
        std::array<Support, size_t(Metric::Count)> support{};
    };

    template <typename Call> bool query(Device& device, Metric metric, bool symbolPresent, Call&& call);
    void markLost(Device& device, nvml::Return rc);
    void readIdentity(Device& device);
    void readMetrics(Device& device, GpuSample& out);
    std::optional<std::vector<GpuProcess>> readProcesses(Device& device);

    std::unique_ptr<NvmlLibrary> m_nvml;
    std::vector<Device> m_devices;
    std::vector<std::string> m_notices;
};

} // namespace ddpdesk::monitor
