#pragma once

// --precision fp32|bf16|fp16: PyTorch's automatic mixed precision for one rank. The forward pass and the loss
// run under autocast (matmuls and convolutions in the low type, reductions and losses in fp32, as
// torch.autocast decides), weights, gradients and optimizer state stay fp32. fp16 needs dynamic loss
// scaling (torch.cuda.amp.GradScaler's rules): LossScaler below. The autocast calls differ between LibTorch
// 1.x and 2.4+, so they live here behind version guards, like c10d's in c10d_compat.cpp.

#include <ATen/ATen.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ddpdesk::train {

// The autocast type for a --precision value: nullopt for "fp32".
std::optional<c10::ScalarType> autocastType(const std::string& precision);

// Why `precision` cannot run on `device`, or empty when it can ("fp16" needs CUDA: CPU autocast has no fp16
// kernels for convolutions, and PyTorch's loss scaling is a CUDA feature).
std::string precisionProblem(const std::string& precision, c10::Device device);

// Autocast for `device` in `type` while alive; restores the previous state and, when the outermost scope
// ends, drops the casted-weights cache (a stale cache would hold the old weights after optimizer.step()).
// A scope with no type does nothing.
class AutocastScope {
public:
    AutocastScope(c10::Device device, std::optional<c10::ScalarType> type);
    ~AutocastScope();
    AutocastScope(const AutocastScope&) = delete;
    AutocastScope& operator=(const AutocastScope&) = delete;

private:
    bool m_active = false;
    c10::DeviceType m_device = c10::DeviceType::CPU;
    bool m_wasEnabled = false;
    c10::ScalarType m_wasType = c10::kFloat;
};

// Dynamic loss scaling for fp16: the loss is multiplied by the scale before backward; the reduced gradients
// are divided by it; a step whose gradients hold inf/NaN is skipped and the scale halves, and after
// growthInterval clean steps in a row it doubles. Every rank sees the same reduced gradients, so every rank
// makes the same decision and the ranks stay identical.
class LossScaler {
public:
    // Steps skipped in a row before the run stops: the loss or gradients stay inf/NaN whatever the scale.
    static constexpr std::int64_t kMaxConsecutiveSkips = 50;

    explicit LossScaler(bool enabled, double initScale = 65536.0, std::int64_t growthInterval = 2000);

    bool enabled() const { return m_enabled; }
    at::Tensor scale(const at::Tensor& loss) const;
    // Divides each gradient by the scale in place; true when every value is finite (take the step).
    bool unscale(const std::vector<at::Tensor>& params);
    void update(bool stepTaken); // after unscale(): adjusts the scale

    double currentScale() const { return m_scale; }
    std::int64_t skippedSteps() const { return m_skipped; }
    std::int64_t consecutiveSkips() const { return m_consecutive; }

private:
    bool m_enabled;
    double m_scale;
    std::int64_t m_growthInterval;
    std::int64_t m_cleanSteps = 0;
    std::int64_t m_skipped = 0;
    std::int64_t m_consecutive = 0;
};

} // namespace ddpdesk::train
