#include "train/loopback_listener.h"

namespace ddpdesk::train {

// c10d takes an int descriptor; a Winsock SOCKET is not one, so Windows keeps c10d's own listener.
int listenOnLoopback(const std::string&, std::uint16_t, std::string* error) {
    *error = "handing a listening socket to c10d is not supported on Windows";
    return -1;
}

} // namespace ddpdesk::train
