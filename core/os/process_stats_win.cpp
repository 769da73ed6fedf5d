// Windows side of process.h's readProcessStats, the monitor's per-process sample.
#include "os/process.h"

#include <windows.h>
// windows.h first: these two depend on its types.
#include <psapi.h>
#include <tlhelp32.h>

namespace ddpdesk::os {

namespace {

std::uint64_t toUint64(const FILETIME& ft) {
    return (std::uint64_t(ft.dwHighDateTime) << 32) | ft.dwLowDateTime;
}

// Thread counts are only in the Toolhelp process snapshot.
int threadCount(DWORD pid) {
    HANDLE snapshot = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
    if (snapshot == INVALID_HANDLE_VALUE) return 0;
    PROCESSENTRY32W entry{};
    entry.dwSize = sizeof entry;
    int threads = 0;
    for (BOOL ok = Process32FirstW(snapshot, &entry); ok; ok = Process32NextW(snapshot, &entry)) {
        if (entry.th32ProcessID == pid) {
            threads = int(entry.cntThreads);
            break;
        }
    }
    CloseHandle(snapshot);
    return threads;
}

} // namespace

RawProcessStats readProcessStats(std::int64_t pid) {
    RawProcessStats raw;
    if (pid <= 0 || pid > 0xFFFFFFFFLL) {
        raw.error = "invalid pid " + std::to_string(pid);
        return raw;
    }
    // Limited information is enough for times and memory and is granted for other users' processes too.
    HANDLE process = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, DWORD(pid));
    if (!process) {
        DWORD code = GetLastError();
        raw.error = code == ERROR_INVALID_PARAMETER
                        ? "process " + std::to_string(pid) + " does not exist"
                        : "process " + std::to_string(pid) + " cannot be opened (Windows error " +
                              std::to_string(code) + ")";
        return raw;
    }
    DWORD exitCode = 0;
    FILETIME created{}, exited{}, kernel{}, user{};
    PROCESS_MEMORY_COUNTERS memory{};
    memory.cb = sizeof memory;
    if (GetExitCodeProcess(process, &exitCode) && exitCode != STILL_ACTIVE) {
        raw.error = "process " + std::to_string(pid) + " has exited with code " + std::to_string(exitCode);
    } else if (!GetProcessTimes(process, &created, &exited, &kernel, &user)) {
        raw.error = "GetProcessTimes failed for process " + std::to_string(pid) + " (Windows error " +
                    std::to_string(GetLastError()) + ")";
    } else {
        raw.alive = true;
        raw.cpuSeconds = double(toUint64(kernel) + toUint64(user)) / 1e7; // 100 ns units
        raw.startStamp = toUint64(created);
        if (GetProcessMemoryInfo(process, &memory, sizeof memory))
            raw.residentBytes = std::uint64_t(memory.WorkingSetSize);
        raw.threads = threadCount(DWORD(pid));
    }
    CloseHandle(process);
    return raw;
}

} // namespace ddpdesk::os
