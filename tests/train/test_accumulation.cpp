// Gradient accumulation (--accumulate K), on the worker's own program with its ranks as threads
// (thread_ranks.h; no process, store or Gloo): N ranks x K micro-batches of b must end with the
// same parameters as N ranks x one batch of K*b (relative 1e-5: CNN over 20 steps, autoencoder over 40, over
// shared memory and Gloo, overlapped or not); the exchange happens once per optimizer step, so bytes per step
// stay the same while allreduce calls per sample drop K-fold; a checkpoint remembers K; --global-batch counts
// the micro-batches.

#include "worker_harness_std.h"

using namespace ddpdesk;
using namespace ddpdesk::traintest;
using ddpdesk::testsupport::TempDir;
using ddpdesk::testsupport::testRow;

namespace {

// Two ranks with this file's seed, every step reported; into `keep` when given (resume cases).
TwoRanks trainTwo(const std::string& workload, const Args& extra, const TempDir* keep = nullptr) {
    return trainTwoRanks(workload, Args{"--seed", "5", "--telemetry-ms", "0"} + extra, keep,
                         RanksAs::Threads);
}

std::int64_t sumOf(const RankResult& r, const char* key) {
    std::int64_t total = 0;
    for (const auto& e : r.ofType("step"))
        total += e.body.value(key, std::int64_t(0));
    return total;
}

} // namespace

TEST_CASE(microBatchesEqualOneBigBatch) {
    struct Row {
        const char* name;
        std::string workload;
        int steps;
        Args common;
        const char* transport; // what the run plan says gradients travel through: the ranks are threads
    };
    // Float32 sums in another order drift apart as training goes on, and the CNN's max-pool and ReLU turn the
    // drift into jumps: over 40 steps even plain DDP (2 ranks x 32 against 1 rank x 64) differs by 3.6e-5 on
    // this data. 20 CNN steps stay well inside 1e-5 (1e-7 here); the autoencoder keeps 40.
    // 2 ranks x 32 samples x steps, inside one epoch: no short batch.
    const Row rows[] = {
        {"cnn, shared memory, overlapped", "fashion-mnist", 20, {"--limit-samples", "1280"}, "shared_memory"},
        {"cnn, gloo, after backward",
         "fashion-mnist",
         20,
         {"--limit-samples", "1280", "--grad-transport", "gloo", "--no-overlap"},
         "threads"},
        // MSE: a mean over samples, so micro-batches add up to the big batch (RMSE would not, as in PyTorch).
        {"autoencoder (mse), gloo, 40 steps",
         "autoencoder",
         40,
         {"--limit-samples", "2560", "--loss", "mse", "--grad-transport", "gloo"},
         "threads"},
    };
    for (const Row& row : rows)
        testRow(row.name, [&] {
            const Args steps{"--steps", std::to_string(row.steps)};
            TwoRanks micro =
                trainTwo(row.workload, row.common + steps + Args{"--batch-size", "8", "--accumulate", "4"});
            TEST_REQUIRE(micro.ok);
            TwoRanks big = trainTwo(row.workload, row.common + steps + Args{"--batch-size", "32"});
            TEST_REQUIRE(big.ok);
            for (const TwoRanks* run : {&micro, &big}) {
                const protocol::Event* plan = run->ranks[0].last("rendezvous");
                TEST_REQUIRE(plan != nullptr);
                TEST_CHECK_EQ(plan->body.value("grad_transport", std::string()), std::string(row.transport));
            }
            const double diff = maxRelativeDifference(micro.params, big.params);
            std::cout << row.name << ": relative difference " << diff << std::endl;
            TEST_REQUIRE_MSG(diff < 1e-5, "relative difference " + std::to_string(diff));
            // Same samples per optimizer step on every rank.
            const std::int64_t samples = std::int64_t(32) * row.steps;
            TEST_REQUIRE_EQ(micro.ranks[0].last("step")->body["samples"].get<std::int64_t>(), samples);
            TEST_REQUIRE_EQ(big.ranks[0].last("step")->body["samples"].get<std::int64_t>(), samples);
        });
}

TEST_CASE(oneExchangePerOptimizerStep) {
    // The same 640 samples: 10 steps of 4 micro-batches, or 40 plain steps of one.
    TwoRanks micro = trainTwo("fashion-mnist", {"--limit-samples", "640", "--steps", "10", "--batch-size",
                                                "8", "--accumulate", "4"});
    TEST_REQUIRE(micro.ok);
    TwoRanks plain =
        trainTwo("fashion-mnist", {"--limit-samples", "640", "--steps", "40", "--batch-size", "8"});
    TEST_REQUIRE(plain.ok);
    for (int r = 0; r < 2; ++r) {
        const auto microSteps = micro.ranks[r].ofType("step");
        const auto plainSteps = plain.ranks[r].ofType("step");
        TEST_REQUIRE_EQ(microSteps.size(), std::size_t(10));
        TEST_REQUIRE_EQ(plainSteps.size(), std::size_t(40));
        // Bytes per optimizer step unchanged: the whole model's gradients, once.
        TEST_REQUIRE_EQ(microSteps.back().body["bytes_allreduced"].get<std::int64_t>(),
                        plainSteps.back().body["bytes_allreduced"].get<std::int64_t>());
        const std::int64_t microCalls = sumOf(micro.ranks[r], "allreduce_calls");
        const std::int64_t plainCalls = sumOf(plain.ranks[r], "allreduce_calls");
        TEST_REQUIRE(microCalls > 0);
        TEST_REQUIRE_EQ(plainCalls, 4 * microCalls);
    }
}

TEST_CASE(checkpointRemembersMicroBatches) {
    TempDir out;
    TwoRanks first =
        trainTwo("fashion-mnist",
                 {"--limit-samples", "320", "--steps", "2", "--batch-size", "8", "--accumulate", "2"}, &out);
    TEST_REQUIRE(first.ok);
    // Resuming with another K would change the results from here on: refused like another batch size.
    TwoRanks other = trainTwo(
        "fashion-mnist", {"--limit-samples", "320", "--steps", "4", "--batch-size", "8", "--resume"}, &out);
    TEST_REQUIRE(!other.ok);
    TEST_REQUIRE_EQ(other.ranks[0].exitCode, 2);
    TEST_REQUIRE_EQ(other.ranks[0].errorCode(), std::string("CHECKPOINT_MISMATCH"));
    TEST_REQUIRE_MSG(contains(other.ranks[0].errorMessage(), "accumulate"), other.ranks[0].describe());
    TwoRanks same = trainTwo(
        "fashion-mnist",
        {"--limit-samples", "320", "--steps", "4", "--batch-size", "8", "--accumulate", "2", "--resume"},
        &out);
    TEST_REQUIRE(same.ok);
    TEST_REQUIRE_EQ(same.ranks[0].ofType("step").front().body["step"].get<int>(), 3);
}

TEST_CASE(globalBatchCountsMicroBatches) {
    // 64 samples per step over 2 ranks x 4 micro-batches: 8 per micro-batch, 32 per rank and step.
    TwoRanks run = trainTwo("fashion-mnist", {"--limit-samples", "640", "--steps", "3", "--global-batch",
                                              "64", "--accumulate", "4"});
    TEST_REQUIRE(run.ok);
    TEST_REQUIRE_EQ(run.ranks[0].last("step")->body["samples"].get<std::int64_t>(), std::int64_t(96));
    TwoRanks uneven = trainTwo("fashion-mnist", {"--limit-samples", "640", "--steps", "3", "--global-batch",
                                                 "60", "--accumulate", "4"});
    TEST_REQUIRE(!uneven.ok);
    TEST_REQUIRE_EQ(uneven.ranks[0].errorCode(), std::string("BAD_INPUT"));
    TEST_REQUIRE_MSG(contains(uneven.ranks[0].errorMessage(), "multiple of 8"), uneven.ranks[0].describe());
}

TEST_CASE(zeroMicroBatchesIsRefused) {
    const RankResult r = runWorkerAsThread({"--workload", "fashion-mnist", "--accumulate", "0"});
    TEST_REQUIRE_EQ(r.exitCode, 2);
    TEST_REQUIRE_EQ(r.errorCode(), std::string("BAD_INPUT"));
    TEST_REQUIRE_MSG(contains(r.errorMessage(), "--accumulate must be at least 1 (got 0)"), r.describe());
}

DDPDESK_TEST_MAIN()
