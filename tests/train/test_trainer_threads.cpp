// The whole Trainer (broadcast, sharded batches, bucketed overlapped allreduce, optimizer, final barrier)
// with its ranks as threads over the collectives seam (tests/support/thread_process_group.h), the way c10d
// tests its logic against FakeProcessGroup: no worker process, no store, no Gloo. What needs real processes
// (the rendezvous, Gloo, exit codes) stays in the end-to-end tests; here the trainer's own logic fails fast
// and names itself.

#include "mini_test.h"
#include "temp_dir.h"
#include "thread_process_group.h"

#include "train/base/errors.h"
#include "train/base/telemetry_emitter.h"
#include "train/data/datasets.h"
#include "train/engine/models.h"
#include "train/engine/trainer.h"
#include "train/worker/options.h"

#include <torch/torch.h>

#include <atomic>
#include <thread>

#ifndef _WIN32
#include <fcntl.h>
#include <unistd.h>
#endif

using namespace ddpdesk;
using ddpdesk::testsupport::TempDir;
using ddpdesk::testsupport::ThreadProcessGroup;

namespace {

struct RankRun {
    train::TrainModel* model = nullptr; // owned by its Trainer, which the test keeps until it has compared
    std::unique_ptr<train::Trainer> trainer;
    std::string error;
    std::string code; // the TrainError's stable code (protocol/worker_codes.h), empty for other failures
    int exitCode = 0;
};

train::TrainerConfig config(int rank, int world, const std::filesystem::path& out) {
    train::TrainerConfig c;
    c.identity.rank = rank;
    c.identity.worldSize = world;
    c.identity.localRank = rank;
    c.identity.localWorldSize = world;
    c.identity.source = "test";
    c.workload = "autoencoder";
    c.loss = train::LossKind::Rmse;
    c.batchSize = 4;
    c.steps = 6;
    c.lr = 1e-6;
    c.bucketBytes = 64 << 10; // several buckets, so the overlapped path has more than one in flight
    // Through the group: the shared-memory exchange is for ranks in separate processes.
    c.gradTransport = train::GradTransport::Gloo;
    c.collectiveTimeout = std::chrono::seconds(20);
    c.outDir = out;
    c.telemetryMs = 1000;
    return c;
}

// Rank r builds its model from its own seed: only the initial broadcast can make them agree.
RankRun makeRank(int r, int world, const std::filesystem::path& out, ThreadProcessGroup& group,
                 std::chrono::milliseconds timeout) {
    RankRun run;
    torch::manual_seed(1000 + static_cast<std::uint64_t>(r));
    std::unique_ptr<train::TrainModel> model = train::makeAutoencoder();
    run.model = model.get();
    train::TrainerConfig c = config(r, world, out);
    c.collectiveTimeout = timeout;
    run.trainer = std::make_unique<train::Trainer>(c, train::makeLinspaceDataset(64, 1000), std::move(model),
                                                   &group.rank(r));
    return run;
}

std::vector<RankRun> makeRanks(int world, const std::filesystem::path& out, ThreadProcessGroup& group,
                               std::chrono::milliseconds timeout) {
    std::vector<RankRun> runs;
    for (int r = 0; r < world; ++r)
        runs.push_back(makeRank(r, world, out, group, timeout));
    return runs;
}

void runRanks(std::vector<RankRun>& runs, const std::vector<int>& which) {
    std::vector<std::thread> threads;
    for (int r : which)
        threads.emplace_back([&runs, r] {
            RankRun& run = runs[static_cast<std::size_t>(r)];
            try {
                run.trainer->run();
            } catch (const train::TrainError& e) {
                run.code = e.code();
                run.exitCode = e.exitCode();
                run.error = e.what();
            } catch (const std::exception& e) {
                run.error = e.what();
            }
        });
    for (std::thread& t : threads)
        t.join();
}

std::vector<at::Tensor> parameters(train::TrainModel& m) {
    std::vector<at::Tensor> out;
    for (const auto& [name, t] : m.namedParameters())
        out.push_back(t.detach().clone());
    return out;
}

bool identical(const std::vector<at::Tensor>& a, const std::vector<at::Tensor>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!torch::equal(a[i], b[i])) return false;
    return true;
}

} // namespace

// First in this file on purpose: the race is on the process's first parse of a switch. Ranks as threads parse
// their command lines together; with CLI11 2.6 (the LibTorch 2.14 build) an unguarded parse refused
// `--resume` in about two processes of five ("Could not convert: --resume = true";
// core/train/worker/options.cpp).
TEST_CASE(ranksAsThreadsParseTheirCommandLinesAtOnce) {
    constexpr int kThreads = 8;
    std::atomic<int> waiting{kThreads};
    std::vector<std::string> results(kThreads);
    std::vector<std::thread> threads;
    for (int r = 0; r < kThreads; ++r)
        threads.emplace_back([&waiting, &results, r] {
            const std::string rank = std::to_string(r);
            const char* argv[] = {"ddpdesk-worker", "--workload", "autoencoder", "--resume",
                                  "--no-overlap",   "--rank",     rank.c_str()};
            waiting.fetch_sub(1);
            while (waiting.load() > 0)
                std::this_thread::yield();
            try {
                const train::ParsedCommandLine p = train::parseCommandLine(int(std::size(argv)), argv);
                const protocol::WorkerSettings& s = p.options.settings;
                results[std::size_t(r)] =
                    s.resume && s.noOverlap && p.options.rank == r ? "ok" : "wrong values";
            } catch (const std::exception& e) {
                results[std::size_t(r)] = e.what();
            }
        });
    for (std::thread& t : threads)
        t.join();
    for (int r = 0; r < kThreads; ++r)
        TEST_CHECK_MSG(results[std::size_t(r)] == "ok",
                       "thread " + std::to_string(r) + ": " + results[std::size_t(r)]);
}

TEST_CASE(ranksAsThreadsTrainToIdenticalParameters) {
    at::set_num_threads(1);
    TempDir out;
    ThreadProcessGroup group(2);
    std::vector<RankRun> runs = makeRanks(2, out.path(), group, std::chrono::seconds(20));
    const std::vector<at::Tensor> rank0Start = parameters(*runs[0].model);
    TEST_REQUIRE_MSG(!identical(rank0Start, parameters(*runs[1].model)), "the ranks must start apart");
    TEST_CHECK_EQ(runs[0].trainer->totalSteps(), std::int64_t(6));
    runRanks(runs, {0, 1});
    for (std::size_t r = 0; r < runs.size(); ++r)
        TEST_REQUIRE_MSG(runs[r].error.empty(), "rank " + std::to_string(r) + ": " + runs[r].error);
    const std::vector<at::Tensor> p0 = parameters(*runs[0].model), p1 = parameters(*runs[1].model);
    TEST_CHECK_MSG(identical(p0, p1), "the ranks ended with different parameters");
    TEST_CHECK_MSG(!identical(p0, rank0Start), "rank 0's parameters never moved: no step was taken");
    // Both ranks called the same number of collectives (broadcast, one allreduce per bucket and step,
    // the final barrier), and more than one per step: the buckets travelled apart.
    TEST_CHECK_EQ(group.callsOf(0), group.callsOf(1));
    TEST_CHECK_MSG(group.callsOf(0) > 2 + 6, "only " + std::to_string(group.callsOf(0)) + " collectives");
    TEST_CHECK(std::filesystem::exists(out.path() / "model.pt")); // rank 0 writes the final model
}

TEST_CASE(aRankThatLeavesFailsItsPeerAsALostPeer) {
    TempDir out;
    ThreadProcessGroup group(2);
    std::vector<RankRun> runs = makeRanks(2, out.path(), group, std::chrono::seconds(20));
    group.leave(1); // rank 1's process died before its first collective
    const auto start = std::chrono::steady_clock::now();
    runRanks(runs, {0});
    // The trainer turns the group's CommError into the worker's lost-peer failure and exit code.
    TEST_REQUIRE_EQ(runs[0].code, std::string(train::error_code::PeerLost));
    TEST_CHECK_EQ(runs[0].exitCode, int(train::exit_code::PeerFailure));
    TEST_CHECK_MSG(runs[0].error.find("initial parameter broadcast") != std::string::npos, runs[0].error);
    TEST_CHECK_MSG(runs[0].error.find("rank 1") != std::string::npos, runs[0].error);
    // At once, not after the 20 s collective timeout.
    TEST_CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
}

TEST_CASE(aRankThatNeverComesTimesOutNamingIt) {
    TempDir out;
    ThreadProcessGroup group(2);
    std::vector<RankRun> runs = makeRanks(2, out.path(), group, std::chrono::milliseconds(300));
    runRanks(runs, {0});
    TEST_REQUIRE_EQ(runs[0].code, std::string(train::error_code::CollectiveTimeout));
    TEST_CHECK_EQ(runs[0].exitCode, int(train::exit_code::Timeout));
    TEST_CHECK_MSG(runs[0].error.find("rank(s) 1") != std::string::npos, runs[0].error);
}

// A launcher that stops reading (a hung GUI, a SIGSTOPped launcher: launch.two_nodes once saw node 0's own
// rank make 0.31 of its steps while its launcher was stopped) fills the rank's stdout pipe. A step event then
// is not written (emitIfRoom returns false at once: a blocking write would hang this case until ctest's
// deadline), an epoch event is queued (emitQueued returns at once), and once the pipe is read again the
// queued event is written first, then steps again. The trainer keeps a step not written in the next event's
// averages.
TEST_CASE(aFullStdoutPipeNeverHoldsAStepEvent) {
#ifdef _WIN32
    TEST_SKIP("an anonymous pipe on Windows tells no free space: every event is written there");
#else
    int fds[2];
    TEST_REQUIRE(::pipe(fds) == 0);
    std::fflush(stdout);
    const int saved = ::dup(STDOUT_FILENO);
    TEST_REQUIRE(saved >= 0 && ::dup2(fds[1], STDOUT_FILENO) == STDOUT_FILENO);
    auto& tm = train::TelemetryEmitter::instance();
    nlohmann::json e = tm.event("step");
    e["step"] = 1;
    e["note"] = std::string(300, 'x'); // a step event's size
    int written = 0;
    bool refused = false;
    for (int i = 0; i < 100000 && !refused; ++i) { // 64 KiB of pipe: a few hundred events
        if (tm.emitIfRoom(e))
            ++written;
        else
            refused = true;
    }
    nlohmann::json epoch = tm.event("epoch");
    epoch["epoch"] = 7;
    tm.emitQueued(epoch); // no room: kept
    const bool stepBehindTheQueue = tm.emitIfRoom(e);
    // Drain what the pipe holds (non-blocking), then there is room again: the epoch event goes first.
    ::fcntl(fds[0], F_SETFL, ::fcntl(fds[0], F_GETFL) | O_NONBLOCK);
    char buffer[65536];
    std::size_t drained = 0;
    for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;)
        drained += std::size_t(n);
    e["step"] = 2;
    const bool roomAgain = tm.emitIfRoom(e);
    std::fflush(stdout);
    std::string after;
    for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;)
        after.append(buffer, std::size_t(n));
    ::dup2(saved, STDOUT_FILENO);
    ::close(saved);
    ::close(fds[1]);
    while (::read(fds[0], buffer, sizeof buffer) > 0) {
    }
    ::close(fds[0]);
    TEST_CHECK_MSG(refused, "every event was written: the pipe never filled");
    TEST_CHECK_MSG(written > 10, std::to_string(written));
    TEST_CHECK_MSG(drained > 0, "nothing reached the pipe");
    TEST_CHECK(!stepBehindTheQueue);
    TEST_CHECK(roomAgain);
    const std::size_t epochAt = after.find("\"epoch\":7"), stepAt = after.find("\"step\":2");
    TEST_CHECK_MSG(epochAt != std::string::npos && stepAt != std::string::npos && epochAt < stepAt, after);
#endif
}

DDPDESK_TEST_MAIN()
