#pragma once

// The processes of one run that end together, without Qt so the Windows half runs under wine in the Qt-free
// tests (tests/wine). Windows: one Job Object with KILL_ON_JOB_CLOSE; a process assigned to it before it runs
// (created suspended) brings everything it starts, and closing the job - also by a crash of the launcher -
// ends them all. POSIX: the process group of each adopted process (the process made itself a group leader
// before exec, so its children share the group); a crashed launcher is covered by the parent-death signal
// ProcessGuard sets, not here. OS calls in process_job_posix.cpp / process_job_win.cpp.

#include <cstdint>
#include <memory>

namespace ddpdesk::launch {

class ProcessJob {
public:
    ProcessJob();
    ~ProcessJob(); // Windows: closing the job ends every process still in it; POSIX: nothing
    ProcessJob(const ProcessJob&) = delete;
    ProcessJob& operator=(const ProcessJob&) = delete;

    // Makes a started process a member (POSIX: `pid` leads its own process group). False when the OS refused.
    bool adopt(std::int64_t pid);
    // A process created suspended (Windows: CREATE_SUSPENDED, its first thread `threadId`) joins the job and
    // only then runs, so whatever it starts at once is born inside the job. False when the job refused it;
    // the thread is resumed either way (a worker left suspended would hang the run) and *resumed says whether
    // that worked. POSIX has no suspended start (the process leads its group before exec): adopt(pid).
    bool adoptAndResume(std::int64_t pid, std::int64_t threadId, bool* resumed = nullptr);
    // Whether any process of the job still runs: an adopted one or anything it started.
    bool anyRunning();
    // Stops what runs. force=false asks politely (SIGTERM) and returns false where the OS has no polite stop
    // for a whole tree (Windows); force=true ends them (SIGKILL / TerminateJobObject). orphansOnly: only what
    // adopted processes that already exited left running; Windows cannot tell those apart from running
    // members, so there a forced stop of orphans ends the whole job.
    bool stop(bool force, bool orphansOnly);
    // After every adopted process has exited: whatever they left running is asked to stop, then ended after
    // graceMs at most. Blocks for up to graceMs.
    void endLeftovers(int graceMs);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace ddpdesk::launch
