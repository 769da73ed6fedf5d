// Windows side of process_control.h: every worker joins one Job Object with KILL_ON_JOB_CLOSE from birth
// (created suspended, assigned, resumed), so closing the launcher (even by a crash) ends all workers and
// their children, and a stop ends the whole tree (TerminateJobObject); workers get their own console process
// group so the launcher, not Ctrl-C, decides when they stop (CTRL_BREAK first, TerminateProcess after the
// grace period).
#include "launch/process/process_control.h"
#include "os/process.h"

#include "os/process_job.h"

#include <QCoreApplication>
#include <QFile>
#include <QMetaObject>
#include <QProcess>

#include <memory>

#include <windows.h>

namespace ddpdesk::launch {

struct ProcessGuard::Impl {
    ProcessJob job;
};

ProcessGuard::ProcessGuard() : d(std::make_unique<Impl>()) {}
ProcessGuard::~ProcessGuard() = default;

void ProcessGuard::prepare(QProcess& process) {
    // The worker is created suspended, joins the job, and only then runs: a child it starts at once (a
    // script's subprocess) is born inside the job too, so TerminateJobObject and closing the job reach it.
    // QProcess fills the PROCESS_INFORMATION this points to; it stays valid while the process runs.
    auto info = std::make_shared<PROCESS_INFORMATION*>(nullptr);
    process.setCreateProcessArgumentsModifier([info](QProcess::CreateProcessArguments* args) {
        args->flags |= CREATE_NEW_PROCESS_GROUP | CREATE_SUSPENDED;
        *info = reinterpret_cast<PROCESS_INFORMATION*>(args->processInformation);
    });
    // Connected here, before any caller's slot, and direct, so the job is joined before anything else reacts
    // to the start. The thread is resumed through its id: whether QProcess still holds the thread handle is
    // its own business, and a worker left suspended would hang the run.
    ProcessJob* job = &d->job;
    QObject::connect(
        &process, &QProcess::started, &process,
        [info, job] {
            PROCESS_INFORMATION* pi = *info;
            if (!pi) return;
            bool resumed = false;
            job->adoptAndResume(std::int64_t(pi->dwProcessId), std::int64_t(pi->dwThreadId), &resumed);
            if (!resumed) ResumeThread(pi->hThread);
        },
        Qt::DirectConnection);
}

void ProcessGuard::adopt(QProcess& process) {
    // Normally already in the job since prepare(); this covers a process started without it.
    d->job.adopt(process.processId());
}

void ProcessGuard::terminate(QProcess& process) {
    if (process.processId() > 0) GenerateConsoleCtrlEvent(CTRL_BREAK_EVENT, DWORD(process.processId()));
}

void ProcessGuard::kill(QProcess& process) {
    process.kill();
}

// Orphans cannot be told apart from running ranks inside the job, and there is no polite signal for a process
// tree on Windows: they end with the job (killOrphans runs in the kill phase, after the ranks had their
// chance).
void ProcessGuard::terminateOrphans() {}

void ProcessGuard::killOrphans() {
    d->job.stop(true, true);
}

void ProcessGuard::endLeftovers(int graceMs) {
    d->job.endLeftovers(graceMs); // no polite stop on Windows: ends at once
}

namespace {

std::function<void()>* g_handler = nullptr;
volatile LONG g_interrupts = 0;

BOOL WINAPI onConsoleCtrl(DWORD type) {
    if (type != CTRL_C_EVENT && type != CTRL_BREAK_EVENT && type != CTRL_CLOSE_EVENT) return FALSE;
    if (InterlockedIncrement(&g_interrupts) > 1) ExitProcess(130); // the job object takes the workers with us
    QMetaObject::invokeMethod(
        QCoreApplication::instance(), [] { (*g_handler)(); }, Qt::QueuedConnection);
    return TRUE;
}

} // namespace

void installInterruptHandler(std::function<void()> handler) {
    if (g_handler) return;
    g_handler = new std::function<void()>(std::move(handler));
    SetConsoleCtrlHandler(onConsoleCtrl, TRUE);
}

QString describeExit(int exitCode, bool crashed) {
    if (crashed)
        return QStringLiteral("crashed (status 0x%1)").arg(quint32(exitCode), 8, 16, QLatin1Char('0'));
    return QCoreApplication::translate("ddpdesk::launch::Supervisor", "exit code %1").arg(exitCode);
}

bool exitCausedByStop(int stage, int, bool) {
    return stage > 0; // Windows exit statuses cannot tell our CTRL_BREAK/TerminateProcess from others
}

bool requestPythonStacks(qint64 pid, const QString&, const QString& requestFile) {
    if (!os::processAlive(pid)) return false;
    QFile request(requestFile); // the rank's watcher thread removes it once it has written its stacks
    return request.open(QIODevice::WriteOnly | QIODevice::NewOnly) || request.exists();
}

} // namespace ddpdesk::launch
