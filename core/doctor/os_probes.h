#pragma once

// Which process holds a port or a file: the evidence behind PORT_IN_USE and FILESTORE_LOCKED. The OS answers
// come from core/os (process_holders.h, sockets.h, process.h, rename_aside.h), named here in the doctor's own
// os:: so its checks read os::portHolders; what the doctor makes of them (which addresses are exposed, which
// command lines are its own runs) is here and in os_probes.cpp.

#include "os/process.h"
#include "os/process_holders.h"
#include "os/rename_aside.h"

#include <string>
#include <vector>

namespace ddpdesk::doctor::os {

using ddpdesk::os::fileHolders;
using ddpdesk::os::portHolders;
using ddpdesk::os::ProcessRef;

// The local addresses (numeric: "0.0.0.0", "::", "192.168.1.5", "127.0.0.1") of the sockets listening on
// `port`, each once. A wildcard or non-loopback address means the port is reachable from other machines.
std::vector<std::string> listenAddresses(int port);

// Processes whose command line mentions `text` (Linux only; Windows returns none), less doctor runs and the
// shells that started one: they name the store too but do not use it.
inline std::vector<ProcessRef> processesMentioning(const std::string& text) {
    return ddpdesk::os::processesMentioning(text, {"doctor ", "--inspect-store"});
}

// Process facts and the no-replace rename come from core/os, the one home of each.
using ddpdesk::os::currentPid;
using ddpdesk::os::processAlive;
using ddpdesk::os::processName;
using ddpdesk::os::renameNoReplace;
using ddpdesk::os::RenameStatus;

} // namespace ddpdesk::doctor::os
