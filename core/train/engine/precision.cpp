#include "train/engine/precision.h"

#include <ATen/autocast_mode.h>
#include <torch/version.h>

#define DDPDESK_AUTOCAST_BY_DEVICE                                                                           \
    (TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4))

namespace ddpdesk::train {

namespace {

// LibTorch 2.4 replaced the per-device functions (set_cpu_enabled, set_autocast_gpu_dtype…) with ones that
// take the device type, and deprecated the old names.
bool autocastEnabled(c10::DeviceType d) {
#if DDPDESK_AUTOCAST_BY_DEVICE
    return at::autocast::is_autocast_enabled(d);
#else
    return d == c10::DeviceType::CUDA ? at::autocast::is_enabled() : at::autocast::is_cpu_enabled();
#endif
}

void setAutocastEnabled(c10::DeviceType d, bool on) {
#if DDPDESK_AUTOCAST_BY_DEVICE
    at::autocast::set_autocast_enabled(d, on);
#else
    if (d == c10::DeviceType::CUDA)
        at::autocast::set_enabled(on);
    else
        at::autocast::set_cpu_enabled(on);
#endif
}

c10::ScalarType autocastDtype(c10::DeviceType d) {
#if DDPDESK_AUTOCAST_BY_DEVICE
    return at::autocast::get_autocast_dtype(d);
#else
    return d == c10::DeviceType::CUDA ? at::autocast::get_autocast_gpu_dtype()
                                      : at::autocast::get_autocast_cpu_dtype();
#endif
}

void setAutocastDtype(c10::DeviceType d, c10::ScalarType t) {
#if DDPDESK_AUTOCAST_BY_DEVICE
    at::autocast::set_autocast_dtype(d, t);
#else
    if (d == c10::DeviceType::CUDA)
        at::autocast::set_autocast_gpu_dtype(t);
    else
        at::autocast::set_autocast_cpu_dtype(t);
#endif
}

} // namespace

std::optional<c10::ScalarType> autocastType(const std::string& precision) {
    if (precision == "bf16") return c10::kBFloat16;
    if (precision == "fp16") return c10::kHalf;
    return std::nullopt;
}

std::string precisionProblem(const std::string& precision, c10::Device device) {
    if (precision == "fp16" && !device.is_cuda())
        return "--precision fp16 needs a CUDA device (fp16 autocast with loss scaling); on the CPU use "
               "--precision bf16";
    return std::string();
}

AutocastScope::AutocastScope(c10::Device device, std::optional<c10::ScalarType> type) {
    if (!type) return;
    m_active = true;
    m_device = device.type();
    m_wasEnabled = autocastEnabled(m_device);
    m_wasType = autocastDtype(m_device);
    setAutocastEnabled(m_device, true);
    setAutocastDtype(m_device, *type);
    at::autocast::increment_nesting();
}

AutocastScope::~AutocastScope() {
    if (!m_active) return;
    if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
    setAutocastEnabled(m_device, m_wasEnabled);
    setAutocastDtype(m_device, m_wasType);
}

LossScaler::LossScaler(bool enabled, double initScale, std::int64_t growthInterval)
    : m_enabled(enabled), m_scale(initScale), m_growthInterval(growthInterval) {}

at::Tensor LossScaler::scale(const at::Tensor& loss) const {
    return m_enabled ? loss * m_scale : loss;
}

bool LossScaler::unscale(const std::vector<at::Tensor>& params) {
    if (!m_enabled) return true;
    at::NoGradGuard noGrad;
    const double inv = 1.0 / m_scale;
    std::vector<at::Tensor> finite; // one flag per gradient, read back once (one device sync, not one each)
    for (const at::Tensor& p : params) {
        at::Tensor g = p.grad();
        if (!g.defined()) continue;
        g.mul_(inv);
        finite.push_back(at::isfinite(g).all());
    }
    return finite.empty() || at::stack(finite).all().item<bool>();
}

void LossScaler::update(bool stepTaken) {
    if (!m_enabled) return;
    m_consecutive = stepTaken ? 0 : m_consecutive + 1;
    if (!stepTaken) {
        ++m_skipped;
        m_scale *= 0.5;
        m_cleanSteps = 0;
    } else if (++m_cleanSteps >= m_growthInterval) {
        m_scale *= 2.0;
        m_cleanSteps = 0;
    }
}

} // namespace ddpdesk::train
