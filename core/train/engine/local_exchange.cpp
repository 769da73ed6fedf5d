#include "train/engine/local_exchange.h"

#include "os/process.h"

#include <torch/torch.h>

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

static_assert(std::atomic<std::uint64_t>::is_always_lock_free,
              "shared-memory counters need lock-free atomics");

} // namespace

LocalGradientExchange::~LocalGradientExchange() = default;

std::size_t LocalGradientExchange::bucketLine(std::size_t bucket) const {
    return 1 + bucket;
}

std::size_t LocalGradientExchange::resultLine(std::size_t bucket) const {
    return 1 + m_buckets + bucket;
}

std::atomic<std::uint64_t>& LocalGradientExchange::counter(int rank, std::size_t line) const {
    unsigned char* p =
        m_shm->data() + (static_cast<std::size_t>(rank) * m_controlLines + line) * kExchangeLine;
    return *reinterpret_cast<std::atomic<std::uint64_t>*>(p);
}

void LocalGradientExchange::beginStep() {
    ++m_seq;
}

void LocalGradientExchange::publish(std::size_t bucket) {
    counter(m_rank, bucketLine(bucket)).store(m_seq, std::memory_order_release);
}

bool LocalGradientExchange::allPublished(std::size_t bucket) const {
    for (int r = 0; r < m_world; ++r)
        if (counter(r, bucketLine(bucket)).load(std::memory_order_acquire) < m_seq) return false;
    return true;
}

void LocalGradientExchange::waitCounter(int peer, std::size_t line, Clock::time_point deadline,
                                        const std::string& what) const {
    const std::atomic<std::uint64_t>& c = counter(peer, line);
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
        const std::string who =
            "rank " + std::to_string(m_jobRanks[peer]) + " (process " + std::to_string(m_pids[peer]);
        if (!os::processAlive(m_pids[peer]))
            throw CommError(CommFailure::PeerLost, who + ") exited before handing over " + what);
        if (now >= deadline)
            throw CommError(CommFailure::Timeout, who + ", still running) did not hand over " + what);
    }
}

void LocalGradientExchange::reduce(std::size_t bucket, at::Tensor& out, Clock::time_point deadline) {
    for (int r = 0; r < m_world; ++r)
        if (r != m_rank)
            waitCounter(r, bucketLine(bucket), deadline,
                        "gradient bucket " + std::to_string(bucket) + " through shared memory");
    // Same order on every rank: the sums are bit-identical everywhere.
    const std::vector<at::Tensor>& half = m_slots[parity()][0];
    if (m_world == 1) {
        out.copy_(half[bucket]);
        return;
    }
    at::add_out(out, half[bucket], m_slots[parity()][1][bucket]);
    for (int r = 2; r < m_world; ++r)
        out.add_(m_slots[parity()][r][bucket]);
}

void LocalGradientExchange::publishResult(std::size_t bucket, const at::Tensor& sum) {
    m_results[bucket].copy_(sum);
    counter(m_rank, resultLine(bucket)).store(m_seq, std::memory_order_release);
}

void LocalGradientExchange::readResult(std::size_t bucket, at::Tensor& out, Clock::time_point deadline) {
    waitCounter(0, resultLine(bucket), deadline,
                "the job-wide sum of gradient bucket " + std::to_string(bucket) +
                    " (it is its node's leader, which exchanges the node's sum with the other nodes)");
    out.copy_(m_results[bucket]);
}

} // namespace ddpdesk::train
