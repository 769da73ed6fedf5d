#include "train/local_exchange.h"

#include "os/process.h"
#include "train/platform.h"

#include <torch/torch.h>

#include <cstdio>
#include <random>
#include <thread>

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__) || defined(_M_IX86)
#include <immintrin.h>
#define DDPDESK_CPU_RELAX() _mm_pause()
#else
#define DDPDESK_CPU_RELAX() std::this_thread::yield()
#endif

namespace ddpdesk::train {

using Clock = std::chrono::steady_clock;

namespace {

constexpr std::size_t kLine = 64;                   // one counter per cache line: no false sharing
constexpr std::size_t kAutoLimitBytes = 2ull << 30; // beyond this, auto mode leaves the job to Gloo
constexpr std::size_t kPidLine = 0, kFirstBucketLine = 1;

static_assert(std::atomic<std::uint64_t>::is_always_lock_free,
              "shared-memory counters need lock-free atomics");

std::size_t alignUp(std::size_t n) {
    return (n + kLine - 1) / kLine * kLine;
}

std::string randomToken() {
    std::random_device rd;
    std::uint64_t v = (static_cast<std::uint64_t>(rd()) << 32) ^ rd() ^
                      static_cast<std::uint64_t>(Clock::now().time_since_epoch().count()) ^
                      (static_cast<std::uint64_t>(os::currentPid()) << 17);
    char buf[17];
    std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

// A float64 sum over the group; the token travels as two 32-bit halves (exact in a double).
std::vector<double> allreduce(GlooGroup& group, std::vector<double> values,
                              std::chrono::milliseconds timeout) {
    at::Tensor t = torch::tensor(values, torch::kFloat64);
    group.allreduceSum(t)->wait(timeout);
    return std::vector<double>(t.data_ptr<double>(), t.data_ptr<double>() + t.numel());
}

} // namespace

struct LocalGradientExchange::Layout {
    std::size_t controlBytes = 0;
    std::size_t rankDataBytes = 0;
    std::vector<std::size_t> offsets; // per bucket, within a rank's data block
    std::size_t total(int world) const {
        return controlBytes + 2 * static_cast<std::size_t>(world) * rankDataBytes;
    }
};

LocalGradientExchange::Setup LocalGradientExchange::setup(GlooGroup& group,
                                                          const std::vector<at::Tensor>& buckets,
                                                          GradTransport mode,
                                                          std::chrono::milliseconds timeout) {
    const int rank = group.rank(), world = group.size();
    std::unique_ptr<LocalGradientExchange> ex(new LocalGradientExchange);
    ex->m_rank = rank;
    ex->m_world = world;
    ex->m_buckets = buckets.size();
    ex->m_controlLines = kFirstBucketLine + buckets.size();
    Layout layout;
    layout.controlBytes = static_cast<std::size_t>(world) * ex->m_controlLines * kLine;
    for (const at::Tensor& b : buckets) {
        layout.offsets.push_back(layout.rankDataBytes);
        layout.rankDataBytes += alignUp(static_cast<std::size_t>(b.numel()) * b.element_size());
    }
    const std::size_t total = layout.total(world);

    std::string note;
    bool willing = true;
    if (mode == GradTransport::Gloo) {
        willing = false;
        note = "Gloo was asked for (--grad-transport gloo)";
    }
    for (const at::Tensor& b : buckets)
        if (willing && !b.device().is_cpu()) {
            willing = false;
            note = "gradients live on " + b.device().str() + ", not in host memory";
        }
    if (willing && mode == GradTransport::Auto && total > kAutoLimitBytes) {
        willing = false;
        note = "the gradients need " + std::to_string(total >> 20) + " MiB of shared memory (more than " +
               std::to_string(kAutoLimitBytes >> 20) + " MiB); --grad-transport shm forces it";
    }

    // Rank 0 creates the block and tells everyone its name; the others open it. A rank on another machine
    // cannot open it, so success means every rank shares this machine's memory.
    std::string token = randomToken();
    double hi = 0, lo = 0;
    if (rank == 0 && willing) {
        try {
            ex->m_shm = SharedMemory::create(token, total);
            std::uint64_t v = std::stoull(token, nullptr, 16);
            hi = static_cast<double>(v >> 32);
            lo = static_cast<double>(v & 0xffffffffu);
        } catch (const std::exception& e) {
            willing = false;
            note = e.what();
        }
    }
    // Rank 0's token is the only non-zero contribution, so the sum carries it to every rank.
    std::vector<double> named = allreduce(group, {hi, lo, willing ? 0.0 : 1.0}, timeout);
    if (named[2] > 0 && note.empty())
        note =
            std::to_string(static_cast<int>(named[2])) + " of " + std::to_string(world) +
            " ranks declined shared memory (--grad-transport gloo, gradients on a GPU, or no block could be "
            "created; see their logs)";
    if (rank != 0 && willing && named[2] == 0) {
        char buf[17];
        std::snprintf(buf, sizeof(buf), "%016llx",
                      (static_cast<unsigned long long>(named[0]) << 32) |
                          static_cast<unsigned long long>(named[1]));
        token = buf;
        try {
            ex->m_shm = SharedMemory::open(token, total);
        } catch (const std::exception& e) {
            willing = false;
            note = e.what();
        }
    }
    if (ex->m_shm)
        ex->counter(rank, kPidLine)
            .store(static_cast<std::uint64_t>(os::currentPid()), std::memory_order_release);
    std::vector<double> opened = allreduce(group, {ex->m_shm ? 1.0 : 0.0}, timeout);
    if (rank == 0 && ex->m_shm)
        ex->m_shm->removeName(); // everybody who could open it has: nothing is left behind after a crash
    if (opened[0] < world) {
        if (note.empty())
            note = "not every rank runs on this machine (" + std::to_string(static_cast<int>(opened[0])) +
                   " of " + std::to_string(world) + " could map the shared memory)";
        return Setup{nullptr, note};
    }
    // Liveness checks during waits need every peer's process to be visible (not so across PID namespaces).
    bool seeAll = true;
    for (int r = 0; r < world; ++r) {
        ex->m_pids.push_back(
            static_cast<std::int64_t>(ex->counter(r, kPidLine).load(std::memory_order_acquire)));
        seeAll = seeAll && os::processAlive(ex->m_pids.back());
    }
    std::vector<double> visible = allreduce(group, {seeAll ? 1.0 : 0.0}, timeout);
    if (visible[0] < world)
        return Setup{nullptr,
                     "the ranks share memory but cannot see each other's processes (separate containers?)"};

    ex->m_name = "ddpdesk-" + token;
    for (std::size_t parity = 0; parity < 2; ++parity) {
        ex->m_slots.emplace_back();
        for (int r = 0; r < world; ++r) {
            ex->m_slots[parity].emplace_back();
            std::size_t base = layout.controlBytes + (parity * world + r) * layout.rankDataBytes;
            for (std::size_t b = 0; b < buckets.size(); ++b)
                ex->m_slots[parity][r].push_back(
                    torch::from_blob(ex->m_shm->data() + base + layout.offsets[b], {buckets[b].numel()},
                                     buckets[b].options().requires_grad(false)));
        }
    }
    return Setup{std::move(ex), {}};
}

LocalGradientExchange::~LocalGradientExchange() = default;

std::atomic<std::uint64_t>& LocalGradientExchange::counter(int rank, std::size_t line) const {
    unsigned char* p = m_shm->data() + (static_cast<std::size_t>(rank) * m_controlLines + line) * kLine;
    return *reinterpret_cast<std::atomic<std::uint64_t>*>(p);
}

void LocalGradientExchange::beginStep() {
    ++m_seq;
}

void LocalGradientExchange::publish(std::size_t bucket) {
    counter(m_rank, kFirstBucketLine + bucket).store(m_seq, std::memory_order_release);
}

void LocalGradientExchange::waitPublished(int peer, std::size_t bucket, Clock::time_point deadline) const {
    const std::atomic<std::uint64_t>& c = counter(peer, kFirstBucketLine + bucket);
    // Spin briefly (the peer is usually a few microseconds behind), then yield, then sleep: a waiting rank
    // must not take a core from a peer that is still computing.
    const Clock::time_point start = Clock::now();
    Clock::time_point nextLivenessCheck = start + std::chrono::milliseconds(10);
    for (std::uint64_t spin = 0; c.load(std::memory_order_acquire) < m_seq; ++spin) {
        if (spin < 2000) {
            DDPDESK_CPU_RELAX();
            continue;
        }
        const Clock::time_point now = Clock::now();
        if (now - start < std::chrono::milliseconds(2))
            std::this_thread::yield();
        else
            std::this_thread::sleep_for(std::chrono::microseconds(50));
        if (now < nextLivenessCheck) continue;
        nextLivenessCheck = now + std::chrono::milliseconds(10);
        if (c.load(std::memory_order_acquire) >= m_seq) return;
        if (!os::processAlive(m_pids[peer]))
            throw CommError(CommFailure::PeerLost, "rank " + std::to_string(peer) + " (process " +
                                                       std::to_string(m_pids[peer]) +
                                                       ") exited before handing over its gradients");
        if (now >= deadline)
            throw CommError(CommFailure::Timeout, "rank " + std::to_string(peer) + " (process " +
                                                      std::to_string(m_pids[peer]) +
                                                      ", still running) did not hand over gradient bucket " +
                                                      std::to_string(bucket) + " through shared memory");
    }
}

void LocalGradientExchange::reduce(std::size_t bucket, at::Tensor& out, Clock::time_point deadline) {
    for (int r = 0; r < m_world; ++r)
        if (r != m_rank) waitPublished(r, bucket, deadline);
    // Same order on every rank: the sums are bit-identical everywhere.
    if (m_world == 1) {
        out.copy_(m_slots[parity()][0][bucket]);
        return;
    }
    at::add_out(out, m_slots[parity()][0][bucket], m_slots[parity()][1][bucket]);
    for (int r = 2; r < m_world; ++r)
        out.add_(m_slots[parity()][r][bucket]);
}

} // namespace ddpdesk::train
