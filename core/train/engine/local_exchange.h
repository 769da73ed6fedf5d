#pragma once

#include "os/shared_memory.h"
#include "train/base/collectives.h"

#include <ATen/Tensor.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ddpdesk::train {

enum class GradTransport { Auto, Gloo, SharedMemory };

// Each shared-memory counter sits on a cache line of its own (no false sharing between ranks): the block's
// layout (local_exchange_setup.cpp) and its use (local_exchange.cpp) both count in these.
inline constexpr std::size_t kExchangeLine = 64;

// Gradient buckets exchanged through shared memory between the ranks of one machine (a "node": the ranks that
// share a host name and can map one block). Gloo's allreduce over loopback TCP costs ~1.7 ms even for 4 KB
// here (thread hand-offs, syscalls) and its kernel time competes with compute for the same cores. Instead
// each rank writes its averaged bucket into its own slot and publishes a step counter; every rank then sums
// all slots itself, in rank order, so every rank gets bit-identical gradients. Slots alternate between two
// halves by step parity: writing step s only needs peers to be done reading step s-2, which they are before
// they publish step s-1 (and this rank saw all of step s-1 before its step s), so no rank ever waits to
// write.
//
// When the job spans several nodes, the node's first rank (its leader) sums the node's slots, allreduces that
// sum with the other leaders through Gloo and writes the result into the block's result area, which the other
// local ranks copy: each bucket crosses the network once per node instead of once per rank, and every rank
// still ends with the leaders' bit-identical sum. The result area needs no second half: the leader rewrites
// bucket b only after every local rank published bucket b of the next step, which each does after copying
// this step's result.
class LocalGradientExchange {
public:
    struct Setup {
        std::unique_ptr<LocalGradientExchange> exchange; // null: use Gloo for everything
        std::string note;                                // why not, when shared memory was wanted
    };

    // Collective: every rank of `group` calls it at the same point, whatever its `mode` (one rank asking for
    // Gloo makes all use Gloo). `buckets` gives each bucket's dtype, device and element count; `nodeName` is
    // this machine's host name (ranks with the same one try to share a block). Throws CommError when a
    // collective of the setup fails.
    static Setup setup(Collectives& group, const std::vector<at::Tensor>& buckets, GradTransport mode,
                       std::chrono::milliseconds timeout, const std::string& nodeName);
    ~LocalGradientExchange();

    // Every rank of the job is in this block: the sum of the slots is the whole job's sum.
    bool spansJob() const { return m_nodeCount == 1; }
    int nodeCount() const { return m_nodeCount; }
    int nodeIndex() const { return m_nodeIndex; } // nodes ordered by their leader's rank
    bool isLeader() const { return m_rank == 0; }
    int localSize() const { return m_world; }

    void beginStep();
    // This rank's slot for `bucket` in the current step: write the averaged gradients here, then publish().
    at::Tensor slot(std::size_t bucket) const { return m_slots[parity()][m_rank][bucket]; }
    void publish(std::size_t bucket);
    // Whether every local rank has published `bucket` this step (never waits).
    bool allPublished(std::size_t bucket) const;
    // Waits for every local peer's `bucket` and writes the sum of the node's slots into `out`. Throws
    // CommError (Timeout naming the missing rank, PeerLost when its process is gone).
    void reduce(std::size_t bucket, at::Tensor& out, std::chrono::steady_clock::time_point deadline);
    // Leader: hands the job-wide sum of `bucket` to the node's other ranks.
    void publishResult(std::size_t bucket, const at::Tensor& sum);
    // Other ranks: waits for the leader's job-wide sum of `bucket` and copies it into `out`.
    void readResult(std::size_t bucket, at::Tensor& out, std::chrono::steady_clock::time_point deadline);
    // The shared block's name (its OS name is gone once every local rank has mapped it).
    const std::string& name() const { return m_name; }

private:
    struct Layout;
    LocalGradientExchange() = default;
    std::size_t parity() const { return static_cast<std::size_t>(m_seq & 1); }
    std::size_t bucketLine(std::size_t bucket) const;
    std::size_t resultLine(std::size_t bucket) const;
    std::atomic<std::uint64_t>& counter(int rank, std::size_t line) const;
    void waitCounter(int peer, std::size_t line, std::chrono::steady_clock::time_point deadline,
                     const std::string& what) const;
    void mapSlots(const Layout& layout, const std::vector<at::Tensor>& buckets);

    std::unique_ptr<SharedMemory> m_shm;
    std::string m_name;
    int m_rank = 0;  // within the node
    int m_world = 1; // ranks in the node
    int m_nodeCount = 1;
    int m_nodeIndex = 0;
    std::vector<int> m_jobRanks; // local index -> rank in the job, for messages
    std::size_t m_buckets = 0;
    std::size_t m_controlLines = 0; // per rank: pid, one per bucket, one per bucket's result
    std::uint64_t m_seq = 0;
    std::vector<std::vector<std::vector<at::Tensor>>>
        m_slots;                       // [parity][local rank][bucket], views into m_shm
    std::vector<at::Tensor> m_results; // [bucket], the leader's job-wide sums
    std::vector<std::int64_t> m_pids;
};

} // namespace ddpdesk::train
