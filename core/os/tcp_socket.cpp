// The parts of tcp_socket.h that read the same on every OS.

#include "os/tcp_socket.h"

#include <algorithm>

namespace ddpdesk::os {

std::chrono::milliseconds timeLeft(SocketDeadline deadline) {
    using std::chrono::milliseconds;
    const auto now = SocketClock::now();
    if (deadline <= now) return milliseconds(0);
    if (deadline == SocketDeadline::max()) return milliseconds(24LL * 3600 * 1000);
    return std::chrono::ceil<milliseconds>(deadline - now);
}

void addUnique(std::vector<std::string>& addresses, const std::string& address) {
    if (std::find(addresses.begin(), addresses.end(), address) == addresses.end())
        addresses.push_back(address);
}

} // namespace ddpdesk::os
