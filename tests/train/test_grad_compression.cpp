// Compressed gradients (--grad-compression fp16|bf16), over shared memory (the worker's own program with its
// ranks as threads, thread_ranks.h) and over Gloo (real worker processes: which types it sums is Gloo's):
// half the bytes per step, values really rounded (the parameters differ from an uncompressed run, slightly),
// and every rank still ends with the same parameters bit for bit (the workers' params_sha256). Which 16-bit
// types Gloo sums depends on the LibTorch build: 1.13 sums float16, not bfloat16; PyTorch's own 2.x builds
// and Debian's 2.6 sum both; Debian's 2.14 (Gloo without PyTorch's dtypes) neither. What Gloo cannot sum is
// refused by name (the test's Python, the same LibTorch as the worker in every leg, says what to expect), and
// works over shared memory. A checkpoint remembers the compression. The 1-epoch accuracy comparison is in
// train.fashion_accuracy (slow).

#include "worker_harness_std.h"

using namespace ddpdesk;
using namespace ddpdesk::traintest;
using ddpdesk::testsupport::TempDir;
using ddpdesk::testsupport::testRow;

namespace {

// Two CNN ranks on 384 samples, every step reported; into `keep` when given (the resume case).
TwoRanks trainTwo(const Args& extra, const TempDir* keep = nullptr, RanksAs as = RanksAs::Threads) {
    return trainTwoRanks(
        "fashion-mnist",
        Args{"--seed", "9", "--telemetry-ms", "0", "--limit-samples", "384", "--batch-size", "32"} + extra,
        keep, as);
}

// Gloo's own type list decides what travels over it: those ranks are real workers.
RanksAs ranksFor(const std::string& transport) {
    return transport == "gloo" ? RanksAs::Processes : RanksAs::Threads;
}

// The 16-bit wire types ("fp16", "bf16") a ProcessGroupGloo of the test's PyTorch sums, asked of Python with
// a one-rank group on loopback: an oracle apart from the worker's own probe (c10d_compat's
// GlooGroup::glooCannotSum).
std::vector<std::string> pythonGlooSums() {
    const std::string out = runPython(R"(
import datetime, os
os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
import torch, torch.distributed as dist
pg = dist.ProcessGroupGloo(dist.HashStore(), 0, 1, datetime.timedelta(seconds=30))
for name, dtype in (("fp16", torch.float16), ("bf16", torch.bfloat16)):
    try:
        pg.allreduce([torch.ones(2, dtype=dtype)]).wait()
        print("sums", name)
    except RuntimeError as e:
        if "Invalid scalar type" not in str(e):
            raise
# PyTorch 2.14 sometimes hangs in interpreter shutdown after a Gloo group (no Python frame left; 4 of 24 runs
# under load here): the answer is printed, so leave without the shutdown.
import sys
sys.stdout.flush()
os._exit(0)
)");
    std::vector<std::string> sums;
    for (const std::string& line : splitLines(out))
        if (line.rfind("sums ", 0) == 0) sums.push_back(line.substr(5));
    return sums;
}

std::string planValue(const RankResult& r, const char* key) {
    for (const auto& e : r.ofType("rendezvous"))
        if (e.body.value("phase", "") == "done") return e.body.value(key, "");
    return "(no plan)";
}

} // namespace

TEST_CASE(halfTheBytesSameParametersOnEveryRank) {
    const int torch = workerTorchVersion();
    const std::vector<std::string> glooSums = pythonGlooSums();
    std::cout << "LibTorch " << torch / 100 << "." << torch % 100 << ": Gloo sums";
    for (const std::string& w : glooSums)
        std::cout << " " << w;
    std::cout << std::endl;
    if (torch < 200) // what 1.13 has always done: the oracle itself is checked where it is known
        TEST_CHECK(glooSums == std::vector<std::string>{"fp16"});
    for (const std::string transport : {"shm", "gloo"}) {
        const TwoRanks plain =
            trainTwo({"--steps", "6", "--grad-transport", transport}, nullptr, ranksFor(transport));
        TEST_REQUIRE_MSG(plain.ok, plain.ranks[0].describe());
        const std::int64_t plainBytes =
            plain.ranks[0].last("step")->body["bytes_allreduced"].get<std::int64_t>();
        TEST_REQUIRE(plainBytes > 0);
        TEST_REQUIRE_EQ(plain.ranks[0].paramsDigest().size(), std::size_t(64));
        TEST_REQUIRE_EQ(plain.ranks[0].paramsDigest(), plain.ranks[1].paramsDigest());
        for (const std::string wire : {"fp16", "bf16"})
            testRow(transport + " " + wire, [&] {
                const TwoRanks run =
                    trainTwo({"--steps", "6", "--grad-transport", transport, "--grad-compression", wire},
                             nullptr, ranksFor(transport));
                const bool sums = std::find(glooSums.begin(), glooSums.end(), wire) != glooSums.end();
                if (transport == "gloo" && !sums) {
                    TEST_REQUIRE(!run.ok);
                    const std::string type = wire == "bf16" ? "bfloat16" : "float16";
                    // bf16 where fp16 works points at fp16; otherwise at no compression.
                    const bool fp16Sums =
                        std::find(glooSums.begin(), glooSums.end(), "fp16") != glooSums.end();
                    const std::string instead = wire == "bf16" && fp16Sums ? "fp16" : "none";
                    for (const RankResult& r : run.ranks) {
                        TEST_REQUIRE_EQ(r.exitCode, 2);
                        TEST_REQUIRE_EQ(r.errorCode(), std::string("BAD_INPUT"));
                        TEST_REQUIRE_MSG(
                            contains(r.errorMessage(),
                                     "--grad-compression " + wire + ": Gloo in LibTorch ") &&
                                contains(r.errorMessage(), " cannot sum " + type + " (") &&
                                contains(r.errorMessage(), "; use --grad-compression " + instead),
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
    const RankResult r = runWorkerAsThread({"--workload", "fashion-mnist", "--grad-compression", "int8"});
    TEST_REQUIRE_EQ(r.exitCode, 2);
    TEST_REQUIRE_EQ(r.errorCode(), std::string("BAD_INPUT"));
    TEST_REQUIRE_MSG(
        contains(r.errorMessage(), "--grad-compression 'int8' is not valid; use none, fp16 or bf16"),
        r.describe());
}

DDPDESK_TEST_MAIN()
