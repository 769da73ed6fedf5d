#include "train/engine/compressed_transport.h"

#include <torch/torch.h>

#include <map>

namespace ddpdesk::train {

namespace {

class CompressedTransport final : public GradientTransport {
public:
    CompressedTransport(std::unique_ptr<GradientTransport> inner, c10::ScalarType wire)
        : m_inner(std::move(inner)), m_wire(wire) {}

    const char* waitName() const override { return m_inner->waitName(); }
    const char* name() const override { return m_inner->name(); }

    void beginStep() override { m_inner->beginStep(); }

    // The reducer keeps filling its own full-precision bucket; the inner transport gets a wire-type buffer
    // (or hands out its own place for one, such as a shared-memory slot).
    at::Tensor beginBucket(std::size_t b, const at::Tensor& own) override {
        at::Tensor& buffer = m_buffers[b];
        if (!buffer.defined()) buffer = torch::empty({own.numel()}, own.options().dtype(m_wire));
        m_onWire[b] = m_inner->beginBucket(b, buffer);
        return own;
    }

    void launch(std::size_t b, const at::Tensor& flat) override {
        at::Tensor& wire = m_onWire[b];
        wire.copy_(flat); // rounds to the wire type
        m_inner->launch(b, wire);
    }

    at::Tensor finish(std::size_t b, const at::Tensor& flat,
                      std::chrono::steady_clock::time_point deadline) override {
        const at::Tensor reduced = m_inner->finish(b, m_onWire[b], deadline);
        at::Tensor out = flat; // a view of the reducer's bucket
        out.copy_(reduced);
        return out;
    }

    std::int64_t wireBytes(const at::Tensor& flat) const override {
        return flat.numel() * static_cast<std::int64_t>(c10::elementSize(m_wire));
    }

private:
    std::unique_ptr<GradientTransport> m_inner;
    c10::ScalarType m_wire;
    std::map<std::size_t, at::Tensor> m_buffers; // this rank's wire-type copies, reused every step
    std::map<std::size_t, at::Tensor> m_onWire;  // where each bucket travels from this step
};

} // namespace

std::optional<c10::ScalarType> compressionType(const std::string& setting) {
    if (setting == "fp16") return c10::kHalf;
    if (setting == "bf16") return c10::kBFloat16;
    return std::nullopt;
}

std::unique_ptr<GradientTransport> makeCompressedTransport(std::unique_ptr<GradientTransport> inner,
                                                           c10::ScalarType wire) {
    return std::make_unique<CompressedTransport>(std::move(inner), wire);
}

} // namespace ddpdesk::train
