// How gradients travel between ranks on one machine: shared memory (the default when every rank can map it)
// or Gloo. Real worker processes: the choice is agreed by all ranks, a forced choice that cannot be met is a
// clear error, a stalled or vanished peer is reported (never a hang), and no shared-memory name is left
// behind. Plain C++ (the Qt-free harness): registered in both configurations, so the torch2 leg runs it
// against LibTorch 2.6.

#include "worker_harness_std.h"

#include "os/process.h"
#include "os/shared_memory.h"

#include <cstring>
#include <regex>
#include <thread>

#ifndef _WIN32
#include <csignal>
#include <sys/types.h>
#endif

using namespace ddpdesk;
using namespace ddpdesk::traintest;
using ddpdesk::testsupport::Clock;
using ddpdesk::testsupport::Subprocess;
using ddpdesk::testsupport::TempDir;

namespace {

// 200 samples: 2 steps per epoch, quick. `samples` 0 uses the whole data set (100 steps per epoch per rank),
// so a rank frozen at a random moment is almost always frozen mid-step, not in an epoch-end collective over
// Gloo.
Args shortRun(const TempDir& dir, const std::string& steps = "4", int samples = 200) {
    Args args{"--workload",     "autoencoder", "--steps", steps,
              "--telemetry-ms", "0",           "--store", "file:" + dir.filePath("store"),
              "--out",          dir.str()};
    if (samples > 0) args = args + Args{"--limit-samples", std::to_string(samples)};
    return args;
}

Args rankArgs(const Args& common, int rank, int world, const Args& extra = {}) {
    return common + extra + Args{"--rank", std::to_string(rank), "--world-size", std::to_string(world)};
}

std::string transportOf(const RankResult& r) {
    for (const auto& e : r.ofType("rendezvous"))
        if (e.body.value("phase", "") == "done") return e.body.value("grad_transport", "");
    return "";
}

// The shared block's name as the worker logged it ("... shared memory ddpdesk-<token> ...").
std::string loggedBlockName(const RankResult& r) {
    static const std::regex name("shared memory (ddpdesk-[0-9a-f]{16})");
    std::smatch m;
    return std::regex_search(r.stderrText, m, name) ? m[1].str() : std::string();
}

// Waits until the running process has printed an event of this type; false when it exits or time runs out.
bool waitForEvent(Subprocess* p, const char* type, int timeoutMs) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
    while (Clock::now() < deadline) {
        for (const std::string& line : splitLines(p->stdoutText()))
            if (auto e = protocol::parseLine(line); e && e->type == type) return true;
        if (p->waitFor(std::chrono::milliseconds(50))) return false;
    }
    return false;
}

bool pathExists(const std::string& path) {
    std::error_code ec;
    return std::filesystem::exists(path, ec);
}

double secondsSince(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

} // namespace

TEST_CASE(sharedMemoryBlockIsSharedAndNamedOnce) {
    const std::string token = "test-" + std::to_string(os::currentPid());
    auto a = train::SharedMemory::create(token, 4096);
    bool threw = false;
    try {
        train::SharedMemory::create(token, 4096);
    } catch (const std::runtime_error&) {
        threw = true;
    }
    TEST_REQUIRE_MSG(threw, "a second block under the same name was created");
    auto b = train::SharedMemory::open(token, 4096);
    TEST_REQUIRE_EQ(static_cast<int>(b->data()[100]), 0); // starts zeroed
    std::strcpy(reinterpret_cast<char*>(a->data()) + 100, "written through a");
    TEST_REQUIRE_EQ(std::string(reinterpret_cast<const char*>(b->data()) + 100),
                    std::string("written through a"));
#ifndef _WIN32
    a->removeName();
    threw = false;
    try {
        train::SharedMemory::open(token, 4096);
    } catch (const std::runtime_error&) {
        threw = true;
    }
    TEST_REQUIRE_MSG(threw, "the name was still there after removeName()");
    TEST_REQUIRE(!pathExists("/dev/shm/ddpdesk-" + token));
#endif
    threw = false;
    try {
        train::SharedMemory::open("never-created-here", 4096);
    } catch (const std::runtime_error&) {
        threw = true;
    }
    TEST_REQUIRE(threw);
}

TEST_CASE(processAliveSeesExitedAndZombieProcesses) {
    TEST_REQUIRE(os::processAlive(os::currentPid()));
#ifdef _WIN32
    TEST_SKIP("zombie processes are a POSIX notion; the Windows check waits on the process handle");
#else
    // The shell's background child exits after the shell has become `sleep` (exec), which never reaps it: a
    // zombie that kill(pid, 0) still reports as present. (A child that exited before the exec could be reaped
    // by the shell itself.)
    Subprocess sh;
    TEST_REQUIRE(sh.start("/bin/sh", {"-c", "sleep 2 & echo $!; exec sleep 30"}));
    const auto deadline = Clock::now() + std::chrono::seconds(10);
    while (sh.stdoutText().find('\n') == std::string::npos && Clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const std::int64_t zombie = std::atoll(trimmed(sh.stdoutText()).c_str());
    TEST_REQUIRE(zombie > 0);
    TEST_REQUIRE(os::processAlive(zombie)); // still sleeping
    std::this_thread::sleep_for(std::chrono::seconds(3));
    if (pathExists("/proc/self"))
        TEST_REQUIRE_MSG(fileBytes("/proc/" + std::to_string(zombie) + "/stat").find(") Z ") !=
                             std::string::npos,
                         "not a zombie: the check below would prove nothing");
    TEST_REQUIRE(!os::processAlive(zombie));
    TEST_REQUIRE(os::processAlive(sh.pid()));
    sh.kill();
    TEST_REQUIRE(!os::processAlive(sh.pid()));
#endif
}

TEST_CASE(localRanksShareMemoryAndLeaveNothingBehind) {
    TempDir dir;
    WorkerSet set;
    set.startRanks(3, shortRun(dir) + Args{"--threads", "1"});
    const auto results = set.waitAll(180000);
    for (const RankResult& r : results) {
        TEST_REQUIRE_MSG(r.exitCode == 0, r.describe());
        TEST_REQUIRE_EQ(transportOf(r), std::string("shared_memory"));
    }
    const std::string name = loggedBlockName(results[0]);
    TEST_REQUIRE_MSG(!name.empty(), results[0].stderrText);
    TEST_REQUIRE_EQ(loggedBlockName(results[2]), name); // one block for all ranks
#ifndef _WIN32
    TEST_REQUIRE(!pathExists("/dev/shm/" + name)); // the name went away as soon as every rank had mapped it
#endif
}

// Rank 0 creates the block, then waits in two allreduces until every rank has mapped it; only then is the
// name removed. A stop (SIGTERM) in that window used to leave /dev/shm/ddpdesk-<token> until reboot. Rank 1
// is frozen as soon as rank 0 has the block mapped, which holds rank 0 inside the window, then rank 0 is
// SIGTERMed: the name must go, and rank 0 must still die of SIGTERM (the handler re-raises it).
TEST_CASE(sigtermDuringSetupLeavesNoSharedMemory) {
#ifdef _WIN32
    TEST_SKIP("POSIX names only: a Windows mapping vanishes with its last handle");
#else
    int hits = 0;
    std::vector<std::string> leftovers;
    // The block as rank 0 maps it: "/dev/shm/ddpdesk-<token>", with " (deleted)" once the name is gone.
    static const std::regex mapped("/dev/shm/(ddpdesk-[0-9a-f]{16})( \\(deleted\\))?");
    for (int attempt = 0; attempt < 12 && hits < 3; ++attempt) {
        TempDir dir;
        WorkerSet set;
        set.startRanks(2, shortRun(dir, "100000") + Args{"--threads", "1", "--collective-timeout", "60"});
        const std::int64_t pid0 = set.process(0)->pid(), pid1 = set.process(1)->pid();
        TEST_REQUIRE(pid0 > 0 && pid1 > 0);
        std::string name;
        const auto start = Clock::now();
        while (name.empty() && secondsSince(start) < 120 && !set.process(0)->exited()) {
            const std::string maps = fileBytes("/proc/" + std::to_string(pid0) + "/maps");
            std::smatch m;
            if (std::regex_search(maps, m, mapped)) {
                name = m[1].str();
                if (m[2].matched) break; // already past the window this time
                ::kill(pid_t(pid1), SIGSTOP);
            }
            if (name.empty()) std::this_thread::sleep_for(std::chrono::microseconds(500));
        }
        TEST_REQUIRE_MSG(!name.empty(), "rank 0 never mapped a shared-memory block");
        const std::string path = "/dev/shm/" + name;
        const bool inWindow = pathExists(path);
        ::kill(pid_t(pid0), SIGTERM);
        TEST_REQUIRE(set.process(0)->waitFor(std::chrono::seconds(20)));
        set.process(1)->kill();
        if (!inWindow) continue;
        ++hits;
        TEST_REQUIRE_EQ(set.process(0)->termSignal(), int(SIGTERM));
        if (pathExists(path)) {
            leftovers.push_back(name);
            std::error_code ec;
            std::filesystem::remove(path, ec); // not left for the next test run
        }
    }
    std::cout << "caught rank 0 between creating and removing the block " << hits << " time(s)" << std::endl;
    TEST_REQUIRE_MSG(hits > 0, "never caught rank 0 between creating and removing the block");
    std::string left;
    for (const std::string& n : leftovers)
        left += n + " ";
    TEST_REQUIRE_MSG(leftovers.empty(), "left in /dev/shm: " + left);
#endif
}

TEST_CASE(oneRankAskingForGlooMakesAllUseGloo) {
    TempDir dir;
    WorkerSet set;
    set.start(rankArgs(shortRun(dir), 0, 2));
    set.start(rankArgs(shortRun(dir), 1, 2, {"--grad-transport", "gloo"}));
    const auto results = set.waitAll(180000);
    for (const RankResult& r : results) {
        TEST_REQUIRE_MSG(r.exitCode == 0, r.describe());
        TEST_REQUIRE_EQ(transportOf(r), std::string("gloo"));
    }
    TEST_REQUIRE(contains(results[1].stderrText, "--grad-transport gloo"));
}

TEST_CASE(forcedSharedMemoryThatCannotBeMetIsAClearError) {
    TempDir dir;
    WorkerSet set;
    set.start(rankArgs(shortRun(dir), 0, 2, {"--grad-transport", "shm"}));
    set.start(
        rankArgs(shortRun(dir, "100000"), 1, 2, {"--grad-transport", "gloo", "--collective-timeout", "20"}));
    const auto results = set.waitAll(120000);
    const RankResult& r0 = results[0];
    TEST_REQUIRE_MSG(r0.exitCode == 2, r0.describe());
    TEST_REQUIRE_EQ(r0.errorCode(), std::string("BAD_INPUT"));
    TEST_REQUIRE(contains(r0.errorMessage(), "--grad-transport shm"));
    // The other rank notices its peer is gone instead of training on alone or hanging.
    TEST_REQUIRE_MSG(results[1].finished && results[1].exitCode != 0, results[1].describe());
}

TEST_CASE(stalledPeerIsReportedByName) {
#ifdef _WIN32
    TEST_SKIP("needs SIGSTOP to freeze a rank mid-step");
#else
    TempDir dir;
    WorkerSet set;
    set.startRanks(2, shortRun(dir, "100000", 0) + Args{"--collective-timeout", "3"});
    TEST_REQUIRE(waitForEvent(set.process(1), "step", 120000));
    const std::int64_t frozen = set.process(1)->pid();
    TEST_REQUIRE_EQ(::kill(pid_t(frozen), SIGSTOP), 0);
    const auto start = Clock::now();
    TEST_REQUIRE(set.process(0)->waitFor(std::chrono::seconds(60)));
    const double waited = secondsSince(start);
    const auto results = set.waitAll(1); // rank 1 is still frozen: killed here
    const RankResult& r0 = results[0];
    TEST_REQUIRE_MSG(r0.exitCode == 3, r0.describe());
    TEST_REQUIRE_EQ(r0.errorCode(), std::string("COLLECTIVE_TIMEOUT"));
    const std::string message = r0.errorMessage();
    // Frozen mid-step (nearly always): the shared-memory wait names the rank. Frozen right at an epoch's end,
    // Gloo's epoch-loss allreduce times out instead; that is reported as well, just without the rank.
    if (r0.last("error")->body["waiting_for"].value("what", "") == "the gradient allreduce")
        TEST_REQUIRE_MSG(contains(message, "rank 1 (process " + std::to_string(frozen) +
                                               ", still running) did not hand over gradient bucket"),
                         message);
    else
        TEST_REQUIRE_MSG(contains(message, "allreduce did not complete within 3 s"), message);
    TEST_REQUIRE_MSG(waited < 30, std::to_string(waited) + " s");
#endif
}

TEST_CASE(vanishedPeerIsReportedAsLost) {
    TempDir dir;
    WorkerSet set;
    set.startRanks(2, shortRun(dir, "100000") + Args{"--collective-timeout", "60"});
    TEST_REQUIRE(waitForEvent(set.process(1), "step", 120000));
    const auto start = Clock::now();
    set.process(1)->kill();
    const auto results = set.waitAll(60000);
    const RankResult& r0 = results[0];
    TEST_REQUIRE_MSG(r0.exitCode == 5, r0.describe());
    TEST_REQUIRE_EQ(r0.errorCode(), std::string("PEER_LOST"));
    TEST_REQUIRE_MSG(secondsSince(start) < 20,
                     std::to_string(secondsSince(start)) + " s"); // not the 60 s timeout
}

DDPDESK_TEST_MAIN()
