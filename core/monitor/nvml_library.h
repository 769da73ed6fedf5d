#pragma once

// NVML loaded at run time: finds the driver's library, resolves the symbols DDP Desk uses (versioned names
// first, then the plain ones), initialises it and shuts it down again. No driver is a normal state: the
// object then holds the reason and every function pointer stays null. One object is used from one thread at a
// time.

#include "monitor/nvml_api.h"
#include "monitor/nvml_status.h"
#include "os/dynamic_library.h"
#include "os/nvml_paths.h"

#include <initializer_list>
#include <string>
#include <vector>

namespace ddpdesk::monitor {

// Environment variable naming the NVML library to load instead of the driver's (a file name or a path).
constexpr const char* kNvmlLibraryEnv = "DDPDESK_NVML_LIBRARY";

// The library names/paths tried in order when kNvmlLibraryEnv is not set: platformNvmlCandidates()
// (os/nvml_paths.h).

// Resolved entry points; null where the library does not export the symbol. The four required ones are
// non-null whenever NvmlLibrary::available() is true.
struct NvmlFunctions {
    nvml::InitFn init = nullptr;                                     // required
    nvml::ShutdownFn shutdown = nullptr;                             // required
    nvml::DeviceGetCountFn deviceGetCount = nullptr;                 // required
    nvml::DeviceGetHandleByIndexFn deviceGetHandleByIndex = nullptr; // required
    nvml::ErrorStringFn errorString = nullptr;
    nvml::SystemGetDriverVersionFn systemGetDriverVersion = nullptr;
    nvml::DeviceGetStringFn deviceGetName = nullptr;
    nvml::DeviceGetStringFn deviceGetUuid = nullptr;
    nvml::DeviceGetPciInfoFn deviceGetPciInfo = nullptr;
    nvml::DeviceGetMemoryInfoFn deviceGetMemoryInfo = nullptr;
    nvml::DeviceGetUtilizationRatesFn deviceGetUtilizationRates = nullptr;
    nvml::DeviceGetTemperatureFn deviceGetTemperature = nullptr;
    nvml::DeviceGetUintFn deviceGetPowerUsage = nullptr;
    nvml::DeviceGetUintFn deviceGetEnforcedPowerLimit = nullptr;
    nvml::DeviceGetUintFn deviceGetFanSpeed = nullptr;
    nvml::DeviceGetClockInfoFn deviceGetClockInfo = nullptr;
    nvml::DeviceGetPcieThroughputFn deviceGetPcieThroughput = nullptr;
    // Exactly one of the two process queries is set when the library has any: the _v3/_v2 symbols fill the v2
    // record layout, the plain symbol the v1 layout.
    nvml::DeviceGetProcessesV2Fn deviceGetProcessesV2 = nullptr;
    nvml::DeviceGetProcessesV1Fn deviceGetProcessesV1 = nullptr;
};

class NvmlLibrary {
public:
    // Loads and initialises NVML; never throws. status() says whether it worked and, if not, why.
    NvmlLibrary();
    // nvmlShutdown (when nvmlInit succeeded), then unloads the library.
    ~NvmlLibrary();
    NvmlLibrary(const NvmlLibrary&) = delete;
    NvmlLibrary& operator=(const NvmlLibrary&) = delete;

    bool available() const { return m_status.available; }
    const NvmlStatus& status() const { return m_status; }
    const NvmlFunctions& fn() const { return m_fn; }
    const std::string& libraryPath() const { return m_library.path(); }

    // Symbol names actually bound (e.g. "nvmlInit_v2") and optional ones the library lacks (base names).
    const std::vector<std::string>& resolvedSymbols() const { return m_resolved; }
    const std::vector<std::string>& missingOptionalSymbols() const { return m_missingOptional; }

    // "GPU is lost (NVML error 15)": the library's own words when it has nvmlErrorString.
    std::string errorText(nvml::Return code) const;

private:
    bool load();
    // Binds the first of `names` the library exports; when none is, appends them to *missing (if given).
    template <typename Fn>
    bool bind(Fn& slot, std::initializer_list<const char*> names, std::vector<std::string>* missing);

    DynamicLibrary m_library;
    NvmlFunctions m_fn;
    NvmlStatus m_status;
    bool m_initialised = false;
    std::vector<std::string> m_resolved;
    std::vector<std::string> m_missingOptional;
    std::vector<std::string> m_missingRequired;
};

} // namespace ddpdesk::monitor
