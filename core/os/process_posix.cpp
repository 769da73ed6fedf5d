#include "os/process.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace ddpdesk::os {

bool processAlive(std::int64_t pid) {
    if (pid <= 0) return false;
    if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno != EPERM) return false;
    // kill() succeeds on a zombie; its state letter in /proc (Linux) says it is gone.
    const ProcStat stat = readProcStat(pid);
    return !(stat.valid && stat.exited());
}

std::int64_t currentPid() {
    return ::getpid();
}

ProcStat readProcStat(std::int64_t pid) {
    ProcStat out;
    std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!file || !std::getline(file, line)) return out;
    out.found = true;
    const std::size_t close = line.rfind(')'); // the name (field 2) may hold spaces and parentheses
    if (close == std::string::npos) return out;
    std::istringstream in(line.substr(close + 1));
    std::vector<std::string> fields; // fields[0] is field 3 of proc(5)
    for (std::string token; in >> token;)
        fields.push_back(token);
    if (fields.size() < 20 || fields[0].size() != 1) return out;
    const auto field = [&](int number) { return fields[std::size_t(number - 3)].c_str(); };
    out.state = fields[0][0];
    out.parentPid = std::strtoll(field(4), nullptr, 10);
    out.processGroup = std::strtoll(field(5), nullptr, 10);
    out.session = std::strtoll(field(6), nullptr, 10);
    out.userTicks = std::strtoull(field(14), nullptr, 10);
    out.systemTicks = std::strtoull(field(15), nullptr, 10);
    out.startTicks = std::strtoull(field(22), nullptr, 10);
    out.valid = true;
    return out;
}

std::string processName(std::int64_t pid) {
    std::ifstream comm("/proc/" + std::to_string(pid) + "/comm"); // Linux; elsewhere empty
    std::string name;
    std::getline(comm, name);
    return name;
}

} // namespace ddpdesk::os
