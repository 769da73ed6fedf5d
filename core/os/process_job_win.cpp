// Windows side of process_job.h: one Job Object with KILL_ON_JOB_CLOSE.
#include "os/process_job.h"

#include <windows.h>

namespace ddpdesk::launch {

struct ProcessJob::Impl {
    HANDLE job = nullptr;
};

ProcessJob::ProcessJob() : d(std::make_unique<Impl>()) {
    d->job = CreateJobObjectW(nullptr, nullptr);
    if (!d->job) return;
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION info = {};
    info.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
    if (!SetInformationJobObject(d->job, JobObjectExtendedLimitInformation, &info, sizeof info)) {
        // A job that would not end its processes with the launcher is no better than none.
        CloseHandle(d->job);
        d->job = nullptr;
    }
}

ProcessJob::~ProcessJob() {
    if (d->job) CloseHandle(d->job);
}

bool ProcessJob::adopt(std::int64_t pid) {
    if (!d->job || pid <= 0) return false;
    HANDLE h = OpenProcess(PROCESS_SET_QUOTA | PROCESS_TERMINATE | PROCESS_QUERY_LIMITED_INFORMATION, FALSE,
                           DWORD(pid));
    if (!h) return false;
    BOOL inJob = FALSE;
    bool ok = IsProcessInJob(h, d->job, &inJob) && inJob;
    if (!ok) ok = AssignProcessToJobObject(d->job, h) != 0;
    CloseHandle(h);
    return ok;
}

bool ProcessJob::adoptAndResume(std::int64_t pid, std::int64_t threadId, bool* resumed) {
    // wine refused AssignProcessToJobObject once for a process that had just started: a short retry.
    bool adopted = adopt(pid);
    for (int attempt = 0; !adopted && attempt < 10; ++attempt) {
        Sleep(10);
        adopted = adopt(pid);
    }
    HANDLE thread = OpenThread(THREAD_SUSPEND_RESUME, FALSE, DWORD(threadId));
    const bool ok = thread && ResumeThread(thread) != DWORD(-1);
    if (thread) CloseHandle(thread);
    if (resumed) *resumed = ok;
    return adopted;
}

bool ProcessJob::anyRunning() {
    JOBOBJECT_BASIC_ACCOUNTING_INFORMATION info = {};
    return d->job &&
           QueryInformationJobObject(d->job, JobObjectBasicAccountingInformation, &info, sizeof info,
                                     nullptr) &&
           info.ActiveProcesses > 0;
}

bool ProcessJob::stop(bool force, bool) {
    // No polite signal reaches a process tree on Windows (CTRL_BREAK goes to one console process group,
    // which ProcessGuard sends to each rank itself).
    if (!force || !d->job) return false;
    return TerminateJobObject(d->job, 1) != 0;
}

} // namespace ddpdesk::launch
