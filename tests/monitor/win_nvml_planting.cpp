// monitor.windows_nvml_planting: the Windows NVML loader (dynamic_library_win.cpp, nvml_paths_win.cpp), built
// with mingw-w64 and run under wine. A DLL named nvml.dll sits next to this program and in its current
// folder, where LoadLibraryW("nvml.dll") looked first: the NVML probe must not load it, a bare name must be
// refused, and the same DLL loaded by its full path must leave its marker (so the marker check can fail).
#include "monitor/nvml_library.h"
#include "monitor/nvml_status.h"
#include "os/dynamic_library.h"

#include <windows.h>

#include <cstdio>
#include <string>

using namespace ddpdesk::monitor;

namespace {

int g_failures = 0;

void check(bool ok, const std::string& what) {
    std::printf("%s: %s\n", ok ? "PASS" : "FAIL", what.c_str());
    g_failures += ok ? 0 : 1;
}

bool markerExists() {
    return GetFileAttributesW(L"planted-nvml-was-loaded") != INVALID_FILE_ATTRIBUTES;
}

std::string currentFolder() {
    char buf[MAX_PATH];
    DWORD n = GetCurrentDirectoryA(MAX_PATH, buf);
    return std::string(buf, n);
}

} // namespace

int main() {
    DeleteFileW(L"planted-nvml-was-loaded");
    _putenv_s(kNvmlLibraryEnv, ""); // the loader reads the C runtime's copy of the environment

    for (const std::string& candidate : platformNvmlCandidates())
        check(candidate.size() > 3 && candidate[1] == ':' && candidate[2] == '\\',
              "candidate is a full path: " + candidate);

    const NvmlStatus status = probeNvml();
    check(!markerExists(), "the probe did not load the planted nvml.dll (" +
                               (status.available ? std::string("NVML available") : status.reason) + ")");

    DynamicLibrary bare;
    std::string error;
    const bool opened = bare.open("nvml.dll", &error);
    check(!opened && error.find("not a full path") != std::string::npos, "a bare name is refused: " + error);
    check(!markerExists(), "the refused bare name loaded nothing");

    _putenv_s(kNvmlLibraryEnv, "nvml.dll");
    const NvmlStatus overridden = probeNvml();
    check(!overridden.available && overridden.reason.find("not a full path") != std::string::npos,
          "a bare " + std::string(kNvmlLibraryEnv) + " is refused: " + overridden.reason);
    check(!markerExists(), "the refused override loaded nothing");
    _putenv_s(kNvmlLibraryEnv, "");

    DynamicLibrary full;
    const std::string path = currentFolder() + "\\nvml.dll";
    error.clear();
    const bool loaded = full.open(path, &error);
    check(loaded, "the same DLL by full path loads: " + path + " " + error);
    check(markerExists(), "loading it leaves the marker (the checks above could fail)");
    full.close();
    DeleteFileW(L"planted-nvml-was-loaded");
    return g_failures == 0 ? 0 : 1;
}
