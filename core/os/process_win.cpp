#include "os/process.h"

#include <windows.h>

namespace ddpdesk::os {

bool processAlive(std::int64_t pid) {
    if (pid <= 0) return false;
    HANDLE h = OpenProcess(SYNCHRONIZE, FALSE, static_cast<DWORD>(pid));
    if (!h) return GetLastError() == ERROR_ACCESS_DENIED; // exists, but belongs to someone we may not query
    // Not GetExitCodeProcess: a process may exit with 259, which reads as STILL_ACTIVE.
    const bool alive = WaitForSingleObject(h, 0) == WAIT_TIMEOUT;
    CloseHandle(h);
    return alive;
}

std::int64_t currentPid() {
    return static_cast<std::int64_t>(GetCurrentProcessId());
}

std::string processName(std::int64_t pid) {
    HANDLE h = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, static_cast<DWORD>(pid));
    if (!h) return {};
    wchar_t path[MAX_PATH] = {0};
    DWORD size = MAX_PATH;
    std::string name;
    if (QueryFullProcessImageNameW(h, 0, path, &size)) {
        const int n = WideCharToMultiByte(CP_UTF8, 0, path, int(size), nullptr, 0, nullptr, nullptr);
        std::string full(static_cast<std::size_t>(n > 0 ? n : 0), '\0');
        if (n > 0) WideCharToMultiByte(CP_UTF8, 0, path, int(size), full.data(), n, nullptr, nullptr);
        const auto slash = full.find_last_of("\\/");
        name = slash == std::string::npos ? full : full.substr(slash + 1);
    }
    CloseHandle(h);
    return name;
}

ProcStat readProcStat(std::int64_t) {
    return {}; // no /proc: the callers ask Windows its own way (readProcessStats in process_stats_win.cpp,
               // Job Objects)
}

} // namespace ddpdesk::os
