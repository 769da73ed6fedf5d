#pragma once

// Runs a child program for the Qt-free tests: arguments passed without a shell, environment = this process's
// plus changes, stdout and stderr captured in full, every wait bounded by a deadline and a child still
// running at the deadline killed. Each Subprocess drains its pipes on its own threads, so several can run at
// once (the ranks of a multi-rank job) without one filling a pipe while the test waits on another. The OS
// calls live in subprocess_posix.cpp / subprocess_win.cpp.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace ddpdesk::testsupport {

// One change to the inherited environment: a value sets (an empty value sets an empty variable), nullopt
// removes.
using EnvChange = std::pair<std::string, std::optional<std::string>>;
using EnvChanges = std::vector<EnvChange>;

using Clock = std::chrono::steady_clock;

class Subprocess {
public:
    Subprocess();
    ~Subprocess(); // kills a child still running: a failed test must not leave ranks behind
    Subprocess(const Subprocess&) = delete;
    Subprocess& operator=(const Subprocess&) = delete;

    // Starts `program` (a path, or a name looked up in PATH) with `args`. False with startError() when it
    // could not start; a Subprocess starts at most once.
    bool start(const std::string& program, const std::vector<std::string>& args, const EnvChanges& env = {});
    // POSIX: the child leads a process group of its own (the default, so kill() reaches what it started), or
    // stays in this process's group, as a tree the caller groups itself. Call before start(); Windows: no-op.
    void setOwnProcessGroup(bool own) { m_ownGroup = own; }

    // Waits until the child exits or `deadline` passes; true once it has exited (also when it had already).
    bool waitUntil(Clock::time_point deadline);
    bool waitFor(std::chrono::milliseconds timeout) { return waitUntil(Clock::now() + timeout); }
    // Kills the child (and, on POSIX, its process group) and reaps it.
    void kill();

    bool started() const { return m_started; }
    bool exited() const { return m_exited; }
    // The exit status of a child that exited normally; -1 while running, after a signal or after kill().
    int exitCode() const { return m_exitCode; }
    // POSIX: the signal that ended the child (SIGTERM...); 0 when it exited normally, runs, or on Windows.
    int termSignal() const { return m_termSignal; }
    const std::string& startError() const { return m_startError; }
    std::int64_t pid() const { return m_pid; }

    // What the child wrote so far (everything, once it exited and its pipes closed).
    std::string stdoutText() const;
    std::string stderrText() const;

private:
    struct Native; // OS handles (subprocess_posix.cpp / subprocess_win.cpp)

    // Copies pipe `which` (1 stdout, 2 stderr) into `into` until end of file, or until the pipe has been
    // quiet for a while after the child is gone: a grandchild that inherited it must not hang the test.
    void readPipe(int which, std::string* into);
    // Called once the child is gone: lets the reader threads finish, joins them and closes the pipes.
    void finishReading();
    void closePipes();

    std::unique_ptr<Native> m_native;
    bool m_started = false;
    bool m_ownGroup = true;
    bool m_exited = false;
    int m_exitCode = -1;
    int m_termSignal = 0;
    std::int64_t m_pid = -1;
    std::string m_startError;

    mutable std::mutex m_mutex; // guards m_out / m_err, written by the reader threads
    std::string m_out;
    std::string m_err;
    std::atomic<bool> m_childGone{false};
    std::thread m_outReader;
    std::thread m_errReader;
};

// The outcome of a program run to completion (runProgram).
struct ProgramResult {
    bool started = false;
    bool finished = false; // exited before the deadline (else it was killed)
    int exitCode = -1;
    std::string out;
    std::string err;
    std::string startError;
};

// Runs a program to completion within `timeout`, killing it at the deadline.
inline ProgramResult runProgram(const std::string& program, const std::vector<std::string>& args,
                                std::chrono::milliseconds timeout, const EnvChanges& env = {});

// The full path of the running program, for tests that start themselves as a helper process.
std::string currentExecutable();

// A TCP port on 127.0.0.1 that nobody listens on right now (bound to 0, read back, released); 0 on failure.
std::uint16_t freeLoopbackPort();

// The parts that need no OS calls.

inline std::string Subprocess::stdoutText() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_out;
}

inline std::string Subprocess::stderrText() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_err;
}

inline void Subprocess::finishReading() {
    m_childGone = true;
    if (m_outReader.joinable()) m_outReader.join();
    if (m_errReader.joinable()) m_errReader.join();
    closePipes();
}

inline ProgramResult runProgram(const std::string& program, const std::vector<std::string>& args,
                                std::chrono::milliseconds timeout, const EnvChanges& env) {
    ProgramResult r;
    Subprocess p;
    r.started = p.start(program, args, env);
    r.startError = p.startError();
    if (r.started) {
        r.finished = p.waitFor(timeout);
        if (!r.finished) p.kill();
        r.exitCode = r.finished ? p.exitCode() : -1;
    }
    r.out = p.stdoutText();
    r.err = p.stderrText();
    return r;
}

} // namespace ddpdesk::testsupport
