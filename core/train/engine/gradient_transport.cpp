#include "train/engine/gradient_transport.h"

#include <torch/torch.h>

#include <algorithm>
#include <map>

namespace ddpdesk::train {

namespace {

class GroupTransport final : public GradientTransport {
public:
    explicit GroupTransport(Collectives& group) : m_group(group) {}

    const char* waitName() const override { return "the gradient allreduce"; }
    const char* name() const override { return m_group.backendName(); }

    void launch(std::size_t b, const at::Tensor& flat) override { m_work[b] = m_group.allreduceSum(flat); }

    at::Tensor finish(std::size_t b, const at::Tensor& flat,
                      std::chrono::steady_clock::time_point deadline) override {
        std::shared_ptr<PendingCollective> work = std::move(m_work[b]);
        work->wait(std::chrono::duration_cast<std::chrono::milliseconds>(deadline -
                                                                         std::chrono::steady_clock::now()));
        return flat; // reduced in place
    }

private:
    Collectives& m_group;
    std::map<std::size_t, std::shared_ptr<PendingCollective>> m_work;
};

class SharedMemoryTransport final : public GradientTransport {
public:
    explicit SharedMemoryTransport(std::unique_ptr<LocalGradientExchange> exchange)
        : m_exchange(std::move(exchange)) {}

    const char* waitName() const override {
        return "the gradient exchange between local ranks (shared memory)";
    }
    const char* name() const override { return "shared_memory"; }

    void beginStep() override { m_exchange->beginStep(); }
    // Gradients are copied straight into this rank's shared slot.
    at::Tensor beginBucket(std::size_t b, const at::Tensor&) override { return m_exchange->slot(b); }
    void launch(std::size_t b, const at::Tensor&) override { m_exchange->publish(b); }

    at::Tensor finish(std::size_t b, const at::Tensor& flat,
                      std::chrono::steady_clock::time_point deadline) override {
        // The slots belong to shared memory and are rewritten next step: the average lives in a tensor of its
        // own.
        at::Tensor& sum = m_sums[b];
        if (!sum.defined()) sum = torch::empty_like(flat);
        m_exchange->reduce(b, sum, deadline);
        return sum;
    }

private:
    std::unique_ptr<LocalGradientExchange> m_exchange;
    std::map<std::size_t, at::Tensor> m_sums;
};

// Shared memory inside each node, Gloo between the nodes' leaders (local_exchange.h). A leader starts a
// bucket's cross-node allreduce as soon as every local rank has published it, without waiting in launch(),
// which runs inside backward: buckets that are not complete yet start at the next launch or in finish().
// Leaders start their allreduces in bucket order, the order Gloo needs on every leader.
class HierarchicalTransport final : public GradientTransport {
public:
    HierarchicalTransport(std::unique_ptr<LocalGradientExchange> exchange,
                          std::unique_ptr<Collectives> leaders)
        : m_exchange(std::move(exchange)), m_leaders(std::move(leaders)) {}

    const char* waitName() const override {
        return m_exchange->isLeader()
                   ? "the gradient exchange (shared memory in this node, then Gloo between the nodes' "
                     "leaders)"
                   : "the gradient exchange (shared memory in this node; this node's leader talks to the "
                     "other nodes)";
    }
    const char* name() const override { return "hierarchical"; }

    void beginStep() override {
        m_exchange->beginStep();
        m_launched = m_started = 0;
    }
    at::Tensor beginBucket(std::size_t b, const at::Tensor&) override { return m_exchange->slot(b); }

    void launch(std::size_t b, const at::Tensor& flat) override {
        if (!m_sums[b].defined()) m_sums[b] = torch::empty_like(flat);
        m_exchange->publish(b);
        m_launched = b + 1;
        if (!m_leaders) return;
        while (m_started < m_launched && m_exchange->allPublished(m_started))
            startNext(std::chrono::steady_clock::now()); // published: the local sum does not wait
    }

    at::Tensor finish(std::size_t b, const at::Tensor&,
                      std::chrono::steady_clock::time_point deadline) override {
        at::Tensor& sum = m_sums[b];
        if (!m_leaders) {
            // A little longer than the leader's own wait, so a leader stuck on another machine reports the
            // cause first and this rank does not blame the leader for it.
            m_exchange->readResult(b, sum, deadline + std::chrono::seconds(5));
            return sum;
        }
        while (m_started <= b)
            startNext(deadline);
        std::shared_ptr<PendingCollective> work = std::move(m_work[b]);
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        work->wait(std::max(left, std::chrono::milliseconds(1)));
        m_exchange->publishResult(b, sum);
        return sum;
    }

private:
    void startNext(std::chrono::steady_clock::time_point deadline) {
        const std::size_t b = m_started++;
        m_exchange->reduce(b, m_sums[b], deadline);
        m_work[b] = m_leaders->allreduceSum(m_sums[b]);
    }

    std::unique_ptr<LocalGradientExchange> m_exchange;
    std::unique_ptr<Collectives> m_leaders; // null on a node's other ranks
    std::size_t m_launched = 0, m_started = 0;
    std::map<std::size_t, at::Tensor> m_sums; // the node's sum, then the job's (in place)
    std::map<std::size_t, std::shared_ptr<PendingCollective>> m_work;
};

} // namespace

std::unique_ptr<GradientTransport> makeGroupTransport(Collectives& group) {
    return std::make_unique<GroupTransport>(group);
}

std::unique_ptr<GradientTransport>
makeSharedMemoryTransport(std::unique_ptr<LocalGradientExchange> exchange) {
    return std::make_unique<SharedMemoryTransport>(std::move(exchange));
}

} // namespace ddpdesk::train

namespace ddpdesk::train {

std::unique_ptr<GradientTransport> makeHierarchicalTransport(std::unique_ptr<LocalGradientExchange> exchange,
                                                             std::unique_ptr<Collectives> leaders) {
    return std::make_unique<HierarchicalTransport>(std::move(exchange), std::move(leaders));
}

} // namespace ddpdesk::train
