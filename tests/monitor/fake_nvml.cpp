// A fake NVML driver library for tests: exports the NVML symbols DDP Desk resolves, with scripted values and
// error codes, so the real loading path (DDPDESK_NVML_LIBRARY -> dlopen/LoadLibrary -> dlsym) runs without a
// GPU.
//
// Script (environment, read at every nvmlInit):
//   FAKE_NVML_INIT_RESULT=9          nvmlInit returns this code (9 = DRIVER_NOT_LOADED)
//   FAKE_NVML_LOST_AFTER=N           GPU 1 answers GPU_IS_LOST to everything after N utilization reads
//   FAKE_NVML_PROCESSES=g:pid:bytes,…  compute processes per GPU ("na" bytes = NVML_VALUE_NOT_AVAILABLE)
//   FAKE_NVML_HANG_AFTER=N           GPU 0's utilization read hangs after N reads, until
//   fakeNvmlReleaseHang()
//                                    (or 30 s): a driver call that does not return
// Fixed: 2 GPUs; GPU 1 has no fan (NOT_SUPPORTED). The plain (unversioned) init/count/handle/process symbols
// fail or lie in the full build, so a loader that does not prefer the versioned ones is caught. Built with
// FAKE_NVML_MINIMAL it exports only the required symbols under their plain names, plus name, memory and the
// v1 process list: the "old driver, optional symbols missing" case. Introspection for tests:
// fakeNvmlCalls(function, gpu), fakeNvmlInitCount(), fakeNvmlShutdownCount().

#include "monitor/nvml_api.h"

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#ifdef _WIN32
#define FAKE_EXPORT extern "C" __declspec(dllexport)
#else
#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))
#endif

namespace nvml = ddpdesk::monitor::nvml;

namespace {

struct FakeProcess {
    unsigned pid;
    unsigned long long bytes;
};

struct FakeGpu {
    const char* name;
    const char* uuid;
    const char* busId;
    unsigned utilGpu, utilMem;
    unsigned long long memTotal, memUsed;
    unsigned temperature, powerMilliwatts, limitMilliwatts, smClock, memClock;
    int fan; // -1: NOT_SUPPORTED
    unsigned pcieTxKB, pcieRxKB;
    std::vector<FakeProcess> processes;
};

constexpr unsigned long long GiB = 1024ULL * 1024 * 1024;

std::mutex g_mutex;
FakeGpu g_gpus[2];
std::map<std::string, int> g_calls; // "function#gpu" -> count
int g_lostAfter = -1;
int g_utilReadsGpu1 = 0;
bool g_gpu1Lost = false;
int g_initCount = 0, g_shutdownCount = 0;

// The hang has its own lock: a call blocked in it must not stop the introspection functions.
std::mutex g_hangMutex;
std::condition_variable g_hangChanged;
int g_hangAfter = -1, g_utilReadsGpu0 = 0, g_hanging = 0;
bool g_hangReleased = false;

[[maybe_unused]] void maybeHang(nvml::Device device) {
    std::unique_lock<std::mutex> lock(g_hangMutex);
    if (device != reinterpret_cast<nvml::Device>(&g_gpus[0]) || g_hangAfter < 0 ||
        g_utilReadsGpu0++ < g_hangAfter)
        return;
    ++g_hanging;
    g_hangChanged.notify_all();
    g_hangChanged.wait_for(lock, std::chrono::seconds(30), [] { return g_hangReleased; });
    --g_hanging;
}

void resetScript() {
    // clang-format off
    //           name                   uuid                                        bus id
    //           util gpu/mem  mem total/used  temp  power/limit mW  SM/mem MHz  fan  PCIe tx/rx KB/s
    g_gpus[0] = {"DDP Desk Fake GPU 0", "GPU-fa4e0000-0000-4000-8000-000000000000", "00000000:3B:00.0",
                 37, 12,       80 * GiB, 5 * GiB,   41,   123456, 400000,  1410, 1593,  30, 1000, 2000, {}};
    g_gpus[1] = {"DDP Desk Fake GPU 1", "GPU-fa4e0001-0000-4000-8000-000000000000", "00000000:86:00.0",
                 88, 40,       80 * GiB, 70 * GiB,  67,   350500, 400000,  1980, 1593,  -1, 5000, 6000, {}};
    // clang-format on
    g_calls.clear();
    {
        std::lock_guard<std::mutex> lock(g_hangMutex);
        const char* hang = std::getenv("FAKE_NVML_HANG_AFTER");
        g_hangAfter = hang && *hang ? std::atoi(hang) : -1;
        g_utilReadsGpu0 = 0;
        g_hangReleased = false;
    }
    g_utilReadsGpu1 = 0;
    g_gpu1Lost = false;
    const char* lost = std::getenv("FAKE_NVML_LOST_AFTER");
    g_lostAfter = lost && *lost ? std::atoi(lost) : -1;
    if (const char* list = std::getenv("FAKE_NVML_PROCESSES")) {
        std::stringstream in(list);
        for (std::string item; std::getline(in, item, ',');) {
            unsigned gpu = 0, pid = 0;
            char bytes[32] = "";
            if (std::sscanf(item.c_str(), "%u:%u:%31s", &gpu, &pid, bytes) == 3 && gpu < 2)
                g_gpus[gpu].processes.push_back({pid, std::strcmp(bytes, "na") == 0
                                                          ? nvml::VALUE_NOT_AVAILABLE
                                                          : std::strtoull(bytes, nullptr, 10)});
        }
    }
}

int indexOf(nvml::Device device) {
    for (int i = 0; i < 2; ++i)
        if (reinterpret_cast<nvml::Device>(&g_gpus[i]) == device) return i;
    return -1;
}

// Counts the call and says whether the device may answer (-1: invalid handle, 0: lost, 1: fine).
int enter(const char* function, nvml::Device device, int* index) {
    *index = indexOf(device);
    g_calls[std::string(function) + "#" + std::to_string(*index)]++;
    if (*index < 0) return -1;
    // The loss happens at a utilization read, the first query of a sample, so earlier samples stay whole.
    if (*index == 1 && g_lostAfter >= 0 && g_utilReadsGpu1 >= g_lostAfter &&
        std::strcmp(function, "nvmlDeviceGetUtilizationRates") == 0)
        g_gpu1Lost = true;
    if (*index == 1 && g_gpu1Lost) return 0;
    return 1;
}

#define DEVICE_CALL(device)                                                                                  \
    std::lock_guard<std::mutex> lock(g_mutex);                                                               \
    int index = 0;                                                                                           \
    switch (enter(__func__, device, &index)) {                                                               \
    case -1:                                                                                                 \
        return nvml::ERROR_INVALID_ARGUMENT;                                                                 \
    case 0:                                                                                                  \
        return nvml::ERROR_GPU_IS_LOST;                                                                      \
    default:                                                                                                 \
        break;                                                                                               \
    }                                                                                                        \
    FakeGpu& gpu = g_gpus[index];                                                                            \
    (void)gpu

nvml::Return copyString(const char* value, char* out, unsigned length) {
    if (!out || std::strlen(value) + 1 > length) return nvml::ERROR_INSUFFICIENT_SIZE;
    std::strcpy(out, value);
    return nvml::SUCCESS;
}

template <typename Record> nvml::Return listProcesses(const FakeGpu& gpu, unsigned* count, Record* infos) {
    if (!count) return nvml::ERROR_INVALID_ARGUMENT;
    unsigned needed = unsigned(gpu.processes.size());
    if (*count < needed || (needed > 0 && !infos)) {
        *count = needed;
        return nvml::ERROR_INSUFFICIENT_SIZE;
    }
    for (unsigned i = 0; i < needed; ++i) {
        infos[i] = Record{};
        infos[i].pid = gpu.processes[i].pid;
        infos[i].usedGpuMemory = gpu.processes[i].bytes;
    }
    *count = needed;
    return nvml::SUCCESS;
}

nvml::Return init() {
    std::lock_guard<std::mutex> lock(g_mutex);
    ++g_initCount;
    resetScript();
    const char* result = std::getenv("FAKE_NVML_INIT_RESULT");
    return result && *result ? std::atoi(result) : nvml::SUCCESS;
}

nvml::Return deviceCount(unsigned* count) {
    if (!count) return nvml::ERROR_INVALID_ARGUMENT;
    *count = 2;
    return nvml::SUCCESS;
}

nvml::Return handleByIndex(unsigned index, nvml::Device* device) {
    if (index >= 2 || !device) return nvml::ERROR_INVALID_ARGUMENT;
    *device = reinterpret_cast<nvml::Device>(&g_gpus[index]);
    return nvml::SUCCESS;
}

} // namespace

// ---- introspection ----
FAKE_EXPORT int fakeNvmlCalls(const char* function, int gpu) {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto it = g_calls.find(std::string(function) + "#" + std::to_string(gpu));
    return it == g_calls.end() ? 0 : it->second;
}
FAKE_EXPORT int fakeNvmlInitCount() {
    std::lock_guard<std::mutex> lock(g_mutex);
    return g_initCount;
}
FAKE_EXPORT int fakeNvmlShutdownCount() {
    std::lock_guard<std::mutex> lock(g_mutex);
    return g_shutdownCount;
}
FAKE_EXPORT int fakeNvmlHanging() {
    std::lock_guard<std::mutex> lock(g_hangMutex);
    return g_hanging;
}
FAKE_EXPORT void fakeNvmlReleaseHang() {
    std::lock_guard<std::mutex> lock(g_hangMutex);
    g_hangReleased = true;
    g_hangChanged.notify_all();
}

// ---- required ----
FAKE_EXPORT nvml::Return nvmlShutdown() {
    std::lock_guard<std::mutex> lock(g_mutex);
    ++g_shutdownCount;
    return nvml::SUCCESS;
}

#ifdef FAKE_NVML_MINIMAL
FAKE_EXPORT nvml::Return nvmlInit() {
    return init();
}
FAKE_EXPORT nvml::Return nvmlDeviceGetCount(unsigned* count) {
    return deviceCount(count);
}
FAKE_EXPORT nvml::Return nvmlDeviceGetHandleByIndex(unsigned index, nvml::Device* device) {
    return handleByIndex(index, device);
}
FAKE_EXPORT nvml::Return nvmlDeviceGetComputeRunningProcesses(nvml::Device device, unsigned* count,
                                                              nvml::ProcessInfoV1* infos) {
    DEVICE_CALL(device);
    return listProcesses(gpu, count, infos);
}
#else
FAKE_EXPORT nvml::Return nvmlInit_v2() {
    return init();
}
FAKE_EXPORT nvml::Return nvmlDeviceGetCount_v2(unsigned* count) {
    return deviceCount(count);
}
FAKE_EXPORT nvml::Return nvmlDeviceGetHandleByIndex_v2(unsigned index, nvml::Device* device) {
    return handleByIndex(index, device);
}
FAKE_EXPORT nvml::Return nvmlDeviceGetComputeRunningProcesses_v3(nvml::Device device, unsigned* count,
                                                                 nvml::ProcessInfoV2* infos) {
    DEVICE_CALL(device);
    return listProcesses(gpu, count, infos);
}
// The legacy entry points misbehave on purpose: binding them instead of the versioned ones must show in
// tests.
FAKE_EXPORT nvml::Return nvmlInit() {
    return nvml::ERROR_UNKNOWN;
}
FAKE_EXPORT nvml::Return nvmlDeviceGetCount(unsigned* count) {
    *count = 1;
    return nvml::SUCCESS;
}
FAKE_EXPORT nvml::Return nvmlDeviceGetHandleByIndex(unsigned, nvml::Device*) {
    return nvml::ERROR_UNKNOWN;
}
FAKE_EXPORT nvml::Return nvmlDeviceGetComputeRunningProcesses(nvml::Device, unsigned*, nvml::ProcessInfoV1*) {
    return nvml::ERROR_UNKNOWN;
}

// ---- optional ----
FAKE_EXPORT const char* nvmlErrorString(nvml::Return code) {
    switch (code) {
    case nvml::SUCCESS:
        return "Success";
    case nvml::ERROR_NOT_SUPPORTED:
        return "Not Supported";
    case nvml::ERROR_DRIVER_NOT_LOADED:
        return "Driver Not Loaded";
    case nvml::ERROR_GPU_IS_LOST:
        return "GPU is lost";
    default:
        return "Unknown Error";
    }
}
FAKE_EXPORT nvml::Return nvmlSystemGetDriverVersion(char* version, unsigned length) {
    return copyString("999.99.fake", version, length);
}
FAKE_EXPORT nvml::Return nvmlDeviceGetUUID(nvml::Device device, char* out, unsigned length) {
    DEVICE_CALL(device);
    return copyString(gpu.uuid, out, length);
}
FAKE_EXPORT nvml::Return nvmlDeviceGetPciInfo_v3(nvml::Device device, nvml::PciInfo* pci) {
    DEVICE_CALL(device);
    *pci = nvml::PciInfo{};
    std::strcpy(pci->busId, gpu.busId);
    return nvml::SUCCESS;
}
FAKE_EXPORT nvml::Return nvmlDeviceGetUtilizationRates(nvml::Device device, nvml::Utilization* util) {
    maybeHang(device);
    DEVICE_CALL(device);
    if (index == 1) ++g_utilReadsGpu1;
    *util = {gpu.utilGpu, gpu.utilMem};
    return nvml::SUCCESS;
}
FAKE_EXPORT nvml::Return nvmlDeviceGetTemperature(nvml::Device device, nvml::TemperatureSensor,
                                                  unsigned* value) {
    DEVICE_CALL(device);
    *value = gpu.temperature;
    return nvml::SUCCESS;
}
FAKE_EXPORT nvml::Return nvmlDeviceGetPowerUsage(nvml::Device device, unsigned* milliwatts) {
    DEVICE_CALL(device);
    *milliwatts = gpu.powerMilliwatts;
    return nvml::SUCCESS;
}
FAKE_EXPORT nvml::Return nvmlDeviceGetEnforcedPowerLimit(nvml::Device device, unsigned* milliwatts) {
    DEVICE_CALL(device);
    *milliwatts = gpu.limitMilliwatts;
    return nvml::SUCCESS;
}
FAKE_EXPORT nvml::Return nvmlDeviceGetFanSpeed(nvml::Device device, unsigned* percent) {
    DEVICE_CALL(device);
    if (gpu.fan < 0) return nvml::ERROR_NOT_SUPPORTED;
    *percent = unsigned(gpu.fan);
    return nvml::SUCCESS;
}
FAKE_EXPORT nvml::Return nvmlDeviceGetClockInfo(nvml::Device device, nvml::ClockType type, unsigned* mhz) {
    DEVICE_CALL(device);
    if (type != nvml::CLOCK_SM && type != nvml::CLOCK_MEM) return nvml::ERROR_INVALID_ARGUMENT;
    *mhz = type == nvml::CLOCK_SM ? gpu.smClock : gpu.memClock;
    return nvml::SUCCESS;
}
FAKE_EXPORT nvml::Return nvmlDeviceGetPcieThroughput(nvml::Device device, nvml::PcieUtilCounter counter,
                                                     unsigned* kb) {
    DEVICE_CALL(device);
    *kb = counter == nvml::PCIE_UTIL_TX_BYTES ? gpu.pcieTxKB : gpu.pcieRxKB;
    return nvml::SUCCESS;
}
#endif

// ---- optional, in both builds ----
FAKE_EXPORT nvml::Return nvmlDeviceGetName(nvml::Device device, char* out, unsigned length) {
    DEVICE_CALL(device);
    return copyString(gpu.name, out, length);
}
FAKE_EXPORT nvml::Return nvmlDeviceGetMemoryInfo(nvml::Device device, nvml::Memory* memory) {
    DEVICE_CALL(device);
    *memory = {gpu.memTotal, gpu.memTotal - gpu.memUsed, gpu.memUsed};
    return nvml::SUCCESS;
}
