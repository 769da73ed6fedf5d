#pragma once

// Compares models the worker wrote: shared by the Qt-free harness (worker_harness_std.h) and the Qt one
// (worker_harness.h), plain LibTorch.

#include "train/models.h"

#include <torch/torch.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <map>
#include <string>

namespace ddpdesk::traintest {

// Parameters of a model.pt the worker wrote, by name.
inline std::map<std::string, at::Tensor> loadModelFile(const std::string& workload, const std::string& path) {
    std::map<std::string, at::Tensor> out;
    auto model = train::makeModel(workload, "");
    std::ifstream in(path, std::ios::binary);
    model->load(in);
    for (auto& [name, t] : model->namedParameters())
        out[name] = t.detach().clone();
    return out;
}

// Largest relative difference ||a-b|| / ||b|| over all parameters (missing names count as infinite).
inline double maxRelativeDifference(const std::map<std::string, at::Tensor>& a,
                                    const std::map<std::string, at::Tensor>& b) {
    if (a.size() != b.size() || a.empty()) return std::numeric_limits<double>::infinity();
    double worst = 0;
    for (const auto& [name, t] : a) {
        auto it = b.find(name);
        if (it == b.end() || it->second.sizes() != t.sizes()) return std::numeric_limits<double>::infinity();
        double denom = it->second.norm().item<double>();
        double diff = (t - it->second).norm().item<double>();
        worst = std::max(worst, denom > 0 ? diff / denom : diff);
    }
    return worst;
}

} // namespace ddpdesk::traintest
