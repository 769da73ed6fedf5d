// launch.process_job (Linux) and wine.process_job (the same file built with mingw-w64, run under wine): the
// processes of a run end together. A helper tree - this program started as a child that starts a grandchild
// - is adopted by a ProcessJob and stopped as a whole; orphans a finished child left are found; on Windows,
// closing the job (its holder exiting without any cleanup, as a crashed launcher would) ends every member.
// Exit codes and arguments with spaces, quotes and backslashes come through CreateProcess unchanged.
#include "mini_test.h"
#include "os/process.h"
#include "os/process_job.h"
#include "subprocess.h"
#include "temp_dir.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#ifdef _WIN32
#include <windows.h>
#endif

using namespace ddpdesk;
using namespace ddpdesk::testsupport;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

bool waitForFile(const fs::path& path, std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    while (!fs::exists(path)) {
        if (Clock::now() > deadline) return false;
        std::this_thread::sleep_for(20ms);
    }
    return true;
}

// Written to a temporary name and renamed, so a reader never sees half a number.
void writePid(const fs::path& path, std::int64_t pid) {
    {
        std::ofstream out(path.string() + ".tmp");
        out << pid;
    }
    fs::rename(path.string() + ".tmp", path);
}

// Retried until a number is read: under load wine once let the file be seen before it could be opened.
std::int64_t readPid(const fs::path& path) {
    const auto deadline = Clock::now() + 30s;
    for (;;) {
        std::int64_t pid = -1;
        if (fs::exists(path)) {
            std::ifstream in(path);
            in >> pid;
        }
        if (pid > 0 || Clock::now() > deadline) return pid;
        std::this_thread::sleep_for(20ms);
    }
}

bool goneWithin(std::int64_t pid, std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    while (os::processAlive(pid)) {
        if (Clock::now() > deadline) return false;
        std::this_thread::sleep_for(20ms);
    }
    return true;
}

// The helper modes (argv[1]) this program runs as when a case starts it.
int sleeper() {
    std::this_thread::sleep_for(60s);
    return 0;
}

// Waits for DIR/go (so the parent has adopted it first: on Windows only a process already in the job brings
// its children), starts a sleeping grandchild in its own process group, writes DIR/grandchild.pid, then
// sleeps - or, with `orphan`, exits at once without ending the grandchild.
int tree(const fs::path& dir, bool orphan) {
    if (!waitForFile(dir / "go", 30s)) return 4;
    static Subprocess grandchild; // static: never killed by a destructor, the cases decide its end
    grandchild.setOwnProcessGroup(false);
    if (!grandchild.start(currentExecutable(), {"--sleep"})) return 5;
    writePid(dir / "grandchild.pid", grandchild.pid());
    if (orphan) std::_Exit(0);
    std::this_thread::sleep_for(60s);
    return 0;
}

// Starts a sleeping grandchild at once (no waiting for DIR/go), writes DIR/grandchild.pid, then sleeps: only
// a start that joins the job before the process runs brings that grandchild into the job.
int treeAtOnce(const fs::path& dir) {
    static Subprocess grandchild;
    grandchild.setOwnProcessGroup(false);
    if (!grandchild.start(currentExecutable(), {"--sleep"})) return 5;
    writePid(dir / "grandchild.pid", grandchild.pid());
    std::this_thread::sleep_for(60s);
    return 0;
}

// Holds a job with a tree in it and exits without any cleanup, as a crashed launcher would.
int jobHolder(const fs::path& dir) {
    static launch::ProcessJob job;
    static Subprocess child;
    if (!child.start(currentExecutable(), {"--tree", dir.string()})) return 5;
    if (!job.adopt(child.pid())) return 6;
    std::ofstream(dir / "go").close();
    if (readPid(dir / "grandchild.pid") <= 0) return 7;
    writePid(dir / "child.pid", child.pid());
    std::_Exit(0);
}

int printArguments(int argc, char** argv) {
    for (int i = 2; i < argc; ++i) {
        std::string hex;
        for (unsigned char c : std::string(argv[i])) {
            char two[3];
            std::snprintf(two, sizeof two, "%02x", c);
            hex += two;
        }
        std::printf("[%s]\n", hex.c_str());
    }
    return 0;
}

// A child tree adopted by `job`: the child's pid (via `child`) and the grandchild's.
std::int64_t startTree(launch::ProcessJob& job, Subprocess& child, const fs::path& dir, bool orphan) {
    if (!child.start(currentExecutable(), {orphan ? "--orphan" : "--tree", dir.string()})) {
        std::fprintf(stderr, "cannot start the helper: %s\n", child.startError().c_str());
        return -1;
    }
    // wine refused AssignProcessToJobObject once in CI for a child that had just started (the product adopts
    // a worker created suspended, which is done starting); a short retry covers that.
    bool adopted = job.adopt(child.pid());
    for (int attempt = 0; !adopted && attempt < 50; ++attempt) {
        std::this_thread::sleep_for(20ms);
        adopted = job.adopt(child.pid());
    }
    if (!adopted) {
        std::fprintf(stderr, "the job did not adopt pid %lld\n", static_cast<long long>(child.pid()));
        return -1;
    }
    std::ofstream(dir / "go").close();
    return readPid(dir / "grandchild.pid");
}

// A child that started a grandchild and exited, leaving it behind in the job; the grandchild's pid, or -1.
std::int64_t startOrphan(launch::ProcessJob& job, Subprocess& child, const fs::path& dir) {
    const std::int64_t grandchild = startTree(job, child, dir, true);
    return grandchild > 0 && child.waitFor(10s) && child.exitCode() == 0 ? grandchild : -1;
}

} // namespace

TEST_CASE(forcedStopEndsTheWholeTree) {
    TempDir dir;
    launch::ProcessJob job;
    Subprocess child;
    const std::int64_t grandchild = startTree(job, child, dir.path(), false);
    TEST_REQUIRE_MSG(grandchild > 0, "the helper tree did not start: " + child.stderrText());
    TEST_CHECK(os::processAlive(child.pid()));
    TEST_CHECK(os::processAlive(grandchild));
    TEST_CHECK(job.anyRunning());

    TEST_CHECK(job.stop(true, false));
    TEST_CHECK_MSG(child.waitFor(10s), "the child outlived a forced stop of its job");
    TEST_CHECK_MSG(goneWithin(grandchild, 10s), "the grandchild outlived a forced stop of the job");
    TEST_CHECK(!job.anyRunning());
#ifdef _WIN32
    TEST_CHECK_EQ(child.exitCode(), 1); // TerminateJobObject's exit code
#else
    TEST_CHECK_EQ(child.exitCode(), -1); // ended by a signal
#endif
}

TEST_CASE(politeStopReachesTheTreeWhereTheOsHasOne) {
    TempDir dir;
    launch::ProcessJob job;
    Subprocess child;
    const std::int64_t grandchild = startTree(job, child, dir.path(), false);
    TEST_REQUIRE(grandchild > 0);
#ifdef _WIN32
    // No polite signal reaches a tree on Windows: stop() says so and leaves it running.
    TEST_CHECK(!job.stop(false, false));
    TEST_CHECK(!child.waitFor(300ms));
    TEST_CHECK(os::processAlive(grandchild));
    TEST_CHECK(job.stop(true, false));
#else
    TEST_CHECK(job.stop(false, false));  // SIGTERM to the group: neither helper handles it
#endif
    TEST_CHECK(child.waitFor(10s));
    TEST_CHECK(goneWithin(grandchild, 10s));
}

TEST_CASE(orphansOfAFinishedChildAreFoundAndEnded) {
    TempDir dir;
    launch::ProcessJob job;
    Subprocess child;
    const std::int64_t grandchild = startOrphan(job, child, dir.path());
    TEST_REQUIRE_MSG(grandchild > 0,
                     "the helper tree did not start or its child failed: " + child.stderrText());
    TEST_CHECK(os::processAlive(grandchild));
    TEST_CHECK_MSG(job.anyRunning(), "the job lost the orphan its finished child left");
#ifndef _WIN32
    // A running member's group is not an orphan: orphansOnly leaves it alone (Windows cannot tell them
    // apart).
    TempDir other;
    Subprocess running;
    const std::int64_t runningGrandchild = startTree(job, running, other.path(), false);
    TEST_REQUIRE(runningGrandchild > 0);
#endif
    TEST_CHECK(job.stop(true, true));
    TEST_CHECK_MSG(goneWithin(grandchild, 10s), "a forced stop of orphans left the orphan running");
#ifndef _WIN32
    TEST_CHECK(!running.waitFor(300ms));
    TEST_CHECK(os::processAlive(runningGrandchild));
    job.stop(true, false);
    TEST_CHECK(running.waitFor(10s));
    TEST_CHECK(goneWithin(runningGrandchild, 10s));
#endif
}

TEST_CASE(leftoversEndWithinTheGrace) {
    TempDir dir;
    launch::ProcessJob job;
    Subprocess child;
    const std::int64_t grandchild = startOrphan(job, child, dir.path());
    TEST_REQUIRE(grandchild > 0);
    const auto started = Clock::now();
    job.endLeftovers(5000);
    TEST_CHECK(goneWithin(grandchild, 5s));
    TEST_CHECK_MSG(Clock::now() - started < 20s, "endLeftovers overran its grace by far");
    TEST_CHECK(!job.anyRunning());
}

#ifdef _WIN32
TEST_CASE(closingTheJobEndsItsProcesses) {
    TempDir dir;
    const ProgramResult holder = runProgram(currentExecutable(), {"--job-holder", dir.path().string()}, 60s);
    TEST_REQUIRE_MSG(holder.finished && holder.exitCode == 0,
                     "the job holder failed (" + std::to_string(holder.exitCode) + "): " + holder.err);
    const std::int64_t child = readPid(dir.path() / "child.pid");
    const std::int64_t grandchild = readPid(dir.path() / "grandchild.pid");
    TEST_REQUIRE(child > 0 && grandchild > 0);
    TEST_CHECK_MSG(goneWithin(child, 10s), "the child outlived its job's last handle (KILL_ON_JOB_CLOSE)");
    TEST_CHECK_MSG(goneWithin(grandchild, 10s), "the grandchild outlived its job's last handle");
}

// The launcher's start of a worker (process_control_win.cpp): created suspended, adopted, resumed. The
// suspended process runs nothing until it is in the job, and what it starts at once belongs to the job too.
TEST_CASE(aSuspendedStartBringsItsChildrenIntoTheJob) {
    TempDir dir;
    const std::string line = "\"" + currentExecutable() + "\" --tree-now \"" + dir.path().string() + "\"";
    std::wstring wide(static_cast<std::size_t>(MultiByteToWideChar(CP_UTF8, 0, line.c_str(), -1, nullptr, 0)),
                      L'\0');
    MultiByteToWideChar(CP_UTF8, 0, line.c_str(), -1, wide.data(), int(wide.size()));
    STARTUPINFOW si = {};
    si.cb = sizeof si;
    PROCESS_INFORMATION pi = {};
    TEST_REQUIRE_MSG(CreateProcessW(nullptr, wide.data(), nullptr, nullptr, FALSE,
                                    CREATE_SUSPENDED | CREATE_NEW_PROCESS_GROUP, nullptr, nullptr, &si, &pi),
                     "CreateProcessW failed: " + std::to_string(GetLastError()));
    struct Handles {
        PROCESS_INFORMATION& pi;
        ~Handles() {
            TerminateProcess(pi.hProcess, 1);
            CloseHandle(pi.hThread);
            CloseHandle(pi.hProcess);
        }
    } handles{pi};
    std::this_thread::sleep_for(500ms);
    TEST_CHECK_MSG(!fs::exists(dir.path() / "grandchild.pid"),
                   "the suspended process ran before it was resumed");

    launch::ProcessJob job;
    bool resumed = false;
    TEST_REQUIRE(job.adoptAndResume(std::int64_t(pi.dwProcessId), std::int64_t(pi.dwThreadId), &resumed));
    TEST_REQUIRE(resumed);
    const std::int64_t grandchild = readPid(dir.path() / "grandchild.pid");
    TEST_REQUIRE_MSG(grandchild > 0, "the resumed process did not start its child");
    TEST_CHECK(job.anyRunning());
    TEST_CHECK(job.stop(true, false));
    TEST_CHECK_MSG(goneWithin(std::int64_t(pi.dwProcessId), 10s),
                   "the adopted process outlived the job's stop");
    TEST_CHECK_MSG(goneWithin(grandchild, 10s), "the child it started at once was not in the job");
}
#endif

TEST_CASE(exitCodesComeBack) {
    for (int code : {0, 3, 2, 255}) {
        const ProgramResult r = runProgram(currentExecutable(), {"--exit", std::to_string(code)}, 30s);
        TEST_CHECK(r.finished);
        TEST_CHECK_EQ(r.exitCode, code);
    }
}

TEST_CASE(argumentsRoundTrip) {
    const std::vector<std::string> args = {"plain",
                                           "with space",
                                           "",
                                           "quote\"inside",
                                           "\"quoted\"",
                                           "trailing backslash\\",
                                           "C:\\Program Files\\DDP Desk\\",
                                           "\\\\server\\share\\store file",
                                           "a\\\\\"b",
                                           "tab\there",
                                           "--store=file:C:\\runs\\my run\\store"};
    std::vector<std::string> call = {"--argv"};
    call.insert(call.end(), args.begin(), args.end());
    const ProgramResult r = runProgram(currentExecutable(), call, 30s);
    TEST_REQUIRE_MSG(r.finished && r.exitCode == 0, r.err);
    std::string expected;
    for (const std::string& a : args) {
        expected += "[";
        for (unsigned char c : a) {
            char two[3];
            std::snprintf(two, sizeof two, "%02x", c);
            expected += two;
        }
        expected += "]\n";
    }
    std::string got = r.out;
    got.erase(std::remove(got.begin(), got.end(), '\r'), got.end());
    TEST_CHECK_EQ(got, expected);
}

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "--sleep") return sleeper();
    if (mode == "--tree" && argc > 2) return tree(argv[2], false);
    if (mode == "--orphan" && argc > 2) return tree(argv[2], true);
    if (mode == "--tree-now" && argc > 2) return treeAtOnce(argv[2]);
    if (mode == "--job-holder" && argc > 2) return jobHolder(argv[2]);
    if (mode == "--exit" && argc > 2) return std::atoi(argv[2]);
    if (mode == "--argv") return printArguments(argc, argv);
    return runAll(argc, argv);
}
