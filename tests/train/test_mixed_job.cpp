// A mixed job: one ddpdesk-worker rank and one rank written in Python with PyTorch's own torch.distributed
// (python_rank.py) train together. It proves the worker speaks plain c10d and Gloo that any PyTorch
// understands: the store records, the rank proof, the process group, the broadcast, the bucketed gradient
// allreduce and the epoch-end collectives. Both ranks end with bit-identical parameters and read the same
// allreduced epoch figures. Plain C++ (the Qt-free harness): registered in both configurations, so the torch2
// leg runs it with a worker built against LibTorch 2.6 beside a Python 2.6 rank.

#include "worker_harness_std.h"

#include "protocol/run_auth.h"

#include <nlohmann/json.hpp>

#include <cmath>

using namespace ddpdesk;
using namespace ddpdesk::traintest;
using ddpdesk::testsupport::TempDir;
using ddpdesk::testsupport::testRow;

namespace {

std::string pythonRank() {
    return std::string(DDPDESK_TRAIN_TEST_DIR) + "/python_rank.py";
}

// The one JSON line python_rank.py prints when it finishes; null without one.
nlohmann::json pythonReport(const RankResult& r) {
    for (const std::string& line : splitLines(r.stdoutText)) {
        nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_object() && j.contains("params_sha256")) return j;
    }
    return nullptr;
}

bool near(double a, double b) {
    return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(a));
}

struct MixedJob {
    RankResult worker, python;
};

// Rank `workerRank` is a ddpdesk-worker, the other a Python rank, on `store`; both get the run secret (the
// Python rank `pythonSecret` when given, to play a rank that does not belong).
MixedJob runMixed(const std::string& store, int workerRank, const TempDir& out, const Args& training,
                  const std::string& pythonSecret = {}) {
    const std::string secret = protocol::newRunSecretHex();
    const int pyRank = 1 - workerRank;
    WorkerSet set;
    auto startPython = [&] {
        set.start(Args{pythonRank(), "--store", store, "--rank", std::to_string(pyRank), "--world-size", "2",
                       "--data", fashionDir(), "--workload", "fashion-mnist"} +
                      training,
                  EnvChanges{{protocol::kRunSecretEnv, pythonSecret.empty() ? secret : pythonSecret},
                             {"GLOO_SOCKET_IFNAME", "lo"}},
                  pythonPath());
    };
    EnvChanges workerEnv = withoutRankVariables();
    workerEnv.emplace_back(protocol::kRunSecretEnv, secret);
    // Rank 0 first: on a TCP store it is the one that listens.
    if (pyRank == 0) startPython();
    set.start(Args{"--workload", "fashion-mnist", "--store", store, "--rank", std::to_string(workerRank),
                   "--world-size", "2", "--out", out.str(), "--telemetry-ms", "0", "--threads", "1"} +
                  training,
              workerEnv);
    if (pyRank == 1) startPython();
    std::vector<RankResult> results = set.waitAll(240000);
    MixedJob job;
    job.python = results[pyRank == 0 ? 0 : 1];
    job.worker = results[pyRank == 0 ? 1 : 0];
    return job;
}

const Args kTraining{"--limit-samples", "256", "--batch-size", "16", "--epochs", "1", "--seed", "7"};

} // namespace

TEST_CASE(workerAndPythonRankTrainTogether) {
    struct Row {
        const char* name;
        bool tcp;
        int workerRank;
    };
    for (const Row& row :
         {Row{"FileStore, worker is rank 0", false, 0}, Row{"TCPStore hosted by Python", true, 1}}) {
        testRow(row.name, [&] {
            TempDir dir;
            const std::string store =
                row.tcp ? "tcp://127.0.0.1:" + std::to_string(freePort()) : "file:" + dir.filePath("store");
            const MixedJob job = runMixed(store, row.workerRank, dir, kTraining);
            TEST_REQUIRE_MSG(job.worker.exitCode == 0, "worker: " + job.worker.describe());
            TEST_REQUIRE_MSG(job.python.exitCode == 0, "python rank: " + job.python.describe());
            const nlohmann::json py = pythonReport(job.python);
            TEST_REQUIRE_MSG(py.is_object(), job.python.describe());

            // 256 samples over 2 ranks in batches of 16: 8 steps each, then the epoch's collectives.
            const protocol::Event* done = job.worker.last("done");
            TEST_REQUIRE(done != nullptr);
            TEST_CHECK_EQ(done->body.value("steps", -1), 8);
            TEST_CHECK_EQ(py.value("steps", -1), 8);
            // Same broadcast start, same averaged gradients, same SGD arithmetic: the same bits.
            TEST_CHECK_MSG(!job.worker.paramsDigest().empty(), job.worker.describe());
            TEST_CHECK_EQ(py.value("params_sha256", std::string()), job.worker.paramsDigest());

            // The epoch-end allreduces gave both the same figures.
            const protocol::Event* epoch = job.worker.last("epoch");
            TEST_REQUIRE(epoch != nullptr);
            const double trainLoss = epoch->body.value("train_loss", std::nan(""));
            const double accuracy = epoch->body.value("test_accuracy", std::nan(""));
            TEST_CHECK_MSG(near(trainLoss, py.value("train_loss", std::nan(""))),
                           std::to_string(trainLoss) + " vs " + py.dump());
            TEST_CHECK_MSG(near(accuracy, py.value("test_accuracy", std::nan(""))),
                           std::to_string(accuracy) + " vs " + py.dump());
            TEST_CHECK_MSG(std::isfinite(trainLoss) && trainLoss < 2.3, std::to_string(trainLoss));
            TEST_CHECK_MSG(accuracy > 0.1, std::to_string(accuracy)); // better than chance (10 classes)

            // The Python rank declined shared memory, so the worker fell back to Gloo and said why.
            std::string transport, note;
            for (const auto& e : job.worker.ofType("rendezvous"))
                if (e.body.value("phase", "") == "done") {
                    transport = e.body.value("grad_transport", "");
                    note = e.body.value("grad_transport_note", "");
                }
            TEST_CHECK_EQ(transport, std::string("gloo"));
            TEST_CHECK_MSG(contains(note, "1 of 2 ranks declined shared memory"), note);

            // The Python rank did rank 1's share of the work as a worker would (its own sampler shard, the
            // same loss): the job ends where two workers end, up to summation order (oneDNN's Linear in the
            // worker, BLAS in Python).
            if (row.workerRank != 0) return; // rank 0 writes model.pt
            const TwoRanks workers = trainTwoRanks("fashion-mnist", kTraining + Args{"--threads", "1"});
            TEST_REQUIRE(workers.ok);
            const double diff = maxRelativeDifference(
                workers.params, loadModelFile("fashion-mnist", dir.filePath("model.pt")));
            std::cout << "max relative parameter difference to a worker pair: " << diff << std::endl;
            TEST_CHECK_MSG(diff < 1e-4, std::to_string(diff));
        });
    }
}

// A Python rank holding another secret cannot prove it belongs: the worker refuses it before the process
// group forms, and the Python rank refuses the worker the same way (each verifies the other's HMAC).
TEST_CASE(aRankWithAnotherSecretIsRefusedBothWays) {
    TempDir dir;
    const MixedJob job =
        runMixed("file:" + dir.filePath("store"), 0, dir, kTraining, protocol::newRunSecretHex());
    TEST_CHECK_MSG(job.worker.errorCode() == "FOREIGN_RANK", job.worker.describe());
    TEST_CHECK_MSG(contains(job.worker.errorMessage(), "rank 1"), job.worker.errorMessage());
    TEST_CHECK_MSG(job.python.exitCode == 1 && contains(job.python.stderrText, "FOREIGN_RANK rank 0"),
                   job.python.describe());
}

DDPDESK_TEST_MAIN()
