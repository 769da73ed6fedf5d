#pragma once

// Which process holds a port or a file: the OS-specific evidence behind PORT_IN_USE and FILESTORE_LOCKED.
// Implemented in os_probes_posix.cpp (Linux /proc) and os_probes_win.cpp (IP Helper + Restart Manager).
// All calls are best effort and bounded: an empty answer means "no holder seen", never an exception.

#include "os/process.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace ddpdesk::doctor::os {

struct ProcessRef {
    std::int64_t pid = 0;
    std::string name; // short process name (e.g. "python3"), empty when it could not be read
    std::string how;  // "listening", "bound", "lock", "open", "command line"
};

// Processes with a TCP socket bound to `port` (listening or merely bound), any local address.
std::vector<ProcessRef> portHolders(int port);

// The local addresses (numeric: "0.0.0.0", "::", "192.168.1.5", "127.0.0.1") of the sockets listening on
// `port`, each once. A wildcard or non-loopback address means the port is reachable from other machines.
std::vector<std::string> listenAddresses(int port);

// Processes that hold `path` open or locked right now (other than this process).
std::vector<ProcessRef> fileHolders(const std::filesystem::path& path);

// Processes whose command line mentions `text` (Linux only; Windows returns none). Catches ranks that re-open
// a FileStore for each operation and so rarely hold it open at the instant we look.
std::vector<ProcessRef> processesMentioning(const std::string& text);

// Process facts come from core/os, the one home of each (the doctor's code names them os::processAlive).
using ddpdesk::os::currentPid;
using ddpdesk::os::processAlive;
using ddpdesk::os::processName;

} // namespace ddpdesk::doctor::os
