#include "monitor/monitor_events.h"

#include "protocol/telemetry.h"

namespace ddpdesk::monitor {

namespace {

template <typename T> nlohmann::json orNull(const std::optional<T>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json orNull(const std::string& value) {
    return value.empty() ? nlohmann::json(nullptr) : nlohmann::json(value);
}

} // namespace

nlohmann::json gpuJson(const GpuSample& gpu) {
    nlohmann::json g;
    g["index"] = gpu.index;
    g["name"] = orNull(gpu.name);
    g["uuid"] = orNull(gpu.uuid);
    g["pci_bus_id"] = orNull(gpu.pciBusId);
    g["lost"] = gpu.lost;
    g["gpu_util_percent"] = orNull(gpu.gpuUtilPercent);
    g["mem_util_percent"] = orNull(gpu.memUtilPercent);
    g["mem_used_bytes"] = orNull(gpu.memUsedBytes);
    g["mem_total_bytes"] = orNull(gpu.memTotalBytes);
    g["temperature_c"] = orNull(gpu.temperatureC);
    g["power_w"] = orNull(gpu.powerDrawW);
    g["power_limit_w"] = orNull(gpu.powerLimitW);
    g["sm_clock_mhz"] = orNull(gpu.smClockMHz);
    g["mem_clock_mhz"] = orNull(gpu.memClockMHz);
    g["fan_percent"] = orNull(gpu.fanPercent);
    g["pcie_tx_bytes_per_s"] = orNull(gpu.pcieTxBytesPerSecond);
    g["pcie_rx_bytes_per_s"] = orNull(gpu.pcieRxBytesPerSecond);
    if (gpu.processes) {
        nlohmann::json list = nlohmann::json::array();
        for (const GpuProcess& p : *gpu.processes)
            list.push_back({{"pid", p.pid}, {"used_mem_bytes", orNull(p.usedMemoryBytes)}});
        g["processes"] = std::move(list);
    } else {
        g["processes"] = nullptr;
    }
    return g;
}

nlohmann::json processJson(const ProcessSample& process, const std::vector<GpuSample>& gpus) {
    nlohmann::json p;
    p["pid"] = process.pid;
    p["rank"] = process.rank;
    p["alive"] = process.alive;
    p["cpu_percent"] = orNull(process.cpuPercent);
    p["cpu_seconds"] = process.alive ? nlohmann::json(process.cpuSeconds) : nlohmann::json(nullptr);
    p["rss_bytes"] = process.alive ? nlohmann::json(process.residentBytes) : nlohmann::json(nullptr);
    p["threads"] = process.alive ? nlohmann::json(process.threads) : nlohmann::json(nullptr);
    // The pid -> GPU mapping: NVML lists a process on every GPU it has a context on.
    nlohmann::json onGpus = nlohmann::json::array();
    for (const GpuSample& gpu : gpus) {
        if (!gpu.processes) continue;
        for (const GpuProcess& gp : *gpu.processes)
            if (std::int64_t(gp.pid) == process.pid)
                onGpus.push_back({{"index", gpu.index}, {"used_mem_bytes", orNull(gp.usedMemoryBytes)}});
    }
    p["gpus"] = std::move(onGpus);
    if (!process.error.empty()) p["error"] = process.error;
    return p;
}

nlohmann::json gpuEvent(const std::vector<GpuSample>& gpus, const NvmlStatus& nvml, double t) {
    nlohmann::json e = protocol::makeEvent(protocol::ev::Gpu, -1);
    e["t"] = t;
    e["driver"] = orNull(nvml.driverVersion);
    nlohmann::json list = nlohmann::json::array();
    for (const GpuSample& gpu : gpus)
        list.push_back(gpuJson(gpu));
    e["gpus"] = std::move(list);
    return e;
}

nlohmann::json procEvent(const std::vector<ProcessSample>& processes, const std::vector<GpuSample>& gpus,
                         double t) {
    nlohmann::json e = protocol::makeEvent(protocol::ev::Proc, -1);
    e["t"] = t;
    nlohmann::json list = nlohmann::json::array();
    for (const ProcessSample& process : processes)
        list.push_back(processJson(process, gpus));
    e["processes"] = std::move(list);
    return e;
}

nlohmann::json noticeEvent(const std::string& text, double t) {
    nlohmann::json e = protocol::makeEvent(protocol::ev::Log, -1);
    e["t"] = t;
    e["source"] = "monitor";
    e["text"] = text;
    return e;
}

std::vector<nlohmann::json> snapshotEvents(const MonitorSnapshot& snapshot) {
    std::vector<nlohmann::json> events;
    for (const std::string& notice : snapshot.notices)
        events.push_back(noticeEvent(notice, snapshot.t));
    if (!snapshot.gpus.empty()) events.push_back(gpuEvent(snapshot.gpus, snapshot.nvml, snapshot.t));
    if (!snapshot.processes.empty())
        events.push_back(procEvent(snapshot.processes, snapshot.gpus, snapshot.t));
    return events;
}

nlohmann::json gpuReport(const NvmlStatus& nvml, const std::vector<GpuSample>& gpus, double t) {
    nlohmann::json report;
    report["nvml"] = {{"available", nvml.available},
                      {"reason", orNull(nvml.reason)},
                      {"driver", orNull(nvml.driverVersion)},
                      {"device_count", nvml.deviceCount}};
    report["t"] = t;
    nlohmann::json list = nlohmann::json::array();
    for (const GpuSample& gpu : gpus)
        list.push_back(gpuJson(gpu));
    report["gpus"] = std::move(list);
    return report;
}

} // namespace ddpdesk::monitor
