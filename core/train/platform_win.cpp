#include "train/platform.h"

#include <thread>

#include <winsock2.h>
#include <windows.h>

namespace ddpdesk::train {

std::string hostName() {
    char name[MAX_COMPUTERNAME_LENGTH + 1] = {};
    DWORD size = sizeof(name);
    if (!GetComputerNameA(name, &size))
        return "localhost";
    return std::string(name, size);
}

std::int64_t processId() { return static_cast<std::int64_t>(GetCurrentProcessId()); }

int logicalCores() {
    unsigned n = std::thread::hardware_concurrency();
    return n > 0 ? static_cast<int>(n) : 1;
}

// The Windows heap keeps freed blocks of the process for reuse by itself; nothing to tune.
void keepFreedMemory() {}

} // namespace ddpdesk::train
