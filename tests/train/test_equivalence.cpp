// DDP semantics: N ranks x batch b must end with the same parameters as one rank with batch N*b on the same
// samples (relative 1e-5), checked with the ranks as threads of this process (thread_ranks.h: the worker's
// own program and Trainer over an in-process group), and, on real processes, the way gradients travel
// (overlapped buckets, many small buckets, sync after backward, shared memory or Gloo, FileStore or TCPStore)
// must not change the result.

#include "worker_harness_std.h"

using namespace ddpdesk;
using namespace ddpdesk::traintest;
using ddpdesk::testsupport::TempDir;
using ddpdesk::testsupport::testRow;

namespace {

// Trains `world` ranks and returns the final parameters (model.pt written by rank 0): worker processes on a
// store, or (`as` Threads) rank threads of this process.
ModelParams trainRanks(const std::string& workload, int world, int batch, const Args& extra, bool* ok,
                       RanksAs as = RanksAs::Processes) {
    *ok = false;
    TempDir dir;
    WorkerSet set;
    Args args{"--workload", workload, "--batch-size", std::to_string(batch), "--seed",
              "7",          "--out",  dir.str(),      "--telemetry-ms",      "0"};
    args = args + extra;
    std::vector<RankResult> results;
    if (as == RanksAs::Threads) {
        results = runRanksAsThreads(world, args);
    } else {
        if (world > 1 && !contains(extra, "--store"))
            args = args + Args{"--store", "file:" + dir.filePath("store")};
        set.startRanks(world, args);
        results = set.waitAll(240000);
    }
    for (const RankResult& r : results) {
        if (r.exitCode != 0) {
            std::cout << r.describe() << std::endl;
            return {};
        }
    }
    *ok = true;
    return loadModelFile(workload, dir.filePath("model.pt"));
}

} // namespace

TEST_CASE(ranksTimesBatchEqualsOneBigBatch) {
    struct Row {
        const char* name;
        std::string workload;
        int world, batch;
        Args common;
    };
    const Row rows[] = {
        // 512 samples: divisible by every world size and batch used, so no padding or short batch differs.
        {"fashion-mnist 2x16 vs 1x32", "fashion-mnist", 2, 16, {"--limit-samples", "512", "--steps", "6"}},
        // RMSE (the autoencoder's default) is not a mean over samples, so sqrt(mean of a shard) averaged over
        // ranks
        // is not sqrt(mean of the whole batch) -- in PyTorch's DDP as here. MSE is, and must match.
        {"autoencoder (mse) 2x10 vs 1x20",
         "autoencoder",
         2,
         10,
         {"--limit-samples", "400", "--steps", "6", "--loss", "mse"}},
        {"fashion-mnist 4x8 vs 1x32",
         "fashion-mnist",
         4,
         8,
         {"--limit-samples", "512", "--steps", "4", "--threads", "1"}},
    };
    for (const Row& row : rows)
        testRow(row.name, [&] {
            bool ok = false;
            auto many = trainRanks(row.workload, row.world, row.batch, row.common, &ok, RanksAs::Threads);
            TEST_REQUIRE(ok);
            auto one = trainRanks(row.workload, 1, row.world * row.batch, row.common, &ok, RanksAs::Threads);
            TEST_REQUIRE(ok);
            double diff = maxRelativeDifference(many, one);
            std::cout << "max relative parameter difference: " << diff << std::endl;
            TEST_REQUIRE_MSG(diff < 1e-5, std::to_string(diff));
        });
}

TEST_CASE(transportDoesNotChangeTheResult) {
    const Args common{"--limit-samples", "512", "--steps", "5"};
    bool ok = false;
    auto overlapped = trainRanks("fashion-mnist", 2, 16, common, &ok);
    TEST_REQUIRE(ok);
    auto afterBackward = trainRanks("fashion-mnist", 2, 16, common + Args{"--no-overlap"}, &ok);
    TEST_REQUIRE(ok);
    auto tinyBuckets = trainRanks("fashion-mnist", 2, 16, common + Args{"--bucket-mb", "0.01"}, &ok);
    TEST_REQUIRE(ok);
    auto tcp = trainRanks("fashion-mnist", 2, 16,
                          common + Args{"--store", "tcp://127.0.0.1:" + std::to_string(freePort())}, &ok);
    TEST_REQUIRE(ok);
    auto gloo = trainRanks("fashion-mnist", 2, 16, common + Args{"--grad-transport", "gloo"}, &ok);
    TEST_REQUIRE(ok);
    TEST_REQUIRE(maxRelativeDifference(overlapped, gloo) < 1e-6);
    TEST_REQUIRE(maxRelativeDifference(overlapped, afterBackward) < 1e-6);
    TEST_REQUIRE(maxRelativeDifference(overlapped, tinyBuckets) < 1e-6);
    TEST_REQUIRE(maxRelativeDifference(overlapped, tcp) < 1e-6);
    // The same ranks as threads of one process (what ranksTimesBatchEqualsOneBigBatch compares with one big
    // batch) end where these processes end.
    auto threads = trainRanks("fashion-mnist", 2, 16, common, &ok, RanksAs::Threads);
    TEST_REQUIRE(ok);
    TEST_REQUIRE(maxRelativeDifference(overlapped, threads) < 1e-5);
    // And training did move the parameters (a comparison of two untouched models would prove nothing).
    bool ok2 = false;
    auto shorter = trainRanks("fashion-mnist", 2, 16, Args{"--limit-samples", "512", "--steps", "1"}, &ok2);
    TEST_REQUIRE(ok2);
    TEST_REQUIRE(maxRelativeDifference(overlapped, shorter) > 1e-4);
}

DDPDESK_TEST_MAIN()
