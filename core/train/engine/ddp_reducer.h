#pragma once

#include "train/base/collectives.h"
#include "train/engine/gradient_transport.h"

#include <ATen/Tensor.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace ddpdesk::train {

struct ReducerStats {
    double commWaitMs = 0; // time spent after backward waiting for allreduces
    std::int64_t bytesAllreduced = 0;
    int allreduceCalls = 0; // buckets exchanged (one collective each)
};

// PyTorch-DDP-style gradient synchronisation. Parameters are packed into flat buckets in reverse registration
// order (the first bucket capped at 1 MiB like DDP's, the rest at `bucketBytes`). With overlap, a hook on
// every parameter copies its gradient into its bucket as autograd produces it; when a bucket is complete (and
// all earlier buckets were launched, so every rank issues collectives in the same order) its allreduce starts
// asynchronously while backward continues. finishBackward() launches what is left (parameters that got no
// gradient contribute zeros), waits with a timeout, and points each .grad at its averaged slice.
class DdpReducer {
public:
    DdpReducer(std::vector<at::Tensor> params, Collectives* group, std::int64_t bucketBytes, bool overlap,
               std::chrono::milliseconds collectiveTimeout);
    // Without a process group: `worldSize` ranks whose buckets travel through `transport` alone, the seam
    // PyTorch's reducer tests use with a fake process group (tests/train/test_engine_inprocess.cpp). A null
    // transport is a single process: nothing is exchanged.
    DdpReducer(std::vector<at::Tensor> params, int worldSize, std::unique_ptr<GradientTransport> transport,
               std::int64_t bucketBytes, bool overlap, std::chrono::milliseconds collectiveTimeout);
    ~DdpReducer();
    DdpReducer(const DdpReducer&) = delete;
    DdpReducer& operator=(const DdpReducer&) = delete;

    // Before each forward. A step of K micro-batches (gradient accumulation): the first clears the gradients
    // (set to none), the first K-1 skip the exchange so gradients add up in .grad (DDP's no_sync), and the
    // last, with `sync`, exchanges the sum; finishBackward() follows only that one. K = 1: both are true.
    void prepareForBackward(bool firstMicroBatch = true, bool sync = true);
    // After loss.backward(): throws CommError on timeout or peer failure.
    ReducerStats finishBackward();

    std::size_t bucketCount() const { return m_buckets.size(); }
    std::vector<std::size_t> bucketSizesBytes() const;
    // One tensor per bucket with its dtype, device and size (for LocalGradientExchange::setup).
    std::vector<at::Tensor> bucketTemplates() const;
    // From now on buckets travel through `transport` (the default: Gloo's allreduce over the group).
    void useTransport(std::unique_ptr<GradientTransport> transport);
    const char* transportName() const { return m_transport ? m_transport->name() : "none"; }

private:
    struct Slot {
        std::size_t bucket = 0;
        std::int64_t offset = 0;
        std::int64_t numel = 0;
        bool ready = false;
    };
    struct Bucket {
        at::Tensor flat;
        std::vector<std::size_t> params; // indices into m_params
        std::size_t pending = 0;
    };

    void onGradient(std::size_t index, const at::Tensor& grad);
    void markReady(std::size_t index);
    void launchReady();

    std::vector<at::Tensor> m_params;
    std::vector<Slot> m_slots;
    std::vector<unsigned> m_hooks; // hook handles, per parameter, when overlapping
    std::vector<Bucket> m_buckets;
    int m_worldSize;
    bool m_overlap;
    std::chrono::milliseconds m_timeout;
    std::size_t m_nextLaunch = 0;
    bool m_armed = false;
    std::int64_t m_bytesThisStep = 0;
    std::mutex m_mutex;
    std::unique_ptr<GradientTransport> m_transport; // null without a group: nothing to exchange
};

} // namespace ddpdesk::train
