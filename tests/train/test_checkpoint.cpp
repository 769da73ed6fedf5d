// Checkpoints: --resume continues exactly (k steps, stop, resume to 2k == 2k straight, bit for bit, and the
// loss curve continues), --checkpoint-every writes atomically (no temporary files left), a damaged checkpoint
// is reported as CHECKPOINT_CORRUPT by every rank and left untouched, and a checkpoint from other settings is
// refused. The ranks are threads running the worker's own program (thread_ranks.h); the model a real worker
// writes is checked against PyTorch's reference CNN by a real worker process.

#include "os/utf8_path.h"
#include "worker_harness_std.h"

#include <filesystem>

using namespace ddpdesk;
using namespace ddpdesk::traintest;
using ddpdesk::testsupport::TempDir;
using ddpdesk::testsupport::testRow;

namespace {

const Args kJob = {"--workload",      "fashion-mnist",
                   "--limit-samples", "320",
                   "--batch-size",    "16",
                   "--seed",          "3",
                   "--telemetry-ms",  "0"};

// Two ranks as threads: no store, so the "only checkpoint.pt and model.pt are left" check sees what the
// trainer wrote and nothing of c10d's.
std::vector<RankResult> runTwo(const TempDir& out, const Args& extra) {
    return runRanksAsThreads(2, kJob + extra + Args{"--out", out.str()});
}

std::map<int, double> lossByStep(const RankResult& r) {
    std::map<int, double> out;
    for (const auto& e : r.ofType("step"))
        out[e.body["step"].get<int>()] = e.body["loss"].get<double>();
    return out;
}

} // namespace

TEST_CASE(resumeContinuesExactly) {
    TempDir straight, split;
    // 320 samples / 2 ranks / 16 = 10 steps per epoch: 14 steps cross an epoch boundary after the resume.
    auto a = runTwo(straight, {"--steps", "14"});
    TEST_REQUIRE_MSG(a[0].exitCode == 0, a[0].describe());
    auto b1 = runTwo(split, {"--steps", "7"});
    TEST_REQUIRE_MSG(b1[0].exitCode == 0, b1[0].describe());
    auto b2 = runTwo(split, {"--steps", "14", "--resume"});
    TEST_REQUIRE_MSG(b2[0].exitCode == 0 && b2[1].exitCode == 0, b2[0].describe() + b2[1].describe());

    const protocol::Event* resumed = b2[0].last("checkpoint");
    TEST_REQUIRE(!b2[0].ofType("checkpoint").empty());
    TEST_REQUIRE_EQ(b2[0].ofType("checkpoint").front().body.value("resumed", false), true);
    TEST_REQUIRE_EQ(b2[0].ofType("checkpoint").front().body["step"].get<int>(), 7);
    TEST_REQUIRE(resumed);
    TEST_REQUIRE(!b2[0].ofType("step").empty());
    TEST_REQUIRE_EQ(b2[0].ofType("step").front().body["step"].get<int>(), 8);

    // The resumed run's losses are the straight run's, step for step, on both ranks.
    for (int r = 0; r < 2; ++r) {
        auto full = lossByStep(a[r]);
        auto first = lossByStep(b1[r]);
        auto rest = lossByStep(b2[r]);
        for (int s = 1; s <= 14; ++s) {
            const auto& part = s <= 7 ? first : rest;
            TEST_REQUIRE_MSG(part.count(s) && full.count(s), "no loss for step " + std::to_string(s));
            TEST_REQUIRE_EQ(part.at(s), full.at(s));
        }
    }
    auto pa = loadModelFile("fashion-mnist", straight.filePath("model.pt"));
    auto pb = loadModelFile("fashion-mnist", split.filePath("model.pt"));
    TEST_REQUIRE_EQ(maxRelativeDifference(pa, pb), 0.0);
}

TEST_CASE(checkpointEveryIsAtomic) {
    TempDir out;
    auto r = runTwo(out, {"--steps", "6", "--checkpoint-every", "2"});
    TEST_REQUIRE_MSG(r[0].exitCode == 0, r[0].describe());
    std::vector<int> steps;
    for (const auto& e : r[0].ofType("checkpoint"))
        steps.push_back(e.body["step"].get<int>());
    TEST_REQUIRE_EQ(steps, (std::vector<int>{2, 4, 6}));
    TEST_REQUIRE(r[1].ofType("checkpoint").empty()); // only rank 0 writes
    std::vector<std::string> left;
    for (const auto& entry : std::filesystem::directory_iterator(out.path()))
        if (entry.is_regular_file()) left.push_back(ddpdesk::os::utf8(entry.path().filename()));
    std::sort(left.begin(), left.end());
    // The mark lists what DDP Desk wrote, so the next run may replace it (protocol/output_mark.h).
    TEST_REQUIRE_EQ(left, (std::vector<std::string>{".ddpdesk-output", "checkpoint.pt", "model.pt"}));
}

TEST_CASE(corruptCheckpointIsReported) {
    for (const std::string damage : {"garbage", "truncated"})
        testRow(damage, [&] {
            TempDir out;
            auto first = runTwo(out, {"--steps", "2"});
            TEST_REQUIRE_MSG(first[0].exitCode == 0, first[0].describe());
            const std::string path = out.filePath("checkpoint.pt");
            const std::string good = fileBytes(path);
            std::string bad;
            if (damage == "garbage")
                for (int i = 0; i < 100; ++i)
                    bad += "this is not a checkpoint\n";
            else
                bad = good.substr(0, good.size() / 2);
            TEST_REQUIRE(writeFileBytes(path, bad));
            auto r = runTwo(out, {"--steps", "4", "--resume"});
            for (const RankResult& rr : r) {
                TEST_REQUIRE_MSG(rr.exitCode == 4, rr.describe());
                TEST_REQUIRE_EQ(rr.errorCode(), std::string("CHECKPOINT_CORRUPT"));
            }
            TEST_REQUIRE(fileBytes(path) == bad); // never overwritten by a failed resume
        });
}

TEST_CASE(otherSettingsAreRefused) {
    TempDir out;
    auto first = runTwo(out, {"--steps", "2"});
    TEST_REQUIRE_MSG(first[0].exitCode == 0, first[0].describe());
    auto r =
        runRanksAsThreads(2, Args{"--workload", "fashion-mnist", "--limit-samples", "320", "--batch-size",
                                  "8", "--seed", "3", "--steps", "4", "--resume", "--out", out.str()});
    TEST_REQUIRE_MSG(r[0].exitCode == 2, r[0].describe());
    TEST_REQUIRE_EQ(r[0].errorCode(), std::string("CHECKPOINT_MISMATCH"));
}

TEST_CASE(finalModelLoadsIntoPythonReference) {
    // model.pt keeps PyTorch's parameter names: the Python reference CNN takes its state dict as is.
    TempDir out;
    RankResult r = runWorker(kJob + Args{"--steps", "2", "--out", out.str()});
    TEST_REQUIRE_MSG(r.exitCode == 0, r.describe());
    const std::string answer =
        runPython("import sys, torch\n"
                  "from torch import nn\n"
                  "ref = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),\n"
                  "    nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),\n"
                  "    nn.Linear(3136, 128), nn.ReLU(), nn.Linear(128, 10))\n"
                  "sd = torch.jit.load(sys.argv[1]).state_dict()\n"
                  "ref.load_state_dict(sd)\n"
                  "print(float(ref[9].bias.sum()))\n",
                  {out.filePath("model.pt")});
    auto mine = loadModelFile("fashion-mnist", out.filePath("model.pt"));
    TEST_REQUIRE(!trimmed(answer).empty());
    TEST_REQUIRE(mine.sumOf("9.bias").has_value());
    TEST_REQUIRE_EQ(std::stod(trimmed(answer)), *mine.sumOf("9.bias"));
}

TEST_CASE(resumeWithoutCheckpointStartsFresh) {
    TempDir out;
    RankResult r = runWorkerAsThread(kJob + Args{"--steps", "2", "--resume", "--out", out.str()});
    TEST_REQUIRE_MSG(r.exitCode == 0, r.describe());
    TEST_REQUIRE(!r.ofType("step").empty());
    TEST_REQUIRE_EQ(r.ofType("step").front().body["step"].get<int>(), 1);
    TEST_REQUIRE(contains(r.stderrText, "no checkpoint"));
}

DDPDESK_TEST_MAIN()
