#pragma once

// The slice of NVIDIA's NVML C ABI that DDP Desk uses, declared here because no nvml.h is installed and the
// library is loaded at run time (never linked). Layouts and values follow NVIDIA's published nvml.h; only
// what core/monitor calls is declared. Function pointer types are named after the exported symbol they are
// resolved from.

#include <cstdint>

namespace ddpdesk::monitor::nvml {

using Return = int; // nvmlReturn_t is a C enum: int-sized on every platform NVML ships for

constexpr Return SUCCESS = 0;
constexpr Return ERROR_UNINITIALIZED = 1;
constexpr Return ERROR_INVALID_ARGUMENT = 2;
constexpr Return ERROR_NOT_SUPPORTED = 3;
constexpr Return ERROR_NO_PERMISSION = 4;
constexpr Return ERROR_ALREADY_INITIALIZED = 5;
constexpr Return ERROR_NOT_FOUND = 6;
constexpr Return ERROR_INSUFFICIENT_SIZE = 7;
constexpr Return ERROR_INSUFFICIENT_POWER = 8;
constexpr Return ERROR_DRIVER_NOT_LOADED = 9;
constexpr Return ERROR_TIMEOUT = 10;
constexpr Return ERROR_IRQ_ISSUE = 11;
constexpr Return ERROR_LIBRARY_NOT_FOUND = 12;
constexpr Return ERROR_FUNCTION_NOT_FOUND = 13;
constexpr Return ERROR_CORRUPTED_INFOROM = 14;
constexpr Return ERROR_GPU_IS_LOST = 15;
constexpr Return ERROR_RESET_REQUIRED = 16;
constexpr Return ERROR_OPERATING_SYSTEM = 17;
constexpr Return ERROR_LIB_RM_VERSION_MISMATCH = 18;
constexpr Return ERROR_IN_USE = 19;
constexpr Return ERROR_MEMORY = 20;
constexpr Return ERROR_NO_DATA = 21;
constexpr Return ERROR_UNKNOWN = 999;

// Reported in place of a process's memory where the driver cannot attribute it (Windows WDDM mode).
constexpr unsigned long long VALUE_NOT_AVAILABLE = ~0ULL;

constexpr unsigned int SYSTEM_DRIVER_VERSION_BUFFER_SIZE = 80;
constexpr unsigned int DEVICE_NAME_V2_BUFFER_SIZE = 96;
constexpr unsigned int DEVICE_UUID_V2_BUFFER_SIZE = 96;

struct DeviceSt;
using Device = DeviceSt*; // nvmlDevice_t: an opaque handle

struct Memory { // nvmlMemory_t (v1)
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
};

struct Utilization { // nvmlUtilization_t, percent over the driver's last sample period
    unsigned int gpu;
    unsigned int memory;
};

struct PciInfo { // nvmlPciInfo_t as filled by nvmlDeviceGetPciInfo_v3 (and _v2)
    char busIdLegacy[16];
    unsigned int domain;
    unsigned int bus;
    unsigned int device;
    unsigned int pciDeviceId;
    unsigned int pciSubSystemId;
    char busId[32];
};

struct ProcessInfoV1 { // nvmlProcessInfo_v1_t: plain nvmlDeviceGetComputeRunningProcesses
    unsigned int pid;
    unsigned long long usedGpuMemory;
};

struct ProcessInfoV2 { // nvmlProcessInfo_v2_t == nvmlProcessInfo_t: the _v2 and _v3 process queries
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId;
    unsigned int computeInstanceId;
};

enum TemperatureSensor : int { TEMPERATURE_GPU = 0 };
enum ClockType : int { CLOCK_GRAPHICS = 0, CLOCK_SM = 1, CLOCK_MEM = 2, CLOCK_VIDEO = 3 };
enum PcieUtilCounter : int { PCIE_UTIL_TX_BYTES = 0, PCIE_UTIL_RX_BYTES = 1 };

extern "C" {
using InitFn = Return (*)();                   // nvmlInit_v2, nvmlInit
using ShutdownFn = Return (*)();               // nvmlShutdown
using ErrorStringFn = const char* (*)(Return); // nvmlErrorString
using SystemGetDriverVersionFn = Return (*)(char*, unsigned int);
using DeviceGetCountFn = Return (*)(unsigned int*); // nvmlDeviceGetCount_v2, nvmlDeviceGetCount
using DeviceGetHandleByIndexFn = Return (*)(unsigned int, Device*);
using DeviceGetStringFn = Return (*)(Device, char*, unsigned int); // nvmlDeviceGetName, nvmlDeviceGetUUID
using DeviceGetPciInfoFn = Return (*)(Device, PciInfo*);
using DeviceGetMemoryInfoFn = Return (*)(Device, Memory*);
using DeviceGetUtilizationRatesFn = Return (*)(Device, Utilization*);
using DeviceGetTemperatureFn = Return (*)(Device, TemperatureSensor, unsigned int*);
using DeviceGetUintFn = Return (*)(Device, unsigned int*); // power usage/limit (mW), fan speed (%)
using DeviceGetClockInfoFn = Return (*)(Device, ClockType, unsigned int*);
using DeviceGetPcieThroughputFn = Return (*)(Device, PcieUtilCounter, unsigned int*); // KB/s
using DeviceGetProcessesV1Fn = Return (*)(Device, unsigned int*, ProcessInfoV1*);
using DeviceGetProcessesV2Fn = Return (*)(Device, unsigned int*, ProcessInfoV2*);
}

} // namespace ddpdesk::monitor::nvml
