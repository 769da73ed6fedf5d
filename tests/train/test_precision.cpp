// Mixed precision (--precision fp32|bf16|fp16). In process: the version-guarded autocast switch really makes
// a matmul bf16 and restores the previous state, and the fp16 loss scaler skips a step whose gradients
// overflowed, halves its scale and grows it back after clean steps. On the worker's own program with its
// ranks as threads (thread_ranks.h; autocast is per thread, as per process): bf16 autocast trains the CNN and
// the autoencoder with every rank bit-identical, close to but not equal to fp32 (so autocast was on); fp16
// without CUDA and unknown values are refused naming the flag; a checkpoint remembers the precision. The
// torch2 leg runs this file against LibTorch 2.6, whose autocast API differs. 1-epoch accuracy is in
// train.fashion_accuracy (slow).

#include "worker_harness_std.h"

#include "model_tensors.h"
#include "train/engine/precision.h"

#include <torch/torch.h>

using namespace ddpdesk;
using namespace ddpdesk::traintest;
using ddpdesk::testsupport::TempDir;
using ddpdesk::testsupport::testRow;

namespace {

TwoRanks trainTwo(const std::string& workload, const Args& extra, const TempDir* keep = nullptr) {
    return trainTwoRanks(
        workload,
        Args{"--seed", "5", "--telemetry-ms", "0", "--limit-samples", "384", "--batch-size", "32"} + extra,
        keep, RanksAs::Threads);
}

} // namespace

TEST_CASE(autocastScopeSwitchesAndRestores) {
    const at::Tensor a = at::randn({8, 8});
    TEST_REQUIRE_EQ(at::matmul(a, a).scalar_type(), at::kFloat);
    {
        train::AutocastScope outer(c10::Device(c10::kCPU), c10::kBFloat16);
        TEST_REQUIRE_EQ(at::matmul(a, a).scalar_type(), at::kBFloat16);
        {
            train::AutocastScope off(c10::Device(c10::kCPU), std::nullopt); // fp32: does nothing
            TEST_REQUIRE_EQ(at::matmul(a, a).scalar_type(), at::kBFloat16);
        }
        TEST_REQUIRE_EQ(at::matmul(a, a).scalar_type(), at::kBFloat16);
    }
    TEST_REQUIRE_EQ(at::matmul(a, a).scalar_type(), at::kFloat);
    TEST_REQUIRE(!train::autocastType("fp32"));
    TEST_REQUIRE(train::autocastType("bf16") == c10::kBFloat16);
    TEST_REQUIRE(train::autocastType("fp16") == c10::kHalf);
    TEST_REQUIRE(!train::precisionProblem("fp16", c10::Device(c10::kCPU)).empty());
    TEST_REQUIRE(train::precisionProblem("bf16", c10::Device(c10::kCPU)).empty());
}

TEST_CASE(lossScalerSkipsOverflowAndGrowsBack) {
    train::LossScaler scaler(true, 1024.0, 3);
    at::Tensor w = at::ones({4}).set_requires_grad(true);
    auto backward = [&](double factor) {
        w.mutable_grad() = at::Tensor();
        scaler.scale((w * factor).sum()).backward();
    };
    backward(2.0);
    TEST_REQUIRE_EQ(w.grad()[0].item<double>(), 2048.0); // scaled
    TEST_REQUIRE(scaler.unscale({w}));
    TEST_REQUIRE_EQ(w.grad()[0].item<double>(), 2.0); // back to the true gradient
    scaler.update(true);

    backward(std::numeric_limits<double>::infinity());
    TEST_REQUIRE(!scaler.unscale({w})); // overflow: the step is skipped
    scaler.update(false);
    TEST_REQUIRE_EQ(scaler.currentScale(), 512.0);
    TEST_REQUIRE_EQ(scaler.skippedSteps(), std::int64_t(1));
    TEST_REQUIRE_EQ(scaler.consecutiveSkips(), std::int64_t(1));

    for (int i = 0; i < 3; ++i) {
        backward(1.0);
        TEST_REQUIRE(scaler.unscale({w}));
        scaler.update(true);
    }
    TEST_REQUIRE_EQ(scaler.currentScale(), 1024.0); // three clean steps in a row: doubled
    TEST_REQUIRE_EQ(scaler.skippedSteps(), std::int64_t(1));
    TEST_REQUIRE_EQ(scaler.consecutiveSkips(), std::int64_t(0));
    // Gradients that stay inf whatever the scale: the count the trainer stops at (kMaxConsecutiveSkips).
    for (std::int64_t i = 0; i < train::LossScaler::kMaxConsecutiveSkips; ++i) {
        backward(std::numeric_limits<double>::infinity());
        TEST_REQUIRE(!scaler.unscale({w}));
        scaler.update(false);
    }
    TEST_REQUIRE_EQ(scaler.consecutiveSkips(), train::LossScaler::kMaxConsecutiveSkips);

    train::LossScaler off(false);
    const at::Tensor loss = at::full({}, 3.0);
    TEST_REQUIRE_EQ(off.scale(loss).item<double>(), 3.0);
}

TEST_CASE(bf16AutocastTrainsWithRanksIdentical) {
    for (const std::string workload : {"fashion-mnist", "autoencoder"})
        testRow(workload, [&] {
            const TwoRanks plain = trainTwo(workload, {"--steps", "6"});
            TEST_REQUIRE_MSG(plain.ok, plain.ranks[0].describe());
            const TwoRanks bf16 = trainTwo(workload, {"--steps", "6", "--precision", "bf16"});
            TEST_REQUIRE_MSG(bf16.ok, bf16.ranks[0].describe() + "\n" + bf16.ranks[1].describe());
            for (const RankResult& r : bf16.ranks) {
                bool planned = false;
                for (const auto& e : r.ofType("rendezvous"))
                    if (e.body.value("phase", "") == "done")
                        planned = e.body.value("precision", "") == std::string("bf16");
                TEST_REQUIRE_MSG(planned, r.describe());
                for (const auto& e : r.ofType("step")) {
                    TEST_REQUIRE(e.body["loss"].is_number()); // the loss comes back as a finite fp32 value
                    TEST_REQUIRE(!e.body.contains("loss_scale")); // no loss scaling in bf16
                    // The weights stay fp32: the bytes exchanged are those of the fp32 run.
                    TEST_REQUIRE_EQ(e.body["bytes_allreduced"],
                                    plain.ranks[0].last("step")->body["bytes_allreduced"]);
                }
            }
            TEST_REQUIRE_EQ(bf16.ranks[0].paramsDigest().size(), std::size_t(64));
            TEST_REQUIRE_EQ(bf16.ranks[0].paramsDigest(), bf16.ranks[1].paramsDigest());
            for (const auto& [name, t] : bf16.params.tensors().byName)
                TEST_REQUIRE_MSG(t.scalar_type() == at::kFloat, name + " is not fp32 (master weights)");
            const double diff = maxRelativeDifference(bf16.params, plain.params);
            std::cout << workload << " bf16 autocast: relative difference to fp32 after 6 steps " << diff
                      << std::endl;
            TEST_REQUIRE_MSG(diff > 0 && diff < 0.05, "relative difference " + std::to_string(diff));
        });
}

TEST_CASE(fp16WithoutCudaAndUnknownValuesAreRefused) {
    const RankResult fp16 = runWorkerAsThread(
        {"--workload", "autoencoder", "--steps", "1", "--precision", "fp16", "--device", "cpu"});
    TEST_REQUIRE_EQ(fp16.exitCode, 2);
    TEST_REQUIRE_EQ(fp16.errorCode(), std::string("BAD_INPUT"));
    TEST_REQUIRE_MSG(contains(fp16.errorMessage(), "--precision fp16 needs a CUDA device"), fp16.describe());
    TEST_REQUIRE_MSG(contains(fp16.errorMessage(), "--precision bf16"), fp16.describe());

    const RankResult bad = runWorkerAsThread({"--workload", "autoencoder", "--precision", "fp8"});
    TEST_REQUIRE_EQ(bad.exitCode, 2);
    TEST_REQUIRE_MSG(contains(bad.errorMessage(), "--precision 'fp8' is not valid; use fp32, bf16 or fp16"),
                     bad.describe());
}

TEST_CASE(checkpointRemembersPrecision) {
    TempDir out;
    const TwoRanks first = trainTwo("autoencoder", {"--steps", "2", "--precision", "bf16"}, &out);
    TEST_REQUIRE_MSG(first.ok, first.ranks[0].describe());
    const TwoRanks other = trainTwo("autoencoder", {"--steps", "4", "--resume"}, &out);
    TEST_REQUIRE(!other.ok);
    TEST_REQUIRE_EQ(other.ranks[0].errorCode(), std::string("CHECKPOINT_MISMATCH"));
    TEST_REQUIRE_MSG(contains(other.ranks[0].errorMessage(), "precision was \"bf16\", now \"fp32\""),
                     other.ranks[0].describe());
    const TwoRanks same = trainTwo("autoencoder", {"--steps", "4", "--resume", "--precision", "bf16"}, &out);
    TEST_REQUIRE_MSG(same.ok, same.ranks[0].describe());
}

DDPDESK_TEST_MAIN()
