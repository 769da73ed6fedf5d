#pragma once

// How a finished gradient bucket reaches the other ranks and comes back averaged: the reducer's
// communication hook (PyTorch's register_comm_hook, in C++). DdpReducer fills buckets and decides when each
// one is complete; a GradientTransport moves it. Gloo's allreduce and the same-host shared-memory exchange
// are the two transports, and the hierarchical one combines them across nodes; a wrapper (compression,
// PowerSGD) is one more class that holds another transport.

#include "train/base/collectives.h"
#include "train/engine/local_exchange.h"

#include <ATen/Tensor.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace ddpdesk::train {

class GradientTransport {
public:
    virtual ~GradientTransport() = default;

    // What a rank waits in, for "where does it hang?" and timeout messages.
    virtual const char* waitName() const = 0;
    // The name the run plan reports ("gloo", "shared_memory", ...).
    virtual const char* name() const = 0;

    // Before each backward. beginBucket returns the tensor the reducer fills with bucket b's gradients this
    // step: `own` (the reducer's buffer) unless the transport has a better place, such as shared memory.
    virtual void beginStep() {}
    virtual at::Tensor beginBucket(std::size_t b, const at::Tensor& own) { return own; }

    // Bucket b is complete and already divided by the world size: start moving it. Buckets are launched in
    // the same order on every rank.
    virtual void launch(std::size_t b, const at::Tensor& flat) = 0;
    // Waits for bucket b until `deadline` and returns the averaged gradients (the reducer points .grad into
    // it). Throws CommError: Timeout naming what was waited for, PeerLost when a rank went away.
    virtual at::Tensor finish(std::size_t b, const at::Tensor& flat,
                              std::chrono::steady_clock::time_point deadline) = 0;

    // The bytes this rank puts into the exchange for a bucket (telemetry's bytes_allreduced).
    virtual std::int64_t wireBytes(const at::Tensor& flat) const {
        return flat.numel() * static_cast<std::int64_t>(flat.element_size());
    }
};

// The group's allreduce (Gloo's in the worker), asynchronous: it runs while backward goes on.
std::unique_ptr<GradientTransport> makeGroupTransport(Collectives& group);
// The same-host shared-memory exchange (local_exchange.h), once every rank has set it up.
std::unique_ptr<GradientTransport> makeSharedMemoryTransport(std::unique_ptr<LocalGradientExchange> exchange);

// Several nodes, several ranks on some: shared memory inside each node, Gloo between one leader per node.
// `leaders` is the leaders' own group (null on the other ranks).
std::unique_ptr<GradientTransport> makeHierarchicalTransport(std::unique_ptr<LocalGradientExchange> exchange,
                                                             std::unique_ptr<Collectives> leaders);

} // namespace ddpdesk::train
