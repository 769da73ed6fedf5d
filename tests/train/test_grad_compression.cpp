// Compressed gradients (--grad-compression fp16|bf16), on real ranks over shared memory and over Gloo: half
// the bytes per step, values really rounded (the parameters differ from an uncompressed run, slightly), and
// every rank still ends with the same parameters bit for bit (the workers' params_sha256). Gloo in LibTorch
// 1.13 cannot sum bfloat16: that is refused by name, and works with a 2.x worker (the torch2 leg runs this
// file against LibTorch 2.6). A checkpoint remembers the compression. The 1-epoch accuracy comparison is in
// train.fashion_accuracy (slow).

#include "worker_harness_std.h"

using namespace ddpdesk;
using namespace ddpdesk::traintest;
using ddpdesk::testsupport::TempDir;
using ddpdesk::testsupport::testRow;

namespace {

// Two CNN ranks on 384 samples, every step reported; into `keep` when given (the resume case).
TwoRanks trainTwo(const Args& extra, const TempDir* keep = nullptr) {
    return trainTwoRanks(
        "fashion-mnist",
        Args{"--seed", "9", "--telemetry-ms", "0", "--limit-samples", "384", "--batch-size", "32"} + extra,
        keep);
}

std::string planValue(const RankResult& r, const char* key) {
    for (const auto& e : r.ofType("rendezvous"))
        if (e.body.value("phase", "") == "done") return e.body.value(key, "");
    return "(no plan)";
}

} // namespace

TEST_CASE(halfTheBytesSameParametersOnEveryRank) {
    const int torch = workerTorchVersion();
    for (const std::string transport : {"shm", "gloo"}) {
        const TwoRanks plain = trainTwo({"--steps", "6", "--grad-transport", transport});
        TEST_REQUIRE_MSG(plain.ok, plain.ranks[0].describe());
        const std::int64_t plainBytes =
            plain.ranks[0].last("step")->body["bytes_allreduced"].get<std::int64_t>();
        TEST_REQUIRE(plainBytes > 0);
        TEST_REQUIRE_EQ(plain.ranks[0].paramsDigest().size(), std::size_t(64));
        TEST_REQUIRE_EQ(plain.ranks[0].paramsDigest(), plain.ranks[1].paramsDigest());
        for (const std::string wire : {"fp16", "bf16"})
            testRow(transport + " " + wire, [&] {
                const TwoRanks run =
                    trainTwo({"--steps", "6", "--grad-transport", transport, "--grad-compression", wire});
                if (wire == "bf16" && transport == "gloo" && torch < 200) {
                    TEST_REQUIRE(!run.ok);
                    for (const RankResult& r : run.ranks) {
                        TEST_REQUIRE_EQ(r.exitCode, 2);
                        TEST_REQUIRE_EQ(r.errorCode(), std::string("BAD_INPUT"));
                        TEST_REQUIRE_MSG(contains(r.errorMessage(), "cannot sum bfloat16 (LibTorch 2.x can)"),
                                         r.describe());
                    }
                    return;
                }
                TEST_REQUIRE_MSG(run.ok, run.ranks[0].describe() + "\n" + run.ranks[1].describe());
                for (const RankResult& r : run.ranks) {
                    TEST_REQUIRE_EQ(planValue(r, "grad_transport"),
                                    std::string(transport == "shm" ? "shared_memory" : "gloo"));
                    TEST_REQUIRE_EQ(planValue(r, "grad_compression"), wire);
                    for (const auto& e : r.ofType("step"))
                        TEST_REQUIRE_EQ(e.body["bytes_allreduced"].get<std::int64_t>(), plainBytes / 2);
                }
                TEST_REQUIRE_EQ(run.ranks[0].paramsDigest().size(), std::size_t(64));
                TEST_REQUIRE_EQ(run.ranks[0].paramsDigest(), run.ranks[1].paramsDigest());
                // Rounded on the way, so not the uncompressed parameters, but close to them.
                const double diff = maxRelativeDifference(run.params, plain.params);
                std::cout << transport << " " << wire << ": relative difference to uncompressed " << diff
                          << std::endl;
                TEST_REQUIRE_MSG(diff > 0 && diff < 0.05, "relative difference " + std::to_string(diff));
            });
    }
}

TEST_CASE(checkpointRemembersCompression) {
    TempDir out;
    const TwoRanks first = trainTwo({"--steps", "2", "--grad-compression", "fp16"}, &out);
    TEST_REQUIRE_MSG(first.ok, first.ranks[0].describe());
    const TwoRanks other = trainTwo({"--steps", "4", "--resume"}, &out);
    TEST_REQUIRE(!other.ok);
    TEST_REQUIRE_EQ(other.ranks[0].errorCode(), std::string("CHECKPOINT_MISMATCH"));
    TEST_REQUIRE_MSG(contains(other.ranks[0].errorMessage(), "grad_compression"), other.ranks[0].describe());
}

TEST_CASE(unknownCompressionIsRefused) {
    const RankResult r = runWorker({"--workload", "fashion-mnist", "--grad-compression", "int8"});
    TEST_REQUIRE_EQ(r.exitCode, 2);
    TEST_REQUIRE_EQ(r.errorCode(), std::string("BAD_INPUT"));
    TEST_REQUIRE_MSG(
        contains(r.errorMessage(), "--grad-compression 'int8' is not valid; use none, fp16 or bf16"),
        r.describe());
}

DDPDESK_TEST_MAIN()
