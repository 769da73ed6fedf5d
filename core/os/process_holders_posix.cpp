// Linux side of process_holders.h, read from /proc: sockets.h's TCP table maps a port to socket inodes,
// /proc/<pid>/fd maps inodes and files to processes, /proc/locks lists flock/fcntl locks (FileStore takes
// flock for each operation).

#include "os/process.h"
#include "os/process_holders.h"
#include "os/sockets.h"

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace ddpdesk::os {

namespace {

template <typename Fn> void forEachPid(Fn fn) {
    DIR* proc = ::opendir("/proc");
    if (!proc) return;
    while (dirent* e = ::readdir(proc)) {
        char* end = nullptr;
        long pid = std::strtol(e->d_name, &end, 10);
        if (end && *end == '\0' && pid > 0) fn(static_cast<std::int64_t>(pid));
    }
    ::closedir(proc);
}

// Calls fn(fdPath, linkTarget) for each open descriptor of pid; stops early when fn returns true.
template <typename Fn> bool forEachFd(std::int64_t pid, Fn fn) {
    std::string dir = "/proc/" + std::to_string(pid) + "/fd";
    DIR* d = ::opendir(dir.c_str());
    if (!d) return false;
    bool hit = false;
    while (!hit) {
        dirent* e = ::readdir(d);
        if (!e) break;
        if (e->d_name[0] == '.') continue;
        std::string fdPath = dir + "/" + e->d_name;
        char target[512];
        ssize_t n = ::readlink(fdPath.c_str(), target, sizeof target - 1);
        if (n <= 0) continue;
        target[n] = '\0';
        hit = fn(fdPath, std::string(target));
    }
    ::closedir(d);
    return hit;
}

void addUnique(std::vector<ProcessRef>& out, std::int64_t pid, const std::string& how) {
    for (const auto& p : out)
        if (p.pid == pid) return;
    out.push_back({pid, processName(pid), how});
}

} // namespace

std::vector<ProcessRef> portHolders(int port) {
    std::map<std::string, std::string> inodes; // "socket:[inode]", as /proc/<pid>/fd links name it -> how
    for (const auto& socket : tcpPortSockets(port))
        if (socket.inode != 0)
            inodes["socket:[" + std::to_string(socket.inode) + "]"] =
                socket.listening ? "listening" : "bound";
    std::vector<ProcessRef> out;
    if (inodes.empty()) return out;
    const auto self = currentPid();
    forEachPid([&](std::int64_t pid) {
        if (pid == self) return;
        std::string how;
        forEachFd(pid, [&](const std::string&, const std::string& target) {
            auto it = inodes.find(target);
            if (it == inodes.end()) return false;
            how = it->second;
            return true;
        });
        if (!how.empty()) addUnique(out, pid, how);
    });
    return out;
}

std::vector<ProcessRef> fileHolders(const std::filesystem::path& path) {
    std::vector<ProcessRef> out;
    struct stat want {};
    if (::stat(path.c_str(), &want) != 0) return out;
    const auto self = currentPid();

    // "1: FLOCK  ADVISORY  WRITE 4321 08:01:1234567 0 EOF" (major:minor in hex, inode in decimal)
    std::ifstream locks("/proc/locks");
    std::string line;
    while (std::getline(locks, line)) {
        std::istringstream fields(line);
        std::string id, kind, mode, access, pidText, devIno;
        fields >> id >> kind;
        if (kind == "->") // a waiter blocked on the lock listed above it
            fields >> kind;
        fields >> mode >> access >> pidText >> devIno;
        unsigned major = 0, minor = 0;
        unsigned long long ino = 0;
        if (std::sscanf(devIno.c_str(), "%x:%x:%llu", &major, &minor, &ino) != 3) continue;
        if (ino != static_cast<unsigned long long>(want.st_ino) || major != major(want.st_dev) ||
            minor != minor(want.st_dev))
            continue;
        std::int64_t pid = std::strtoll(pidText.c_str(), nullptr, 10);
        if (pid > 0 && pid != self) addUnique(out, pid, "lock");
    }

    forEachPid([&](std::int64_t pid) {
        if (pid == self) return;
        bool holds = forEachFd(pid, [&](const std::string& fdPath, const std::string& target) {
            if (target.empty() || target[0] != '/') return false; // sockets, pipes, anon inodes
            struct stat st {};
            return ::stat(fdPath.c_str(), &st) == 0 && st.st_ino == want.st_ino && st.st_dev == want.st_dev;
        });
        if (holds) addUnique(out, pid, "open");
    });
    return out;
}

std::optional<bool> processHoldsFile(std::int64_t pid, const std::filesystem::path& path) {
#ifdef __linux__
    struct stat want {};
    if (pid <= 0 || ::stat(path.c_str(), &want) != 0) return false;
    return forEachFd(pid, [&](const std::string& fdPath, const std::string&) {
        struct stat st {};
        return ::stat(fdPath.c_str(), &st) == 0 && st.st_ino == want.st_ino && st.st_dev == want.st_dev;
    });
#else
    (void)pid;
    (void)path;
    return std::nullopt; // no /proc to ask
#endif
}

std::vector<ProcessRef> processesMentioning(const std::string& text, const std::vector<std::string>& unless) {
    std::vector<ProcessRef> out;
    if (text.empty()) return out;
    const auto self = currentPid();
    forEachPid([&](std::int64_t pid) {
        if (pid == self) return;
        std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline", std::ios::binary);
        std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        // The path must end where an argument ends: /tmp/run/store is not /tmp/run/store2.
        bool named = false;
        for (auto at = cmdline.find(text); at != std::string::npos && !named;
             at = cmdline.find(text, at + 1)) {
            const auto after = at + text.size();
            named = after >= cmdline.size() || cmdline[after] == '\0' || cmdline[after] == ' ' ||
                    cmdline[after] == '"' || cmdline[after] == '\'';
        }
        if (!named) return;
        std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
        for (const auto& word : unless)
            if (cmdline.find(word) != std::string::npos) return;
        if (processAlive(pid)) addUnique(out, pid, "command line");
    });
    return out;
}

} // namespace ddpdesk::os
