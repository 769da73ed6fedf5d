// The reducer in one process, the way PyTorch tests its own Reducer against a fake process group: N ranks
// are threads, each with its own model copy and DdpReducer, and buckets travel through an in-process
// GradientTransport written here. No worker, no store, no Gloo: a broken reducer, compression hook,
// accumulation or loss scaling shows here as a wrong number instead of a wrong model after minutes of real
// ranks. Each rank's data differs; every expectation is computed apart from the reducer, from plain
// backward passes of the same model on the same data.

#include "mini_test.h"

#include "train/engine/compressed_transport.h"
#include "train/engine/ddp_reducer.h"
#include "train/engine/precision.h"

#include <torch/torch.h>

#include <condition_variable>
#include <limits>
#include <map>
#include <mutex>
#include <thread>

using namespace ddpdesk;
using ddpdesk::testsupport::testRow;

namespace {

using Clock = std::chrono::steady_clock;

// What the process group would do: collect every rank's launch of a bucket, and hand each rank the sum in
// rank order (so every rank computes bit-identical values, as the shared-memory exchange does).
class InProcessGroup {
public:
    explicit InProcessGroup(int world) : m_world(world) {}

    void put(std::uint64_t step, std::size_t bucket, int rank, at::Tensor part) {
        std::lock_guard<std::mutex> lock(m_mutex);
        Entry& e = m_table[{step, bucket}];
        e.parts.resize(static_cast<std::size_t>(m_world));
        e.parts[static_cast<std::size_t>(rank)] = std::move(part);
        ++e.arrived;
        m_changed.notify_all();
    }

    at::Tensor sum(std::uint64_t step, std::size_t bucket, Clock::time_point deadline) {
        std::unique_lock<std::mutex> lock(m_mutex);
        const auto key = std::make_pair(step, bucket);
        // A bug that loses a launch must fail the case, not hang it until ctest's timeout.
        if (!m_changed.wait_until(lock, deadline, [&] { return m_table[key].arrived == m_world; }))
            throw train::CommError(train::CommFailure::Timeout,
                                   "bucket " + std::to_string(bucket) + " never arrived from every rank");
        Entry& e = m_table[key];
        at::Tensor acc = e.parts[0].clone();
        for (std::size_t r = 1; r < e.parts.size(); ++r)
            acc.add_(e.parts[r]);
        if (++e.read == m_world) m_table.erase(key);
        return acc;
    }

private:
    struct Entry {
        std::vector<at::Tensor> parts;
        int arrived = 0;
        int read = 0;
    };
    int m_world;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::map<std::pair<std::uint64_t, std::size_t>, Entry> m_table;
};

struct Launch {
    std::size_t bucket;
    at::Tensor sent; // what this rank put on the wire, as it was at launch
    bool duringBackward;
};

// One rank's view, written by its own thread and read by the test after the threads joined.
struct RankLog {
    std::vector<Launch> launches;
    bool backwardDone = false;
};

class InProcessTransport final : public train::GradientTransport {
public:
    InProcessTransport(InProcessGroup& group, int rank, RankLog& log)
        : m_group(group), m_rank(rank), m_log(log) {}
    const char* waitName() const override { return "the in-process exchange"; }
    const char* name() const override { return "in_process"; }
    void beginStep() override { ++m_step; }
    void launch(std::size_t b, const at::Tensor& flat) override {
        m_log.launches.push_back({b, flat.clone(), !m_log.backwardDone});
        m_group.put(m_step, b, m_rank, flat.clone());
    }
    at::Tensor finish(std::size_t b, const at::Tensor&, Clock::time_point deadline) override {
        return m_group.sum(m_step, b, deadline);
    }

private:
    InProcessGroup& m_group;
    int m_rank;
    RankLog& m_log;
    std::uint64_t m_step = 0;
};

torch::nn::Sequential makeNet() {
    torch::manual_seed(7); // every rank starts from the same weights, as after DDP's broadcast
    return torch::nn::Sequential(torch::nn::Linear(16, 32), torch::nn::Tanh(), torch::nn::Linear(32, 32),
                                 torch::nn::Tanh(), torch::nn::Linear(32, 4));
}

// Parameters in registration order: w0 512, b0 32, w1 1024, b1 32, w2 128, b2 4 floats. With 600-byte
// buckets, packed from the last: b2+w2+b1 = 656 B reach the cap, w1 alone 4096 B, then b0+w0 = 2176 B.
constexpr std::int64_t kBucketBytes = 600;
const std::vector<std::vector<std::size_t>> kExpectedBuckets = {{5, 4, 3}, {2}, {1, 0}};
constexpr std::int64_t kSamples = 8;

struct Setup {
    int world = 4;
    bool overlap = true;
    std::optional<c10::ScalarType> wire;     // --grad-compression
    int microBatches = 1;                    // --accumulate
    std::optional<c10::ScalarType> autocast; // --precision bf16
    bool lossScaling = false;                // fp16's LossScaler
    int overflowRank = -1;                   // this rank's scaled loss overflows
};

struct RankResult {
    std::vector<at::Tensor> grads;
    RankLog log;
    train::ReducerStats stats;
    std::vector<std::size_t> bucketBytes;
    bool stepTaken = true;
    double scale = 0;
    std::string error;
};

// Rank r's data, drawn in the main thread: the global generator is not for threads.
std::vector<std::pair<at::Tensor, at::Tensor>> rankData(int world) {
    torch::manual_seed(100);
    std::vector<std::pair<at::Tensor, at::Tensor>> d;
    for (int r = 0; r < world; ++r) {
        at::Tensor x = torch::randn({kSamples, 16}) * (1.0 + r); // scaled apart: ranks never agree by chance
        d.emplace_back(x, torch::randn({kSamples, 4}));
    }
    return d;
}

std::vector<RankResult> simulate(const Setup& s) {
    auto data = rankData(s.world);
    std::vector<torch::nn::Sequential> nets;
    for (int r = 0; r < s.world; ++r)
        nets.push_back(makeNet());
    InProcessGroup group(s.world);
    std::vector<RankResult> results(static_cast<std::size_t>(s.world));
    std::vector<std::thread> threads;
    for (int r = 0; r < s.world; ++r)
        threads.emplace_back([&, r] {
            RankResult& out = results[static_cast<std::size_t>(r)];
            try {
                std::vector<at::Tensor> params = nets[r]->parameters();
                std::unique_ptr<train::GradientTransport> t =
                    std::make_unique<InProcessTransport>(group, r, out.log);
                if (s.wire) t = train::makeCompressedTransport(std::move(t), *s.wire);
                train::DdpReducer reducer(params, s.world, std::move(t), kBucketBytes, s.overlap,
                                          std::chrono::seconds(20));
                train::LossScaler scaler(s.lossScaling);
                out.bucketBytes = reducer.bucketSizesBytes();
                const std::int64_t part = kSamples / s.microBatches;
                for (int k = 0; k < s.microBatches; ++k) {
                    reducer.prepareForBackward(k == 0, k == s.microBatches - 1);
                    at::Tensor loss;
                    {
                        train::AutocastScope amp(c10::Device(c10::kCPU), s.autocast);
                        at::Tensor y = nets[r]->forward(data[r].first.narrow(0, k * part, part));
                        loss = torch::mse_loss(y.to(torch::kFloat), data[r].second.narrow(0, k * part, part));
                    }
                    // Finite in fp32; only the loss scale pushes it past float's range.
                    if (r == s.overflowRank) loss = loss * 1e35;
                    // The trainer's weighting: each micro-batch counts by its share of the step's samples.
                    (scaler.scale(loss) * (1.0 / s.microBatches)).backward();
                }
                out.log.backwardDone = true;
                out.stats = reducer.finishBackward();
                out.stepTaken = scaler.unscale(params);
                scaler.update(out.stepTaken);
                out.scale = scaler.currentScale();
                for (const at::Tensor& p : params)
                    out.grads.push_back(p.grad().clone());
            } catch (const std::exception& e) {
                out.error = e.what();
            }
        });
    for (std::thread& t : threads)
        t.join();
    return results;
}

// Each rank's gradients from a plain fp32 backward on its whole batch, no reducer involved.
std::vector<std::vector<at::Tensor>> referenceGrads(int world) {
    auto data = rankData(world);
    std::vector<std::vector<at::Tensor>> grads;
    for (int r = 0; r < world; ++r) {
        torch::nn::Sequential net = makeNet();
        torch::mse_loss(net->forward(data[r].first), data[r].second).backward();
        std::vector<at::Tensor> g;
        for (const at::Tensor& p : net->parameters())
            g.push_back(p.grad().clone());
        grads.push_back(g);
    }
    return grads;
}

std::vector<at::Tensor> meanOf(const std::vector<std::vector<at::Tensor>>& perRank) {
    std::vector<at::Tensor> mean;
    for (std::size_t i = 0; i < perRank[0].size(); ++i) {
        at::Tensor sum = torch::zeros_like(perRank[0][i], torch::kDouble);
        for (const auto& g : perRank)
            sum += g[i].to(torch::kDouble);
        mean.push_back((sum / static_cast<double>(perRank.size())).to(torch::kFloat));
    }
    return mean;
}

// Rank r's bucket b as the reducer should have packed it, before any division.
at::Tensor packed(const std::vector<at::Tensor>& grads, std::size_t b) {
    std::vector<at::Tensor> parts;
    for (std::size_t i : kExpectedBuckets[b])
        parts.push_back(grads[i].reshape({-1}));
    return torch::cat(parts);
}

double maxDiff(const at::Tensor& a, const at::Tensor& b) {
    return (a.to(torch::kDouble) - b.to(torch::kDouble)).abs().max().item<double>();
}

bool close(const std::vector<at::Tensor>& a, const std::vector<at::Tensor>& b, double rtol, double atol,
           std::string& why) {
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!at::allclose(a[i], b[i], rtol, atol)) {
            why = "parameter " + std::to_string(i) + " differs by " + std::to_string(maxDiff(a[i], b[i]));
            return false;
        }
    return true;
}

bool identical(const std::vector<at::Tensor>& a, const std::vector<at::Tensor>& b) {
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!torch::equal(a[i], b[i])) return false;
    return true;
}

void requireRan(const std::vector<RankResult>& results) {
    for (std::size_t r = 0; r < results.size(); ++r)
        TEST_REQUIRE_MSG(results[r].error.empty(), "rank " + std::to_string(r) + ": " + results[r].error);
}

void checkRanksIdentical(const std::vector<RankResult>& results) {
    for (std::size_t r = 1; r < results.size(); ++r)
        TEST_CHECK_MSG(identical(results[r].grads, results[0].grads),
                       "rank " + std::to_string(r) + " ended with other gradients than rank 0");
}

} // namespace

TEST_CASE(bucketsFollowReverseOrderAndTheFirstBucketCap) {
    InProcessGroup group(1);
    RankLog log;
    // Three 300,000-float parameters (1.2 MB each) under 25 MB buckets: the first bucket closes at 1 MiB.
    std::vector<at::Tensor> big;
    for (int i = 0; i < 3; ++i)
        big.push_back(torch::zeros({300000}).requires_grad_());
    train::DdpReducer r(big, 1, std::make_unique<InProcessTransport>(group, 0, log), 25 << 20, true,
                        std::chrono::seconds(5));
    TEST_CHECK_EQ(r.bucketSizesBytes(), (std::vector<std::size_t>{1200000, 2400000}));
}

TEST_CASE(exchangeAveragesEveryRankInBucketOrder) {
    at::set_num_threads(1); // reference and ranks must round alike
    for (int world : {4, 3})
        for (bool overlap : {true, false})
            testRow("world " + std::to_string(world) + (overlap ? " overlap" : " no-overlap"), [&] {
                Setup s;
                s.world = world;
                s.overlap = overlap;
                const auto results = simulate(s);
                requireRan(results);
                const auto ref = referenceGrads(world);
                const auto mean = meanOf(ref);
                for (std::size_t r = 0; r < results.size(); ++r) {
                    const RankResult& res = results[r];
                    std::string why;
                    const bool ok = close(res.grads, mean, 1e-5, 1e-7, why);
                    TEST_CHECK_MSG(ok, why);
                    TEST_CHECK_EQ(res.bucketBytes, (std::vector<std::size_t>{656, 4096, 2176}));
                    TEST_REQUIRE_EQ(res.log.launches.size(), kExpectedBuckets.size());
                    for (std::size_t b = 0; b < kExpectedBuckets.size(); ++b) {
                        const Launch& l = res.log.launches[b];
                        TEST_CHECK_EQ(l.bucket, b);
                        // Overlap launches inside backward; without it, only after.
                        TEST_CHECK_EQ(l.duringBackward, overlap);
                        // Divided by the world size before the sum, in the documented layout.
                        const at::Tensor want = packed(ref[r], b) / static_cast<double>(world);
                        TEST_CHECK_MSG(at::allclose(l.sent, want, 1e-6, 1e-8),
                                       "bucket " + std::to_string(b) + " launched other values");
                    }
                    TEST_CHECK_EQ(res.stats.bytesAllreduced, std::int64_t(656 + 4096 + 2176));
                    TEST_CHECK_EQ(res.stats.allreduceCalls, 3);
                }
                checkRanksIdentical(results);
            });
}

TEST_CASE(compressionSendsSixteenBitRoundingAndRanksStayIdentical) {
    at::set_num_threads(1);
    for (c10::ScalarType wire : {c10::kHalf, c10::kBFloat16})
        testRow(wire == c10::kHalf ? "fp16" : "bf16", [&] {
            Setup s;
            s.wire = wire;
            const auto results = simulate(s);
            requireRan(results);
            const auto ref = referenceGrads(s.world);
            const auto mean = meanOf(ref);
            for (std::size_t r = 0; r < results.size(); ++r) {
                const RankResult& res = results[r];
                TEST_REQUIRE_EQ(res.log.launches.size(), kExpectedBuckets.size());
                for (const Launch& l : res.log.launches) {
                    TEST_CHECK_EQ(l.sent.scalar_type(), wire);
                    const at::Tensor full = packed(ref[r], l.bucket) / static_cast<double>(s.world);
                    TEST_CHECK_MSG(torch::equal(l.sent.to(torch::kFloat), full.to(wire).to(torch::kFloat)),
                                   "bucket " + std::to_string(l.bucket) + " did not travel as the rounding");
                }
                TEST_CHECK_EQ(res.stats.bytesAllreduced, std::int64_t(656 + 4096 + 2176) / 2);
                for (const at::Tensor& g : res.grads) {
                    TEST_CHECK_EQ(g.scalar_type(), torch::kFloat);
                    // The reduced value came back from the wire type: it lies on the 16-bit grid.
                    TEST_CHECK(torch::equal(g, g.to(wire).to(torch::kFloat)));
                }
                std::string why;
                const bool ok = close(res.grads, mean, 3e-2, 1e-3, why);
                TEST_CHECK_MSG(ok, why);
            }
            checkRanksIdentical(results);
        });
}

TEST_CASE(accumulationEqualsOnePassOnTheWholeBatch) {
    at::set_num_threads(1);
    for (int k : {2, 4})
        testRow("accumulate " + std::to_string(k), [&] {
            Setup s;
            s.microBatches = k;
            const auto results = simulate(s);
            requireRan(results);
            const auto mean = meanOf(referenceGrads(s.world));
            for (const RankResult& res : results) {
                std::string why;
                const bool ok = close(res.grads, mean, 1e-5, 1e-7, why);
                TEST_CHECK_MSG(ok, why);
                // no_sync: the first K-1 micro-batches exchange nothing; the last sends each bucket once.
                TEST_CHECK_EQ(res.log.launches.size(), kExpectedBuckets.size());
            }
            checkRanksIdentical(results);
        });
}

TEST_CASE(bf16AutocastChangesGradientsButNotTheExchange) {
    at::set_num_threads(1);
    Setup s;
    s.autocast = c10::kBFloat16;
    const auto results = simulate(s);
    requireRan(results);
    const auto mean = meanOf(referenceGrads(s.world));
    for (const RankResult& res : results) {
        std::string why;
        const bool ok = close(res.grads, mean, 5e-2, 5e-3, why);
        TEST_CHECK_MSG(ok, why);
        // Equal to fp32 at fp32's tolerance would mean the forward pass never left fp32.
        TEST_CHECK_MSG(!close(res.grads, mean, 1e-5, 1e-7, why), "bf16 autocast gave fp32's gradients");
        for (const Launch& l : res.log.launches)
            TEST_CHECK_EQ(l.sent.scalar_type(), torch::kFloat); // gradients and exchange stay fp32
        TEST_CHECK_EQ(res.stats.bytesAllreduced, std::int64_t(656 + 4096 + 2176));
    }
    checkRanksIdentical(results);
}

TEST_CASE(lossScalingUnscalesAndEveryRankSkipsAnOverflow) {
    at::set_num_threads(1);
    Setup s;
    s.lossScaling = true;
    auto results = simulate(s);
    requireRan(results);
    const auto mean = meanOf(referenceGrads(s.world));
    for (const RankResult& res : results) {
        TEST_CHECK(res.stepTaken);
        TEST_CHECK_EQ(res.scale, 65536.0);
        // The scaled gradients are what travel (~1e3 here, unscaled ~1e-1); the division comes after.
        TEST_REQUIRE(!res.log.launches.empty());
        TEST_CHECK(res.log.launches[0].sent.abs().max().item<double>() > 100.0);
        std::string why;
        const bool ok = close(res.grads, mean, 1e-5, 1e-7, why);
        TEST_CHECK_MSG(ok, why);
    }
    // One rank overflows: the inf reaches every rank's reduced gradients, so all skip and halve alike.
    s.overflowRank = 2;
    results = simulate(s);
    requireRan(results);
    for (const RankResult& res : results) {
        TEST_CHECK(!res.stepTaken);
        TEST_CHECK_EQ(res.scale, 32768.0);
    }
}

DDPDESK_TEST_MAIN()
