#pragma once

// The TCP sockets that own a local port, as the OS's own table lists them: the doctor reads who holds a port
// (PORT_IN_USE) and where it listens (reachable from other machines?) from this one reader. Linux reads
// /proc/net/tcp and /proc/net/tcp6 (sockets_posix.cpp), Windows IP Helper's GetExtendedTcpTable
// (sockets_win.cpp); each names the owner its own way, see TcpPortSocket.

#include <cstdint>
#include <string>
#include <vector>

namespace ddpdesk::os {

struct TcpPortSocket {
    std::string address;    // local address, numeric ("0.0.0.0", "::1"); empty when it could not be read
    bool listening = false; // false: bound but neither listening nor connected
    // Windows' table names the owning process; Linux's names the socket's inode, which the owner's
    // /proc/<pid>/fd shows as a link to "socket:[inode]". 0 where the table does not say.
    std::int64_t ownerPid = 0;
    std::uint64_t inode = 0;
};

// The sockets (IPv4, then IPv6) whose local port is `port` and that own it: listening, or bound but idle. An
// outgoing connection that happens to use the number as its ephemeral port is none of them: it does not keep
// a listener from binding. Empty where the table cannot be read.
std::vector<TcpPortSocket> tcpPortSockets(int port);

} // namespace ddpdesk::os
