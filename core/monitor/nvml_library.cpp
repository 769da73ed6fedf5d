#include "monitor/nvml_library.h"

#include <algorithm>
#include <cstdlib>

namespace ddpdesk::monitor {

namespace {

// Used when the library has no nvmlErrorString; wording follows NVIDIA's.
const char* builtinErrorText(nvml::Return code) {
    switch (code) {
    case nvml::SUCCESS:
        return "Success";
    case nvml::ERROR_UNINITIALIZED:
        return "Uninitialized";
    case nvml::ERROR_INVALID_ARGUMENT:
        return "Invalid Argument";
    case nvml::ERROR_NOT_SUPPORTED:
        return "Not Supported";
    case nvml::ERROR_NO_PERMISSION:
        return "Insufficient Permissions";
    case nvml::ERROR_NOT_FOUND:
        return "Not Found";
    case nvml::ERROR_INSUFFICIENT_SIZE:
        return "Insufficient Size";
    case nvml::ERROR_DRIVER_NOT_LOADED:
        return "Driver Not Loaded";
    case nvml::ERROR_TIMEOUT:
        return "Timeout";
    case nvml::ERROR_LIBRARY_NOT_FOUND:
        return "NVML Shared Library Not Found";
    case nvml::ERROR_FUNCTION_NOT_FOUND:
        return "Function Not Found";
    case nvml::ERROR_GPU_IS_LOST:
        return "GPU is lost";
    case nvml::ERROR_RESET_REQUIRED:
        return "GPU requires reset";
    case nvml::ERROR_OPERATING_SYSTEM:
        return "GPU access blocked by the operating system";
    case nvml::ERROR_LIB_RM_VERSION_MISMATCH:
        return "Driver/library version mismatch";
    default:
        return "Unknown Error";
    }
}

std::string joinNames(std::initializer_list<const char*> names) {
    std::string out;
    for (const char* n : names) {
        if (!out.empty()) out += ", ";
        out += n;
    }
    return out;
}

} // namespace

NvmlLibrary::NvmlLibrary() {
    if (!load()) {
        if (m_initialised) m_fn.shutdown();
        m_initialised = false;
        // Nothing of a half-loaded library may stay reachable: pointers into it die with the handle.
        m_fn = NvmlFunctions{};
        m_library.close();
        m_status.available = false;
    }
}

NvmlLibrary::~NvmlLibrary() {
    if (m_initialised && m_fn.shutdown) m_fn.shutdown();
    m_fn = NvmlFunctions{};
    m_library.close();
}

template <typename Fn>
bool NvmlLibrary::bind(Fn& slot, std::initializer_list<const char*> names,
                       std::vector<std::string>* missing) {
    for (const char* name : names) {
        if (void* address = m_library.symbol(name)) {
            slot = reinterpret_cast<Fn>(address);
            m_resolved.emplace_back(name);
            return true;
        }
    }
    if (missing) missing->push_back(joinNames(names));
    return false;
}

bool NvmlLibrary::load() {
    std::vector<std::string> candidates;
    const char* override = std::getenv(kNvmlLibraryEnv);
    bool overridden = override && *override;
    if (overridden)
        candidates.emplace_back(override);
    else
        candidates = platformNvmlCandidates();

    std::string firstError;
    for (const std::string& candidate : candidates) {
        std::string error;
        if (m_library.open(candidate, &error)) break;
        if (firstError.empty()) firstError = error;
    }
    if (!m_library.isOpen()) {
        if (overridden) {
            m_status.reason = std::string("could not load NVML from ") + kNvmlLibraryEnv + "=" + override +
                              ": " + firstError;
        } else {
            std::string tried;
            for (const std::string& candidate : candidates)
                tried += (tried.empty() ? "" : ", ") + candidate;
            m_status.reason = "no NVIDIA driver found (tried " + tried + "): " + firstError;
        }
        return false;
    }

    // Versioned names first: the plain ones are kept by NVIDIA only for old binaries and may behave
    // differently.
    bind(m_fn.init, {"nvmlInit_v2", "nvmlInit"}, &m_missingRequired);
    std::string initName = m_fn.init ? m_resolved.back() : std::string();
    bind(m_fn.shutdown, {"nvmlShutdown"}, &m_missingRequired);
    bind(m_fn.deviceGetCount, {"nvmlDeviceGetCount_v2", "nvmlDeviceGetCount"}, &m_missingRequired);
    bind(m_fn.deviceGetHandleByIndex, {"nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex"},
         &m_missingRequired);
    bind(m_fn.errorString, {"nvmlErrorString"}, &m_missingOptional);
    bind(m_fn.systemGetDriverVersion, {"nvmlSystemGetDriverVersion"}, &m_missingOptional);
    bind(m_fn.deviceGetName, {"nvmlDeviceGetName"}, &m_missingOptional);
    bind(m_fn.deviceGetUuid, {"nvmlDeviceGetUUID"}, &m_missingOptional);
    bind(m_fn.deviceGetPciInfo, {"nvmlDeviceGetPciInfo_v3", "nvmlDeviceGetPciInfo_v2"}, &m_missingOptional);
    bind(m_fn.deviceGetMemoryInfo, {"nvmlDeviceGetMemoryInfo"}, &m_missingOptional);
    bind(m_fn.deviceGetUtilizationRates, {"nvmlDeviceGetUtilizationRates"}, &m_missingOptional);
    bind(m_fn.deviceGetTemperature, {"nvmlDeviceGetTemperature"}, &m_missingOptional);
    bind(m_fn.deviceGetPowerUsage, {"nvmlDeviceGetPowerUsage"}, &m_missingOptional);
    bind(m_fn.deviceGetEnforcedPowerLimit, {"nvmlDeviceGetEnforcedPowerLimit"}, &m_missingOptional);
    bind(m_fn.deviceGetFanSpeed, {"nvmlDeviceGetFanSpeed"}, &m_missingOptional);
    bind(m_fn.deviceGetClockInfo, {"nvmlDeviceGetClockInfo"}, &m_missingOptional);
    bind(m_fn.deviceGetPcieThroughput, {"nvmlDeviceGetPcieThroughput"}, &m_missingOptional);
    // The v2 record layout serves both _v3 and _v2; only the plain symbol fills the short v1 record.
    if (!bind(m_fn.deviceGetProcessesV2,
              {"nvmlDeviceGetComputeRunningProcesses_v3", "nvmlDeviceGetComputeRunningProcesses_v2"},
              nullptr) &&
        !bind(m_fn.deviceGetProcessesV1, {"nvmlDeviceGetComputeRunningProcesses"}, nullptr))
        m_missingOptional.push_back(
            "nvmlDeviceGetComputeRunningProcesses_v3, nvmlDeviceGetComputeRunningProcesses_v2, "
            "nvmlDeviceGetComputeRunningProcesses");

    if (!m_missingRequired.empty()) {
        m_status.reason = m_library.path() + " is not a usable NVML library: it exports none of ";
        for (size_t i = 0; i < m_missingRequired.size(); ++i)
            m_status.reason += (i ? "; none of " : "") + m_missingRequired[i];
        return false;
    }

    nvml::Return rc = m_fn.init();
    if (rc != nvml::SUCCESS) {
        m_status.reason = initName + " failed: " + errorText(rc);
        if (rc == nvml::ERROR_DRIVER_NOT_LOADED)
            m_status.reason += " - the NVIDIA kernel driver is not running";
        return false;
    }
    m_initialised = true;

    unsigned int count = 0;
    rc = m_fn.deviceGetCount(&count);
    if (rc != nvml::SUCCESS) {
        m_status.reason = "listing GPUs failed: " + errorText(rc);
        return false; // the destructor still pairs the successful init with nvmlShutdown
    }
    m_status.deviceCount = int(count);

    m_status.driverVersion = "unknown";
    if (m_fn.systemGetDriverVersion) {
        char version[nvml::SYSTEM_DRIVER_VERSION_BUFFER_SIZE] = {};
        if (m_fn.systemGetDriverVersion(version, sizeof version) == nvml::SUCCESS && version[0])
            m_status.driverVersion = std::string(version, std::find(version, version + sizeof version, '\0'));
    }
    m_status.available = true;
    m_status.reason.clear();
    return true;
}

std::string NvmlLibrary::errorText(nvml::Return code) const {
    const char* text = m_fn.errorString ? m_fn.errorString(code) : nullptr;
    if (!text || !*text) text = builtinErrorText(code);
    return std::string(text) + " (NVML error " + std::to_string(code) + ")";
}

NvmlStatus probeNvml() {
    NvmlLibrary library;
    return library.status();
}

} // namespace ddpdesk::monitor
