// One copy of the images per machine (core/train/data/node_data.h), with real worker processes: two local
// ranks of a run with a secret share the first rank's block (the second maps it: its /proc/PID/maps shows the
// block), train to the same parameters as with a copy each, and leave no name in /dev/shm; a first rank that
// ends early, or is stopped with SIGTERM while its block waits for a peer, leaves none either; a rank whose
// first rank never comes reads its own copy and says so. Plain C++ (the Qt-free harness): registered in both
// configurations, so the torch2 leg runs it against LibTorch 2.6.

#include "worker_harness_std.h"

#include "os/shared_memory.h"
#include "protocol/run_auth.h"
#include "train/data/idx_reader.h"
#include "train/data/node_data.h"

#include <filesystem>
#include <regex>
#include <thread>

#ifndef _WIN32
#include <csignal>
#include <sys/types.h>
#endif

using namespace ddpdesk;
using namespace ddpdesk::traintest;
using ddpdesk::testsupport::Clock;
using ddpdesk::testsupport::TempDir;

namespace {

const std::string kSecret(64, 'c'); // hex: the launcher's DDPDESK_RUN_SECRET

EnvChanges withSecret(bool on) {
    EnvChanges env = withoutRankVariables();
    env.emplace_back("DDPDESK_RUN_SECRET", on ? std::optional<std::string>(kSecret) : std::nullopt);
    env.emplace_back("TORCHELASTIC_RESTART_COUNT",
                     std::nullopt); // attempt 0, as dataBlocks() names the blocks
    return env;
}

// This run's data blocks present in /dev/shm: only the names its secret gives (attempt 0), as other tests'
// runs may hold blocks of their own meanwhile (test_node_data_trust.cpp forges one) and must keep them.
std::vector<std::string> dataBlocks() {
    static const std::vector<std::string> ours = [] {
        std::string raw, error;
        TEST_REQUIRE_MSG(protocol::decodeRunSecret(kSecret, &raw, &error), error);
        train::NodeDataShare::Plan plan;
        plan.runSecret = raw;
        plan.localWorldSize = 2;
        plan.localWorldKnown = true;
        const train::NodeDataShare share(plan);
        std::vector<std::string> names;
        for (const char* file : {"train-images-idx3-ubyte", "t10k-images-idx3-ubyte"}) {
            const std::string os =
                train::SharedMemory::osName(share.tokenFor(train::findIdxFile(fashionDir(), file)));
            names.push_back(os.substr(os.find_first_not_of('/')));
        }
        return names;
    }();
    std::vector<std::string> out;
    std::error_code ec;
    for (const std::string& n : ours)
        if (std::filesystem::exists("/dev/shm/" + n, ec)) out.push_back(n);
    return out;
}

bool newBlocksLeft(const std::vector<std::string>& before) {
    for (const std::string& n : dataBlocks())
        if (std::find(before.begin(), before.end(), n) == before.end()) {
            std::cout << "left in /dev/shm: " << n << std::endl;
            std::error_code ec;
            std::filesystem::remove("/dev/shm/" + n, ec); // not left for the next test run
            return true;
        }
    return false;
}

} // namespace

TEST_CASE(localRanksShareOneCopyAndTrainTheSame) {
#ifdef _WIN32
    TEST_SKIP("checks /dev/shm and /proc");
#else
    const std::vector<std::string> before = dataBlocks();
    std::string digest[2];
    for (bool shared : {true, false}) {
        TempDir dir;
        WorkerSet set;
        set.start(localRankArgs(dir, 0), withSecret(shared));
        set.start(localRankArgs(dir, 1), withSecret(shared));
        const std::vector<RankResult> r = set.waitAll(240000);
        TEST_REQUIRE_MSG(r[0].exitCode == 0, r[0].describe());
        TEST_REQUIRE_MSG(r[1].exitCode == 0, r[1].describe());
        TEST_CHECK_EQ(r[0].paramsDigest(), r[1].paramsDigest());
        digest[shared ? 0 : 1] = r[0].paramsDigest();
        TEST_CHECK_MSG(contains(r[0].stderrText, "images shared with this machine's other 1 rank(s)") ==
                           shared,
                       r[0].stderrText);
        TEST_CHECK_MSG(contains(r[1].stderrText, "images mapped from this machine's first rank") == shared,
                       r[1].stderrText);
    }
    // The same parameters bit for bit with one copy per machine and with a copy per rank.
    TEST_CHECK(!digest[0].empty());
    TEST_CHECK_EQ(digest[0], digest[1]);
    TEST_CHECK(!newBlocksLeft(before));

    // While training, the second rank maps the first rank's blocks (their names already gone: the first rank
    // removes them after the first broadcast at the latest).
    TempDir dir;
    WorkerSet set;
    set.start(localRankArgs(dir, 0, {}, "100000"), withSecret(true));
    set.start(localRankArgs(dir, 1, {}, "100000"), withSecret(true));
    bool mapped = false;
    const auto start = Clock::now();
    while (!mapped && Clock::now() - start < std::chrono::seconds(120) &&
           !set.process(1)->waitFor(std::chrono::milliseconds(0))) {
        const std::string maps = fileBytes("/proc/" + std::to_string(set.process(1)->pid()) + "/maps");
        const bool training = contains(set.process(1)->stdoutText(), "\"event\":\"step\"");
        mapped =
            training && std::regex_search(maps, std::regex("/dev/shm/ddpdesk-d[0-9a-f]{16} \\(deleted\\)"));
        if (!mapped) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    set.process(0)->kill();
    set.process(1)->kill();
    set.waitAll(30000);
    TEST_CHECK_MSG(mapped, "rank 1 never mapped rank 0's block");
    TEST_CHECK(!newBlocksLeft(before));
#endif
}

TEST_CASE(aFirstRankThatEndsOrIsStoppedLeavesNoBlock) {
#ifdef _WIN32
    TEST_SKIP("POSIX names only: a Windows mapping vanishes with its last handle");
#else
    const std::vector<std::string> before = dataBlocks();
    {
        // Alone: its peer never comes, the rendezvous times out, the rank leaves through its error exit.
        TempDir dir;
        const RankResult r = runWorker(localRankArgs(dir, 0, {"--timeout", "3"}), 120000, withSecret(true));
        TEST_CHECK_MSG(r.exitCode == 3, r.describe());
        TEST_CHECK_EQ(r.errorCode(), std::string("RENDEZVOUS_TIMEOUT"));
        TEST_CHECK(!newBlocksLeft(before));
    }
    {
        // Stopped with SIGTERM while its finished block waits for the peer to map it.
        TempDir dir;
        WorkerSet set;
        set.start(localRankArgs(dir, 0, {"--timeout", "120"}), withSecret(true));
        const auto start = Clock::now();
        while (dataBlocks().size() == before.size() && Clock::now() - start < std::chrono::seconds(60))
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        TEST_REQUIRE_MSG(dataBlocks().size() > before.size(), "rank 0 never created its block");
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        ::kill(pid_t(set.process(0)->pid()), SIGTERM);
        TEST_REQUIRE(set.process(0)->waitFor(std::chrono::seconds(20)));
        TEST_CHECK_EQ(set.process(0)->termSignal(), int(SIGTERM));
        TEST_CHECK(!newBlocksLeft(before));
    }
#endif
}

TEST_CASE(aRankWhoseFirstRankNeverComesReadsItsOwnCopy) {
    TempDir dir;
    const RankResult r = runWorker(localRankArgs(dir, 1, {"--timeout", "3"}), 120000, withSecret(true));
    TEST_CHECK_MSG(r.exitCode == 3, r.describe()); // the rendezvous still times out, naming rank 0
    TEST_CHECK_MSG(contains(r.stderrText, "no block from the first rank") &&
                       contains(r.stderrText, "this rank reads its own copy"),
                   r.stderrText);
}

DDPDESK_TEST_MAIN()
