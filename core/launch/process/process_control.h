#pragma once

// The OS side of supervision behind one portable interface: child processes that cannot outlive the launcher
// (POSIX: own process group + parent-death signal; Windows: a kill-on-close Job Object), whole-tree
// terminate/kill, and Ctrl-C delivered to the Qt event loop. Implemented in process_control_posix.cpp /
// process_control_win.cpp.

#include <QString>

#include <functional>
#include <memory>

class QProcess;

namespace ddpdesk::launch {

class ProcessGuard {
public:
    ProcessGuard();
    ~ProcessGuard(); // Windows: closing the job kills every process still in it
    ProcessGuard(const ProcessGuard&) = delete;
    ProcessGuard& operator=(const ProcessGuard&) = delete;

    void prepare(QProcess& process);   // before start()
    void adopt(QProcess& process);     // right after the process started
    void terminate(QProcess& process); // polite stop of the process and its children
    void kill(QProcess& process);      // forced stop of the process and its children

    // What ranks that already exited left running (a --script rank's subprocesses): POSIX signals the process
    // group of every rank whose own process is gone; Windows can only end them with the Job Object
    // (terminateOrphans does nothing there, killOrphans ends the whole job). terminate()/kill() cover running
    // ranks.
    void terminateOrphans();
    void killOrphans();
    // After every rank has exited: whatever they left running is stopped, politely first where the OS allows,
    // forcibly after graceMs at most. Blocks for up to graceMs.
    void endLeftovers(int graceMs);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

// Calls handler (on the Qt event loop thread) on Ctrl-C / SIGINT / SIGTERM. A second Ctrl-C while the first
// is being handled exits at once with status 130. Call once, after the QCoreApplication exists.
void installInterruptHandler(std::function<void()> handler);

// Human text for how a process ended: "exit code 3" / "killed by signal 9 (SIGKILL)".
QString describeExit(int exitCode, bool crashed);

// Whether an exit is explained by our own stop: stage 1 = terminate sent, 2 = kill sent (0: not signalled).
// A signal we did not send (someone's SIGKILL, a SIGSEGV) is a failure even while stopping.
bool exitCausedByStop(int stage, int exitCode, bool crashed);

// Asks a script rank's Python to append every thread's stack to `stacksFile` (stack_dump.h). POSIX: SIGUSR1,
// sent only where the process holds that file open (on Linux checked through /proc, so a reused pid is never
// signalled; elsewhere the caller's announcement check is all). Windows: creates `requestFile`, which the
// rank's watcher thread takes away. False when the process could not be asked.
bool requestPythonStacks(qint64 pid, const QString& stacksFile, const QString& requestFile);

} // namespace ddpdesk::launch
