#include "monitor/gpu_reader.h"

#include "protocol/telemetry.h"

#include <algorithm>

namespace ddpdesk::monitor {

namespace {

std::string fromBuffer(const char* buffer, size_t size) {
    return std::string(buffer, std::find(buffer, buffer + size, '\0'));
}

// Lists the compute processes with one record layout, growing the buffer while the driver says it is too
// small (processes can start between the calls).
template <typename Record, typename Fn>
nvml::Return listProcesses(Fn fn, nvml::Device handle, std::vector<GpuProcess>& out) {
    std::vector<Record> records(16);
    for (int attempt = 0; attempt < 4; ++attempt) {
        unsigned int count = unsigned(records.size());
        nvml::Return rc = fn(handle, &count, records.data());
        if (rc == nvml::ERROR_INSUFFICIENT_SIZE) {
            records.resize(std::max<size_t>(count, records.size() * 2) + 8);
            continue;
        }
        if (rc != nvml::SUCCESS) return rc;
        out.clear();
        for (unsigned i = 0; i < std::min<size_t>(count, records.size()); ++i) {
            GpuProcess p;
            p.pid = records[i].pid;
            if (records[i].usedGpuMemory != nvml::VALUE_NOT_AVAILABLE)
                p.usedMemoryBytes = records[i].usedGpuMemory;
            out.push_back(p);
        }
        return nvml::SUCCESS;
    }
    return nvml::ERROR_INSUFFICIENT_SIZE;
}

} // namespace

GpuReader::GpuReader() : m_nvml(std::make_unique<NvmlLibrary>()) {
    if (!m_nvml->available()) return;
    for (int i = 0; i < m_nvml->status().deviceCount; ++i) {
        Device device;
        device.index = unsigned(i);
        nvml::Return rc = m_nvml->fn().deviceGetHandleByIndex(device.index, &device.handle);
        if (rc != nvml::SUCCESS) {
            // Typically a GPU hidden by a cgroup or one that fell off the bus: list it, never query it.
            device.handle = nullptr;
            markLost(device, rc);
        } else {
            readIdentity(device);
        }
        m_devices.push_back(std::move(device));
    }
}

void GpuReader::markLost(Device& device, nvml::Return rc) {
    if (device.lost) return;
    device.lost = true;
    std::string who = "GPU " + std::to_string(device.index);
    if (!device.name.empty() || !device.pciBusId.empty())
        who += " (" + device.name + (device.name.empty() || device.pciBusId.empty() ? "" : ", ") +
               device.pciBusId + ")";
    const char* what = rc == nvml::ERROR_GPU_IS_LOST ? " was lost: " : " is not accessible: ";
    m_notices.push_back(who + what + m_nvml->errorText(rc) + "; it is no longer sampled");
}

template <typename Call>
bool GpuReader::query(Device& device, Metric metric, bool symbolPresent, Call&& call) {
    Support& support = device.support[size_t(metric)];
    if (device.lost || support == Support::Unsupported) return false;
    if (!symbolPresent) {
        support = Support::Unsupported;
        return false;
    }
    nvml::Return rc = call();
    switch (rc) {
    case nvml::SUCCESS:
        support = Support::Supported;
        return true;
    case nvml::ERROR_GPU_IS_LOST:
        markLost(device, rc);
        return false;
    case nvml::ERROR_NOT_SUPPORTED:
    case nvml::ERROR_NO_PERMISSION:
    case nvml::ERROR_FUNCTION_NOT_FOUND:
        // Decided on the first answer only: a metric that worked before and fails now is treated as a hiccup.
        if (support == Support::Unknown) support = Support::Unsupported;
        return false;
    default:
        return false; // transient (timeout, busy driver): try again next sample
    }
}

void GpuReader::readIdentity(Device& device) {
    const NvmlFunctions& fn = m_nvml->fn();
    auto readString = [&](nvml::DeviceGetStringFn getter, unsigned size, std::string& out) {
        if (!getter || device.lost) return;
        std::vector<char> buffer(size, '\0');
        nvml::Return rc = getter(device.handle, buffer.data(), size);
        if (rc == nvml::SUCCESS)
            out = fromBuffer(buffer.data(), buffer.size());
        else if (rc == nvml::ERROR_GPU_IS_LOST)
            markLost(device, rc);
    };
    readString(fn.deviceGetName, nvml::DEVICE_NAME_V2_BUFFER_SIZE, device.name);
    readString(fn.deviceGetUuid, nvml::DEVICE_UUID_V2_BUFFER_SIZE, device.uuid);
    if (fn.deviceGetPciInfo && !device.lost) {
        nvml::PciInfo pci{};
        nvml::Return rc = fn.deviceGetPciInfo(device.handle, &pci);
        if (rc == nvml::SUCCESS)
            device.pciBusId = fromBuffer(pci.busId, sizeof pci.busId);
        else if (rc == nvml::ERROR_GPU_IS_LOST)
            markLost(device, rc);
    }
}

std::optional<std::vector<GpuProcess>> GpuReader::readProcesses(Device& device) {
    const NvmlFunctions& fn = m_nvml->fn();
    std::vector<GpuProcess> list;
    bool ok = query(device, Metric::Processes, fn.deviceGetProcessesV2 || fn.deviceGetProcessesV1, [&] {
        return fn.deviceGetProcessesV2
                   ? listProcesses<nvml::ProcessInfoV2>(fn.deviceGetProcessesV2, device.handle, list)
                   : listProcesses<nvml::ProcessInfoV1>(fn.deviceGetProcessesV1, device.handle, list);
    });
    if (!ok) return std::nullopt;
    return list;
}

void GpuReader::readMetrics(Device& device, GpuSample& out) {
    const NvmlFunctions& fn = m_nvml->fn();
    nvml::Device h = device.handle;

    nvml::Utilization util{};
    if (query(device, Metric::Utilization, fn.deviceGetUtilizationRates,
              [&] { return fn.deviceGetUtilizationRates(h, &util); })) {
        out.gpuUtilPercent = util.gpu;
        out.memUtilPercent = util.memory;
    }
    nvml::Memory memory{};
    if (query(device, Metric::Memory, fn.deviceGetMemoryInfo,
              [&] { return fn.deviceGetMemoryInfo(h, &memory); })) {
        out.memUsedBytes = memory.used;
        out.memTotalBytes = memory.total;
    }
    unsigned value = 0;
    auto readUint = [&](Metric metric, auto getter, auto... args) -> std::optional<unsigned> {
        if (query(device, metric, getter != nullptr, [&] { return getter(h, args..., &value); }))
            return value;
        return std::nullopt;
    };
    out.temperatureC = readUint(Metric::Temperature, fn.deviceGetTemperature, nvml::TEMPERATURE_GPU);
    if (auto mW = readUint(Metric::Power, fn.deviceGetPowerUsage)) out.powerDrawW = *mW / 1000.0;
    if (auto mW = readUint(Metric::PowerLimit, fn.deviceGetEnforcedPowerLimit))
        out.powerLimitW = *mW / 1000.0;
    out.smClockMHz = readUint(Metric::SmClock, fn.deviceGetClockInfo, nvml::CLOCK_SM);
    out.memClockMHz = readUint(Metric::MemClock, fn.deviceGetClockInfo, nvml::CLOCK_MEM);
    out.fanPercent = readUint(Metric::Fan, fn.deviceGetFanSpeed);
    // NVML reports PCIe throughput in KB/s over a 20 ms window; each call blocks for that window.
    if (auto kb = readUint(Metric::PcieTx, fn.deviceGetPcieThroughput, nvml::PCIE_UTIL_TX_BYTES))
        out.pcieTxBytesPerSecond = *kb * 1024.0;
    if (auto kb = readUint(Metric::PcieRx, fn.deviceGetPcieThroughput, nvml::PCIE_UTIL_RX_BYTES))
        out.pcieRxBytesPerSecond = *kb * 1024.0;
    out.processes = readProcesses(device);
}

std::vector<GpuSample> GpuReader::sample() {
    std::vector<GpuSample> samples;
    samples.reserve(m_devices.size());
    for (Device& device : m_devices) {
        GpuSample s;
        s.index = int(device.index);
        s.t = protocol::nowSeconds();
        if (!device.lost) readMetrics(device, s);
        if (device.lost) { // possibly just now: a half-read sample of a lost GPU would mislead
            double t = s.t;
            s = GpuSample{};
            s.index = int(device.index);
            s.t = t;
            s.lost = true;
        }
        s.name = device.name;
        s.uuid = device.uuid;
        s.pciBusId = device.pciBusId;
        samples.push_back(std::move(s));
    }
    return samples;
}

std::vector<std::string> GpuReader::takeNotices() {
    std::vector<std::string> out;
    out.swap(m_notices);
    return out;
}

} // namespace ddpdesk::monitor
