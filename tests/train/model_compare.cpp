#include "model_tensors.h"

#include "train/engine/models.h"

#include <torch/torch.h>

#include <algorithm>
#include <fstream>
#include <limits>

namespace ddpdesk::traintest {

ModelParams::ModelParams() : m_tensors(std::make_shared<Tensors>()) {}

ModelParams::ModelParams(std::shared_ptr<const Tensors> tensors) : m_tensors(std::move(tensors)) {}

bool ModelParams::empty() const {
    return m_tensors->byName.empty();
}

std::size_t ModelParams::size() const {
    return m_tensors->byName.size();
}

std::vector<std::string> ModelParams::names() const {
    std::vector<std::string> out;
    for (const auto& entry : m_tensors->byName)
        out.push_back(entry.first);
    return out;
}

std::optional<double> ModelParams::sumOf(const std::string& name) const {
    const auto it = m_tensors->byName.find(name);
    if (it == m_tensors->byName.end()) return std::nullopt;
    return it->second.sum().item<double>();
}

ModelParams loadModelFile(const std::string& workload, const std::string& path) {
    auto out = std::make_shared<ModelParams::Tensors>();
    auto model = train::makeModel(workload, "");
    std::ifstream in(path, std::ios::binary);
    model->load(in);
    for (auto& [name, t] : model->namedParameters())
        out->byName[name] = t.detach().clone();
    return ModelParams(std::move(out));
}

double maxRelativeDifference(const ModelParams& a, const ModelParams& b) {
    const auto& ta = a.tensors().byName;
    const auto& tb = b.tensors().byName;
    if (ta.size() != tb.size() || ta.empty()) return std::numeric_limits<double>::infinity();
    double worst = 0;
    for (const auto& [name, t] : ta) {
        auto it = tb.find(name);
        if (it == tb.end() || it->second.sizes() != t.sizes()) return std::numeric_limits<double>::infinity();
        const double denom = it->second.norm().item<double>();
        const double diff = (t - it->second).norm().item<double>();
        worst = std::max(worst, denom > 0 ? diff / denom : diff);
    }
    return worst;
}

} // namespace ddpdesk::traintest
