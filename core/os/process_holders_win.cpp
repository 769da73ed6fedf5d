// Windows side of process_holders.h: sockets.h's TCP table (IP Helper) names the process that owns a port,
// the Restart Manager (RmGetList) names the processes that hold a file open - the same API Explorer uses for
// "file in use".

#include "os/process.h"
#include "os/process_holders.h"
#include "os/sockets.h"

#include <windows.h>

#include <restartmanager.h>

#include <vector>

namespace ddpdesk::os {

namespace {

std::string narrow(const wchar_t* w) {
    if (!w || !*w) return {};
    int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, nullptr, 0, nullptr, nullptr);
    std::string s(static_cast<std::size_t>(n > 0 ? n - 1 : 0), '\0');
    if (n > 1) WideCharToMultiByte(CP_UTF8, 0, w, -1, s.data(), n, nullptr, nullptr);
    return s;
}

void addUnique(std::vector<ProcessRef>& out, std::int64_t pid, std::string name, const std::string& how) {
    for (const auto& p : out)
        if (p.pid == pid) return;
    out.push_back({pid, name.empty() ? processName(pid) : std::move(name), how});
}

} // namespace

std::vector<ProcessRef> portHolders(int port) {
    std::vector<ProcessRef> out;
    for (const auto& socket : tcpPortSockets(port))
        addUnique(out, socket.ownerPid, {}, socket.listening ? "listening" : "bound");
    return out;
}

namespace {

// Every process the Restart Manager sees holding `path`, this one included.
std::vector<ProcessRef> restartManagerHolders(const std::filesystem::path& path) {
    std::vector<ProcessRef> out;
    DWORD session = 0;
    WCHAR key[CCH_RM_SESSION_KEY + 1] = {0};
    if (RmStartSession(&session, 0, key) != ERROR_SUCCESS) return out;
    std::wstring wide = path.wstring();
    LPCWSTR files[] = {wide.c_str()};
    if (RmRegisterResources(session, 1, files, 0, nullptr, 0, nullptr) == ERROR_SUCCESS) {
        UINT needed = 0, count = 0;
        DWORD reasons = 0;
        std::vector<RM_PROCESS_INFO> info;
        DWORD rc = ERROR_MORE_DATA;
        for (int attempt = 0; attempt < 3 && rc == ERROR_MORE_DATA; ++attempt) {
            count = needed;
            info.resize(count);
            rc = RmGetList(session, &needed, &count, info.empty() ? nullptr : info.data(), &reasons);
        }
        if (rc == ERROR_SUCCESS)
            for (UINT i = 0; i < count; ++i)
                addUnique(out, static_cast<std::int64_t>(info[i].Process.dwProcessId),
                          narrow(info[i].strAppName), "open");
    }
    RmEndSession(session);
    return out;
}

} // namespace

std::vector<ProcessRef> fileHolders(const std::filesystem::path& path) {
    std::vector<ProcessRef> out;
    const auto self = currentPid();
    for (ProcessRef& p : restartManagerHolders(path))
        if (p.pid != self) out.push_back(std::move(p));
    return out;
}

std::optional<bool> processHoldsFile(std::int64_t pid, const std::filesystem::path& path) {
    for (const ProcessRef& p : restartManagerHolders(path))
        if (p.pid == pid) return true;
    return false;
}

std::vector<ProcessRef> processesMentioning(const std::string&, const std::vector<std::string>&) {
    return {}; // reading another process's command line needs NtQueryInformationProcess; not worth it here
}

} // namespace ddpdesk::os
