// The OS-independent parts of os_probes.h: what core/os's TCP table already answers the same way everywhere.

#include "doctor/os_probes.h"
#include "os/sockets.h"

#include <algorithm>

namespace ddpdesk::doctor::os {

std::vector<std::string> listenAddresses(int port) {
    std::vector<std::string> out;
    for (const auto& socket : ddpdesk::os::tcpPortSockets(port))
        if (socket.listening && !socket.address.empty() &&
            std::find(out.begin(), out.end(), socket.address) == out.end())
            out.push_back(socket.address);
    return out;
}

} // namespace ddpdesk::doctor::os
