// The worker runs unchanged under Open MPI's mpirun: each process takes its rank, world size and local rank
// from OMPI_COMM_WORLD_* and the two ranks train together over a FileStore and over a TCPStore. Plain C++
// (the Qt-free harness), so it also runs where only LibTorch exists; skipped where mpirun is not installed.

#include "os/utf8_path.h"
#include "worker_harness_std.h"

#include <filesystem>
#include <set>

using namespace ddpdesk;
using namespace ddpdesk::traintest;
using ddpdesk::testsupport::TempDir;

namespace {

std::string mpirun() {
    const std::string configured = DDPDESK_MPIRUN;
    const bool found = !configured.empty() && configured.find("NOTFOUND") == std::string::npos;
    return found ? configured : std::string("mpirun"); // else looked up in PATH
}

RankResult runMpi(const Args& workerArgs) {
    EnvChanges env = withoutRankVariables();
    env.emplace_back("LOCAL_WORLD_SIZE", std::nullopt);
    // Loopback and shared memory only; root in containers needs the explicit allowance.
    env.emplace_back("OMPI_MCA_btl", "self,tcp");
    env.emplace_back("OMPI_MCA_btl_tcp_if_include", "lo");
    env.emplace_back("OMPI_MCA_oob_tcp_if_include", "lo");
    env.emplace_back("OMPI_MCA_btl_vader_single_copy_mechanism", "none");
    env.emplace_back("OMPI_MCA_rmaps_base_oversubscribe", "1");
    WorkerSet set;
    testsupport::Subprocess* p = set.start(
        Args{"--allow-run-as-root", "--oversubscribe", "-np", "2", workerPath()} + workerArgs, env, mpirun());
    if (!p->started()) TEST_SKIP("mpirun (Open MPI) is not installed: " + p->startError());
    return set.waitAll(180000).front();
}

void verifyBothRanks(const RankResult& r) {
    TEST_REQUIRE_MSG(r.exitCode == 0, r.describe());
    std::set<int> helloRanks, doneRanks;
    for (const auto& e : r.ofType("hello")) {
        helloRanks.insert(e.rank);
        TEST_CHECK_EQ(e.body["identity_source"].get<std::string>(), std::string("Open MPI env"));
        TEST_CHECK_EQ(e.body["world_size"].get<int>(), 2);
    }
    for (const auto& e : r.ofType("done"))
        doneRanks.insert(e.rank);
    TEST_CHECK_MSG(helloRanks == (std::set<int>{0, 1}), r.describe());
    TEST_CHECK_MSG(doneRanks == (std::set<int>{0, 1}), r.describe());
}

} // namespace

TEST_CASE(fileStore) {
    TempDir dir;
    RankResult r = runMpi({"--workload", "autoencoder", "--steps", "3", "--limit-samples", "400", "--store",
                           "file:" + dir.filePath("store"), "--out", dir.str()});
    verifyBothRanks(r);
    TEST_CHECK(std::filesystem::exists(ddpdesk::os::pathFromUtf8(dir.filePath("model.pt"))));
}

TEST_CASE(tcpStore) {
    TempDir dir;
    RankResult r = runMpi({"--workload", "fashion-mnist", "--steps", "2", "--limit-samples", "256", "--store",
                           "tcp://127.0.0.1:" + std::to_string(freePort()), "--out", dir.str()});
    verifyBothRanks(r);
}

DDPDESK_TEST_MAIN()
