// POSIX side of sockets.h: Linux's /proc/net/tcp{,6}; elsewhere there is no such table and the answer is
// empty.

#include "os/sockets.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace ddpdesk::os {

namespace {

// /proc/net/tcp prints an address as the 32-bit words of its network-order bytes, each with %08X of the
// machine's own word: copy the words back as they were.
std::string procAddress(const std::string& hex) {
    if (hex.size() != 8 && hex.size() != 32) return {};
    unsigned char bytes[16] = {0};
    for (std::size_t word = 0; word < hex.size() / 8; ++word) {
        const auto value =
            static_cast<std::uint32_t>(std::strtoul(hex.substr(word * 8, 8).c_str(), nullptr, 16));
        std::memcpy(bytes + word * 4, &value, 4);
    }
    char text[INET6_ADDRSTRLEN] = {0};
    if (!::inet_ntop(hex.size() == 8 ? AF_INET : AF_INET6, bytes, text, sizeof text)) return {};
    return text;
}

} // namespace

std::vector<TcpPortSocket> tcpPortSockets(int port) {
    std::vector<TcpPortSocket> out;
    for (const char* table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
        std::ifstream in(table);
        std::string line;
        std::getline(in, line); // header
        while (std::getline(in, line)) {
            std::istringstream fields(line);
            std::string sl, local, remote, state, queues, timer, retr, uid, timeout, inode;
            fields >> sl >> local >> remote >> state >> queues >> timer >> retr >> uid >> timeout >> inode;
            const auto colon = local.rfind(':');
            if (colon == std::string::npos) continue;
            if (std::strtol(local.substr(colon + 1).c_str(), nullptr, 16) != port) continue;
            // The states that own the port: LISTEN (0A) and bound-but-idle (07, CLOSE).
            if (state != "0A" && state != "07") continue;
            TcpPortSocket socket;
            socket.address = procAddress(local.substr(0, colon));
            socket.listening = state == "0A";
            socket.inode = std::strtoull(inode.c_str(), nullptr, 10);
            out.push_back(std::move(socket));
        }
    }
    return out;
}

} // namespace ddpdesk::os
