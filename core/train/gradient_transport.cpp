#include "train/gradient_transport.h"

#include <torch/torch.h>

#include <map>

namespace ddpdesk::train {

namespace {

class GlooTransport final : public GradientTransport {
public:
    explicit GlooTransport(GlooGroup& group) : m_group(group) {}

    const char* waitName() const override { return "the gradient allreduce"; }
    const char* name() const override { return "gloo"; }

    void launch(std::size_t b, const at::Tensor& flat) override { m_work[b] = m_group.allreduceSum(flat); }

    at::Tensor finish(std::size_t b, const at::Tensor& flat,
                      std::chrono::steady_clock::time_point deadline) override {
        std::shared_ptr<PendingCollective> work = std::move(m_work[b]);
        work->wait(std::chrono::duration_cast<std::chrono::milliseconds>(deadline -
                                                                         std::chrono::steady_clock::now()));
        return flat; // reduced in place
    }

private:
    GlooGroup& m_group;
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

} // namespace

std::unique_ptr<GradientTransport> makeGlooTransport(GlooGroup& group) {
    return std::make_unique<GlooTransport>(group);
}

std::unique_ptr<GradientTransport>
makeSharedMemoryTransport(std::unique_ptr<LocalGradientExchange> exchange) {
    return std::make_unique<SharedMemoryTransport>(std::move(exchange));
}

} // namespace ddpdesk::train
