// POSIX side of process_control.h: own process group per worker (so a stop reaches its children too; the
// groups are a ProcessJob), a parent-death signal (Linux) so a crashed launcher leaves nothing behind, and
// SIGINT/SIGTERM via a self-pipe.
#include "launch/process/process_control.h"

#include "os/process_holders.h"
#include "os/process_job.h"

#include <QCoreApplication>
#include <QFile>
#include <QProcess>
#include <QSocketNotifier>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace ddpdesk::launch {

struct ProcessGuard::Impl {
    ProcessJob job; // one process group per rank ever started
};

ProcessGuard::ProcessGuard() : d(std::make_unique<Impl>()) {}
ProcessGuard::~ProcessGuard() = default;

void ProcessGuard::prepare(QProcess& process) {
    const pid_t launcher = getpid();
    process.setChildProcessModifier([launcher] {
        // Runs in the child between fork and exec: only async-signal-safe calls here.
        setpgid(0, 0);
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
        if (getppid() != launcher) // the launcher died before prctl took effect
            _exit(127);
    });
}

void ProcessGuard::adopt(QProcess& process) {
    d->job.adopt(process.processId());
}

void ProcessGuard::terminate(QProcess& process) {
    const qint64 pid = process.processId();
    if (pid <= 0) return;
    if (::kill(-pid_t(pid), SIGTERM) != 0) ::kill(pid_t(pid), SIGTERM);
}

void ProcessGuard::kill(QProcess& process) {
    const qint64 pid = process.processId();
    if (pid <= 0) return;
    if (::kill(-pid_t(pid), SIGKILL) != 0) ::kill(pid_t(pid), SIGKILL);
}

void ProcessGuard::terminateOrphans() {
    d->job.stop(false, true);
}

void ProcessGuard::killOrphans() {
    d->job.stop(true, true);
}

void ProcessGuard::endLeftovers(int graceMs) {
    d->job.endLeftovers(graceMs);
}

namespace {

int g_signalPipe[2] = {-1, -1};
volatile sig_atomic_t g_interrupts = 0;

void onSignal(int) {
    if (++g_interrupts > 1)
        _exit(130); // second Ctrl-C: the user insists; workers die with us through the parent-death signal
    const char c = 1;
    [[maybe_unused]] ssize_t n = write(g_signalPipe[1], &c, 1);
}

} // namespace

void installInterruptHandler(std::function<void()> handler) {
    if (g_signalPipe[0] >= 0 || pipe(g_signalPipe) != 0) return;
    fcntl(g_signalPipe[1], F_SETFL, O_NONBLOCK);
    auto* notifier =
        new QSocketNotifier(g_signalPipe[0], QSocketNotifier::Read, QCoreApplication::instance());
    QObject::connect(notifier, &QSocketNotifier::activated, notifier, [handler] {
        char buf[16];
        [[maybe_unused]] ssize_t n = read(g_signalPipe[0], buf, sizeof buf);
        handler();
    });
    struct sigaction sa = {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

QString describeExit(int exitCode, bool crashed) {
    if (!crashed)
        return QCoreApplication::translate("ddpdesk::launch::Supervisor", "exit code %1").arg(exitCode);
    const char* name = nullptr;
    switch (exitCode) {
    case SIGKILL:
        name = "SIGKILL";
        break;
    case SIGTERM:
        name = "SIGTERM";
        break;
    case SIGSEGV:
        name = "SIGSEGV";
        break;
    case SIGABRT:
        name = "SIGABRT";
        break;
    case SIGINT:
        name = "SIGINT";
        break;
    case SIGBUS:
        name = "SIGBUS";
        break;
    case SIGFPE:
        name = "SIGFPE";
        break;
    case SIGILL:
        name = "SIGILL";
        break;
    case SIGPIPE:
        name = "SIGPIPE";
        break;
    case SIGHUP:
        name = "SIGHUP";
        break;
    default:
        break;
    }
    return name ? QCoreApplication::translate("ddpdesk::launch::Supervisor", "killed by signal %1 (%2)")
                      .arg(exitCode)
                      .arg(QLatin1String(name))
                : QCoreApplication::translate("ddpdesk::launch::Supervisor", "killed by signal %1")
                      .arg(exitCode);
}

bool exitCausedByStop(int stage, int exitCode, bool crashed) {
    if (stage <= 0) return false;
    if (!crashed) return true; // a worker that handles SIGTERM and exits on its own
    return exitCode == SIGTERM || (stage >= 2 && exitCode == SIGKILL);
}

bool requestPythonStacks(qint64 pid, const QString& stacksFile, const QString&) {
    if (pid <= 0) return false;
    // SIGUSR1 ends a process that has no handler for it: only one that holds the stacks file open is asked
    // (where the OS can tell; elsewhere the caller's announcement check is all).
    const std::optional<bool> holds =
        os::processHoldsFile(pid, std::filesystem::path(QFile::encodeName(stacksFile).constData()));
    if (holds && !*holds) return false;
    return ::kill(pid_t(pid), SIGUSR1) == 0;
}

} // namespace ddpdesk::launch
