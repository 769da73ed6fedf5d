// Windows side of nvml_paths.h: System32 and the old NVSMI folder, as full paths.
#include "os/nvml_paths.h"

#include <windows.h>

namespace ddpdesk::monitor {

namespace {

std::string toUtf8(const std::wstring& wide) {
    if (wide.empty()) return {};
    int n = WideCharToMultiByte(CP_UTF8, 0, wide.data(), int(wide.size()), nullptr, 0, nullptr, nullptr);
    std::string out(size_t(n > 0 ? n : 0), '\0');
    if (n > 0)
        WideCharToMultiByte(CP_UTF8, 0, wide.data(), int(wide.size()), out.data(), n, nullptr, nullptr);
    return out;
}

std::wstring environmentVariable(const wchar_t* name) {
    DWORD n = GetEnvironmentVariableW(name, nullptr, 0);
    if (n == 0) return {};
    std::wstring value(n, L'\0');
    n = GetEnvironmentVariableW(name, value.data(), n);
    value.resize(n);
    return value;
}

} // namespace

// Full paths only: a bare "nvml.dll" would be searched in the current folder and on PATH, where anyone who
// can write a file there could plant a DLL that runs inside DDP Desk. Current drivers install nvml.dll into
// System32; drivers before R418 kept it in NVSMI under the 64-bit Program Files.
std::vector<std::string> platformNvmlCandidates() {
    std::vector<std::string> candidates;
    wchar_t system[MAX_PATH];
    UINT n = GetSystemDirectoryW(system, MAX_PATH);
    if (n > 0 && n < MAX_PATH) candidates.push_back(toUtf8(std::wstring(system, n) + L"\\nvml.dll"));
    for (const wchar_t* variable : {L"ProgramW6432", L"ProgramFiles"}) {
        const std::wstring root = environmentVariable(variable);
        if (!root.empty()) {
            candidates.push_back(toUtf8(root + L"\\NVIDIA Corporation\\NVSMI\\nvml.dll"));
            break;
        }
    }
    return candidates;
}

} // namespace ddpdesk::monitor
