#include "os/process.h"

#include <cerrno>
#include <csignal>
#include <fstream>
#include <unistd.h>

namespace ddpdesk::os {

bool processAlive(std::int64_t pid) {
    if (pid <= 0) return false;
    if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno != EPERM) return false;
#ifdef __linux__
    // kill() succeeds on a zombie; its state letter in /proc says it is gone.
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (std::getline(stat, line)) {
        const std::size_t close = line.rfind(')'); // the name may hold spaces and parentheses
        if (close != std::string::npos && close + 2 < line.size())
            return line[close + 2] != 'Z' && line[close + 2] != 'X';
    }
#endif
    return true;
}

std::int64_t currentPid() {
    return ::getpid();
}

std::string processName(std::int64_t pid) {
    std::ifstream comm("/proc/" + std::to_string(pid) + "/comm"); // Linux; elsewhere empty
    std::string name;
    std::getline(comm, name);
    return name;
}

} // namespace ddpdesk::os
