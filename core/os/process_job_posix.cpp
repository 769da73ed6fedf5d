// POSIX side of process_job.h: the process group of each adopted process (its pid is the group id).
#include "os/process.h"
#include "os/process_job.h"

#include <algorithm>
#include <map>
#include <vector>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <dirent.h>
#include <unistd.h>

namespace ddpdesk::launch {

struct ProcessJob::Impl {
    std::vector<pid_t> groups; // one per process ever adopted

    // Groups with a member left, each with whether its leader (the adopted process) still runs. A group
    // outlives its leader while a child of the leader lives; one with no member left is forgotten, so that
    // its id, once reused by some other process, is never signalled.
    std::map<pid_t, bool> liveGroups();
};

namespace {

#ifdef __linux__
// Process group -> whether its leader runs, for groups with a running member in our own session: adopted
// processes never leave it (setpgid keeps the session), while an unrelated process that got a reused id is
// almost always elsewhere.
std::map<pid_t, bool> groupsInOurSession() {
    std::map<pid_t, bool> out;
    const pid_t session = getsid(0);
    DIR* proc = opendir("/proc");
    if (!proc) return out;
    while (dirent* entry = readdir(proc)) {
        if (entry->d_name[0] < '1' || entry->d_name[0] > '9') continue;
        const std::int64_t pid = std::atoll(entry->d_name);
        const os::ProcStat stat = os::readProcStat(pid);
        if (!stat.valid || stat.session != session || stat.exited()) continue;
        bool& leaderRuns = out[pid_t(stat.processGroup)];
        leaderRuns = leaderRuns || pid == stat.processGroup;
    }
    closedir(proc);
    return out;
}
#endif

} // namespace

std::map<pid_t, bool> ProcessJob::Impl::liveGroups() {
#ifdef __linux__
    const std::map<pid_t, bool> ours = groupsInOurSession();
#endif
    std::map<pid_t, bool> live;
    std::vector<pid_t> kept;
    for (pid_t group : groups) {
#ifdef __linux__
        const auto it = ours.find(group);
        if (it == ours.end()) continue;
        live[group] = it->second;
#else
        if (::kill(-group, 0) != 0 && errno == ESRCH) continue;
        live[group] = ::kill(group, 0) == 0;
#endif
        kept.push_back(group);
    }
    groups = kept;
    return live;
}

ProcessJob::ProcessJob() : d(std::make_unique<Impl>()) {}
ProcessJob::~ProcessJob() = default;

bool ProcessJob::adopt(std::int64_t pid) {
    if (pid <= 0) return false;
    // The child made itself a group leader before exec; doing it here too closes the window in which a stop
    // could find no group yet (EACCES once the child has exec'd is expected and harmless).
    setpgid(pid_t(pid), pid_t(pid));
    if (std::find(d->groups.begin(), d->groups.end(), pid_t(pid)) == d->groups.end())
        d->groups.push_back(pid_t(pid));
    return getpgid(pid_t(pid)) == pid_t(pid);
}

bool ProcessJob::adoptAndResume(std::int64_t pid, std::int64_t, bool* resumed) {
    if (resumed) *resumed = true; // never suspended here
    return adopt(pid);
}

bool ProcessJob::anyRunning() {
    return !d->liveGroups().empty();
}

bool ProcessJob::stop(bool force, bool orphansOnly) {
    for (const auto& [group, leaderRuns] : d->liveGroups())
        if (!(orphansOnly && leaderRuns)) ::kill(-group, force ? SIGKILL : SIGTERM);
    return true;
}

} // namespace ddpdesk::launch
