#pragma once

// Compares models the worker wrote: shared by the Qt-free harness (worker_harness_std.h) and the Qt one
// (worker_harness.h). No LibTorch header here: most engine tests only compare, and LibTorch's headers cost
// each test file about 20 s to compile (more with LibTorch 2.x's C++20 ones); model_compare.cpp holds the
// tensors. A test that looks at the tensors themselves includes model_tensors.h.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ddpdesk::traintest {

// Parameters of a model.pt the worker wrote, by name.
class ModelParams {
public:
    struct Tensors;
    ModelParams();
    explicit ModelParams(std::shared_ptr<const Tensors> tensors);

    bool empty() const;
    std::size_t size() const;
    std::vector<std::string> names() const;
    // The sum of one parameter's values; empty when the model has no parameter of that name.
    std::optional<double> sumOf(const std::string& name) const;
    const Tensors& tensors() const { return *m_tensors; }

private:
    std::shared_ptr<const Tensors> m_tensors;
};

// Throws what LibTorch throws when the file is not a model of `workload`.
ModelParams loadModelFile(const std::string& workload, const std::string& path);

// Largest relative difference ||a-b|| / ||b|| over all parameters (missing names count as infinite).
double maxRelativeDifference(const ModelParams& a, const ModelParams& b);

} // namespace ddpdesk::traintest
