// Windows side of sockets.h: IP Helper's GetExtendedTcpTable, which names each socket's owning process.

#include "os/sockets.h"

// Winsock first: windows.h would otherwise pull in the old winsock.h.
#include <winsock2.h>
#include <ws2tcpip.h>

#include <windows.h>

#include <iphlpapi.h>

#include <cstdio>

namespace ddpdesk::os {

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

std::string addressText(const MIB_TCPROW_OWNER_PID& row) {
    return ipv4Text(row.dwLocalAddr);
}
std::string addressText(const MIB_TCP6ROW_OWNER_PID& row) {
    return ipv6Text(row.ucLocalAddr);
}

template <typename Table, typename Row>
void scanTable(ULONG family, int port, std::vector<TcpPortSocket>& out) {
    DWORD size = 0;
    GetExtendedTcpTable(nullptr, &size, FALSE, family, TCP_TABLE_OWNER_PID_ALL, 0);
    std::vector<unsigned char> buffer(size + 4096); // room for sockets opened since the size was asked
    size = static_cast<DWORD>(buffer.size());
    if (GetExtendedTcpTable(buffer.data(), &size, FALSE, family, TCP_TABLE_OWNER_PID_ALL, 0) != NO_ERROR)
        return;
    auto table = reinterpret_cast<const Table*>(buffer.data());
    for (DWORD i = 0; i < table->dwNumEntries; ++i) {
        const Row& row = table->table[i];
        if (ntohs(static_cast<u_short>(row.dwLocalPort)) != port) continue;
        if (row.dwState != MIB_TCP_STATE_LISTEN && row.dwState != MIB_TCP_STATE_CLOSED) continue;
        TcpPortSocket socket;
        socket.address = addressText(row);
        socket.listening = row.dwState == MIB_TCP_STATE_LISTEN;
        socket.ownerPid = static_cast<std::int64_t>(row.dwOwningPid);
        out.push_back(std::move(socket));
    }
}

} // namespace

std::vector<TcpPortSocket> tcpPortSockets(int port) {
    std::vector<TcpPortSocket> out;
    scanTable<MIB_TCPTABLE_OWNER_PID, MIB_TCPROW_OWNER_PID>(AF_INET, port, out);
    scanTable<MIB_TCP6TABLE_OWNER_PID, MIB_TCP6ROW_OWNER_PID>(AF_INET6, port, out);
    return out;
}

} // namespace ddpdesk::os
