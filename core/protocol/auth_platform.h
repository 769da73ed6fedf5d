#pragma once

// The OS-dependent parts of the run secret and of loopback-only runs (auth_platform_posix.cpp / _win.cpp).

#include <string>

namespace ddpdesk::protocol {

// Empty when `path` is a regular file only its owner can read; else why not, naming the path and the fix.
std::string secretFileProblem(const std::string& path);

// The loopback interface name Gloo (GLOO_SOCKET_IFNAME) accepts; empty where there is none to name (Windows).
std::string loopbackInterfaceName();

} // namespace ddpdesk::protocol
