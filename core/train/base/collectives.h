#pragma once

// What a rank needs from its process group, and nothing about how it is made: the engine (trainer, reducer,
// gradient transports, the shared-memory setup) talks to this interface only. GlooGroup
// (rendezvous/c10d_compat.h) implements it over c10d; tests implement it in one process with ranks as threads
// (tests/support), as c10d's own tests use FakeProcessGroup. Errors travel as CommError so a fake fails the
// way Gloo does.

#include <ATen/Tensor.h>
#include <c10/core/ScalarType.h>

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace ddpdesk::train {

enum class CommFailure { Timeout, PeerLost, Other };

// A tensor type as PyTorch's Python side names it (torch.float32 -> "float32"): the collective records and
// what a group cannot sum speak the script's words, not c10's ("Float").
inline std::string dtypeName(c10::ScalarType type) {
    switch (type) {
    case c10::kFloat:
        return "float32";
    case c10::kHalf:
        return "float16";
    case c10::kBFloat16:
        return "bfloat16";
    case c10::kDouble:
        return "float64";
    default:
        return c10::toString(type);
    }
}

// A store or collective operation that failed; `kind` decides the exit code.
class CommError : public std::runtime_error {
public:
    CommError(CommFailure kind, const std::string& what) : std::runtime_error(what), m_kind(kind) {}
    CommFailure kind() const { return m_kind; }

private:
    CommFailure m_kind;
};

// An asynchronous collective in flight.
class PendingCollective {
public:
    virtual ~PendingCollective() = default;
    // Waits at most `timeout`; throws CommError (Timeout / PeerLost / Other).
    virtual void wait(std::chrono::milliseconds timeout) = 0;
};

// A group of ranks that sum, broadcast and meet. Every rank of the group calls each operation in the same
// order.
class Collectives {
public:
    virtual ~Collectives() = default;

    virtual int rank() const = 0;
    virtual int size() const = 0;
    // The name the run plan and telemetry report for gradients that travel through this group ("gloo").
    virtual const char* backendName() const = 0;
    // Empty when this group sums tensors of `type`; otherwise why it cannot (Gloo's type list depends on its
    // build).
    virtual std::string cannotSum(c10::ScalarType type) const = 0;

    // In place, asynchronous: the tensor holds the sum over every rank once wait() returned.
    virtual std::shared_ptr<PendingCollective> allreduceSum(const at::Tensor& tensor) = 0;
    // In place: every rank's tensors hold `root`'s once wait() returned.
    virtual std::shared_ptr<PendingCollective> broadcast(const std::vector<at::Tensor>& tensors,
                                                         int root) = 0;
    virtual std::shared_ptr<PendingCollective> barrier() = 0;
};

} // namespace ddpdesk::train
