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
    g[protocol::field::Index] = gpu.index;
    g[protocol::field::Name] = orNull(gpu.name);
    g[protocol::field::Uuid] = orNull(gpu.uuid);
    g[protocol::field::PciBusId] = orNull(gpu.pciBusId);
    g[protocol::field::Lost] = gpu.lost;
    g[protocol::field::GpuUtilPercent] = orNull(gpu.gpuUtilPercent);
    g[protocol::field::MemUtilPercent] = orNull(gpu.memUtilPercent);
    g[protocol::field::MemUsedBytes] = orNull(gpu.memUsedBytes);
    g[protocol::field::MemTotalBytes] = orNull(gpu.memTotalBytes);
    g[protocol::field::TemperatureC] = orNull(gpu.temperatureC);
    g[protocol::field::PowerW] = orNull(gpu.powerDrawW);
    g[protocol::field::PowerLimitW] = orNull(gpu.powerLimitW);
    g[protocol::field::SmClockMhz] = orNull(gpu.smClockMHz);
    g[protocol::field::MemClockMhz] = orNull(gpu.memClockMHz);
    g[protocol::field::FanPercent] = orNull(gpu.fanPercent);
    g[protocol::field::PcieTxBytesPerS] = orNull(gpu.pcieTxBytesPerSecond);
    g[protocol::field::PcieRxBytesPerS] = orNull(gpu.pcieRxBytesPerSecond);
    if (gpu.processes) {
        nlohmann::json list = nlohmann::json::array();
        for (const GpuProcess& p : *gpu.processes)
            list.push_back(
                {{protocol::field::Pid, p.pid}, {protocol::field::UsedMemBytes, orNull(p.usedMemoryBytes)}});
        g[protocol::field::Processes] = std::move(list);
    } else {
        g[protocol::field::Processes] = nullptr;
    }
    return g;
}

nlohmann::json processJson(const ProcessSample& process, const std::vector<GpuSample>& gpus) {
    nlohmann::json p;
    p[protocol::field::Pid] = process.pid;
    p[protocol::field::Rank] = process.rank;
    p[protocol::field::Alive] = process.alive;
    p[protocol::field::CpuPercent] = orNull(process.cpuPercent);
    p[protocol::field::CpuSeconds] =
        process.alive ? nlohmann::json(process.cpuSeconds) : nlohmann::json(nullptr);
    p[protocol::field::RssBytes] =
        process.alive ? nlohmann::json(process.residentBytes) : nlohmann::json(nullptr);
    p[protocol::field::Threads] = process.alive ? nlohmann::json(process.threads) : nlohmann::json(nullptr);
    // The pid -> GPU mapping: NVML lists a process on every GPU it has a context on.
    nlohmann::json onGpus = nlohmann::json::array();
    for (const GpuSample& gpu : gpus) {
        if (!gpu.processes) continue;
        for (const GpuProcess& gp : *gpu.processes)
            if (std::int64_t(gp.pid) == process.pid)
                onGpus.push_back({{protocol::field::Index, gpu.index},
                                  {protocol::field::UsedMemBytes, orNull(gp.usedMemoryBytes)}});
    }
    p[protocol::field::Gpus] = std::move(onGpus);
    if (!process.error.empty()) p[protocol::field::Error] = process.error;
    return p;
}

nlohmann::json gpuEvent(const std::vector<GpuSample>& gpus, const NvmlStatus& nvml, double t) {
    nlohmann::json e = protocol::makeEvent(protocol::ev::Gpu, -1);
    e[protocol::field::T] = t;
    e[protocol::field::Driver] = orNull(nvml.driverVersion);
    nlohmann::json list = nlohmann::json::array();
    for (const GpuSample& gpu : gpus)
        list.push_back(gpuJson(gpu));
    e[protocol::field::Gpus] = std::move(list);
    return e;
}

nlohmann::json procEvent(const std::vector<ProcessSample>& processes, const std::vector<GpuSample>& gpus,
                         double t) {
    nlohmann::json e = protocol::makeEvent(protocol::ev::Proc, -1);
    e[protocol::field::T] = t;
    nlohmann::json list = nlohmann::json::array();
    for (const ProcessSample& process : processes)
        list.push_back(processJson(process, gpus));
    e[protocol::field::Processes] = std::move(list);
    return e;
}

nlohmann::json noticeEvent(const std::string& text, double t) {
    nlohmann::json e = protocol::makeEvent(protocol::ev::Log, -1);
    e[protocol::field::T] = t;
    e[protocol::field::Source] = "monitor";
    e[protocol::field::Text] = text;
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
    report[protocol::field::T] = t;
    nlohmann::json list = nlohmann::json::array();
    for (const GpuSample& gpu : gpus)
        list.push_back(gpuJson(gpu));
    report[protocol::field::Gpus] = std::move(list);
    return report;
}

} // namespace ddpdesk::monitor
