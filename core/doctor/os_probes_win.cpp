// Windows side of os_probes.h: GetExtendedTcpTable (IP Helper) names the process that owns a port, the
// Restart Manager (RmGetList) names the processes that hold a file open - the same API Explorer uses for
// "file in use".

#include "doctor/os_probes.h"

// Winsock first: windows.h would otherwise pull in the old winsock.h.
#include <winsock2.h>
#include <ws2tcpip.h>

#include <windows.h>

#include <iphlpapi.h>
#include <restartmanager.h>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace ddpdesk::doctor::os {

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

template <typename Table, typename Row> void scanTable(ULONG family, int port, std::vector<ProcessRef>& out) {
    DWORD size = 0;
    GetExtendedTcpTable(nullptr, &size, FALSE, family, TCP_TABLE_OWNER_PID_ALL, 0);
    std::vector<unsigned char> buffer(size + 4096);
    size = static_cast<DWORD>(buffer.size());
    if (GetExtendedTcpTable(buffer.data(), &size, FALSE, family, TCP_TABLE_OWNER_PID_ALL, 0) != NO_ERROR)
        return;
    auto table = reinterpret_cast<const Table*>(buffer.data());
    for (DWORD i = 0; i < table->dwNumEntries; ++i) {
        const Row& row = table->table[i];
        if (ntohs(static_cast<u_short>(row.dwLocalPort)) != port) continue;
        if (row.dwState == MIB_TCP_STATE_LISTEN)
            addUnique(out, row.dwOwningPid, {}, "listening");
        else if (row.dwState == MIB_TCP_STATE_CLOSED)
            addUnique(out, row.dwOwningPid, {}, "bound");
    }
}

} // namespace

std::vector<ProcessRef> portHolders(int port) {
    std::vector<ProcessRef> out;
    scanTable<MIB_TCPTABLE_OWNER_PID, MIB_TCPROW_OWNER_PID>(AF_INET, port, out);
    scanTable<MIB_TCP6TABLE_OWNER_PID, MIB_TCP6ROW_OWNER_PID>(AF_INET6, port, out);
    return out;
}

namespace {

std::string ipv4Text(DWORD networkOrder) {
    const auto* b = reinterpret_cast<const unsigned char*>(&networkOrder);
    return std::to_string(b[0]) + "." + std::to_string(b[1]) + "." + std::to_string(b[2]) + "." +
           std::to_string(b[3]);
}

// RFC 5952 text (longest run of zero groups as "::"), without needing InetNtop's minimum Windows version.
std::string ipv6Text(const UCHAR* b) {
    unsigned groups[8];
    for (int i = 0; i < 8; ++i)
        groups[i] = (unsigned(b[2 * i]) << 8) | b[2 * i + 1];
    int bestAt = -1, bestLength = 1;
    for (int i = 0; i < 8;) {
        int j = i;
        while (j < 8 && groups[j] == 0)
            ++j;
        if (j - i > bestLength) {
            bestAt = i;
            bestLength = j - i;
        }
        i = j == i ? i + 1 : j;
    }
    std::string text;
    for (int i = 0; i < 8; ++i) {
        if (i == bestAt) {
            text += "::";
            i += bestLength - 1;
            continue;
        }
        if (!text.empty() && text.back() != ':') text += ':';
        char group[8];
        std::snprintf(group, sizeof group, "%x", groups[i]);
        text += group;
    }
    return text;
}

void addAddress(std::vector<std::string>& out, std::string address) {
    if (std::find(out.begin(), out.end(), address) == out.end()) out.push_back(std::move(address));
}

template <typename Table> bool listenerTable(ULONG family, std::vector<unsigned char>& buffer) {
    DWORD size = 0;
    GetExtendedTcpTable(nullptr, &size, FALSE, family, TCP_TABLE_OWNER_PID_LISTENER, 0);
    buffer.assign(size + 4096, 0);
    size = static_cast<DWORD>(buffer.size());
    return GetExtendedTcpTable(buffer.data(), &size, FALSE, family, TCP_TABLE_OWNER_PID_LISTENER, 0) ==
           NO_ERROR;
}

} // namespace

std::vector<std::string> listenAddresses(int port) {
    std::vector<std::string> out;
    std::vector<unsigned char> buffer;
    if (listenerTable<MIB_TCPTABLE_OWNER_PID>(AF_INET, buffer)) {
        auto table = reinterpret_cast<const MIB_TCPTABLE_OWNER_PID*>(buffer.data());
        for (DWORD i = 0; i < table->dwNumEntries; ++i)
            if (ntohs(static_cast<u_short>(table->table[i].dwLocalPort)) == port)
                addAddress(out, ipv4Text(table->table[i].dwLocalAddr));
    }
    if (listenerTable<MIB_TCP6TABLE_OWNER_PID>(AF_INET6, buffer)) {
        auto table = reinterpret_cast<const MIB_TCP6TABLE_OWNER_PID*>(buffer.data());
        for (DWORD i = 0; i < table->dwNumEntries; ++i)
            if (ntohs(static_cast<u_short>(table->table[i].dwLocalPort)) == port)
                addAddress(out, ipv6Text(table->table[i].ucLocalAddr));
    }
    return out;
}

std::vector<ProcessRef> fileHolders(const std::filesystem::path& path) {
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
        const auto self = currentPid();
        if (rc == ERROR_SUCCESS)
            for (UINT i = 0; i < count; ++i) {
                auto pid = static_cast<std::int64_t>(info[i].Process.dwProcessId);
                if (pid != self) addUnique(out, pid, narrow(info[i].strAppName), "open");
            }
    }
    RmEndSession(session);
    return out;
}

std::vector<ProcessRef> processesMentioning(const std::string&) {
    return {}; // reading another process's command line needs NtQueryInformationProcess; not worth it here
}

} // namespace ddpdesk::doctor::os
