#pragma once

// A TCP socket bound to one loopback address and listening, for LibTorch 2.x's
// TCPStoreOptions::masterListenFd: c10d's own server binds every interface (loopback_listener_posix.cpp /
// _win.cpp).

#include <cstdint>
#include <string>

namespace ddpdesk::train {

// The listening socket's descriptor, or -1 with *error (the OS's words, e.g. "Address already in use").
int listenOnLoopback(const std::string& address, std::uint16_t port, std::string* error);

} // namespace ddpdesk::train
