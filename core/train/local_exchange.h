#pragma once

#include "train/c10d_compat.h"
#include "train/shared_memory.h"

#include <ATen/Tensor.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ddpdesk::train {

enum class GradTransport { Auto, Gloo, SharedMemory };

// Gradient buckets exchanged through shared memory when every rank runs on this machine. Gloo's allreduce
// over loopback TCP costs ~1.7 ms even for 4 KB here (thread hand-offs, syscalls) and its kernel time
// competes with compute for the same cores. Instead each rank writes its averaged bucket into its own slot
// and publishes a step counter; every rank then sums all slots itself, in rank order, so every rank gets
// bit-identical gradients. Slots alternate between two halves by step parity: writing step s only needs peers
// to be done reading step s-2, which they are before they publish step s-1 (and this rank saw all of step s-1
// before its step s), so no rank ever waits to write. Gloo still carries everything else.
class LocalGradientExchange {
public:
    struct Setup {
        std::unique_ptr<LocalGradientExchange> exchange; // null: use Gloo
        std::string note;                                // why not, when shared memory was wanted
    };

    // Collective: every rank of `group` calls it at the same point, whatever its `mode` (one rank asking for
    // Gloo makes all use Gloo). `buckets` gives each bucket's dtype, device and element count. Throws
    // CommError when a collective of the setup fails.
    static Setup setup(GlooGroup& group, const std::vector<at::Tensor>& buckets, GradTransport mode,
                       std::chrono::milliseconds timeout);
    ~LocalGradientExchange();

    void beginStep();
    // This rank's slot for `bucket` in the current step: write the averaged gradients here, then publish().
    at::Tensor slot(std::size_t bucket) const { return m_slots[parity()][m_rank][bucket]; }
    void publish(std::size_t bucket);
    // Waits for every peer's `bucket` and writes the sum of all ranks' slots into `out`. Throws CommError
    // (Timeout naming the missing rank, PeerLost when its process is gone).
    void reduce(std::size_t bucket, at::Tensor& out, std::chrono::steady_clock::time_point deadline);
    // The shared block's name (its OS name is gone once every rank has mapped it).
    const std::string& name() const { return m_name; }

private:
    struct Layout;
    LocalGradientExchange() = default;
    std::size_t parity() const { return static_cast<std::size_t>(m_seq & 1); }
    std::atomic<std::uint64_t>& counter(int rank, std::size_t line) const;
    void waitPublished(int peer, std::size_t bucket, std::chrono::steady_clock::time_point deadline) const;

    std::unique_ptr<SharedMemory> m_shm;
    std::string m_name;
    int m_rank = 0;
    int m_world = 1;
    std::size_t m_buckets = 0;
    std::size_t m_controlLines = 0; // per rank: pid, then one per bucket
    std::uint64_t m_seq = 0;
    std::vector<std::vector<std::vector<at::Tensor>>> m_slots; // [parity][rank][bucket], views into m_shm
    std::vector<std::int64_t> m_pids;
};

} // namespace ddpdesk::train
