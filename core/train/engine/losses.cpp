#include "train/engine/losses.h"

#include "train/base/errors.h"

#include <torch/torch.h>

namespace ddpdesk::train {

LossKind parseLoss(const std::string& name) {
    if (name == "mse") return LossKind::Mse;
    if (name == "rmse") return LossKind::Rmse;
    if (name == "cross-entropy") return LossKind::CrossEntropy;
    throw badInput("--loss " + name + ": expected mse, rmse or cross-entropy");
}

std::string lossName(LossKind kind) {
    switch (kind) {
    case LossKind::Mse:
        return "mse";
    case LossKind::Rmse:
        return "rmse";
    case LossKind::CrossEntropy:
        return "cross-entropy";
    }
    return "?";
}

at::Tensor computeLoss(LossKind kind, const at::Tensor& output, const at::Tensor& target) {
    switch (kind) {
    case LossKind::Mse:
        return (output - target).pow(2).mean();
    case LossKind::Rmse:
        return (target - output).pow(2).mean().sqrt();
    case LossKind::CrossEntropy:
        return torch::nn::functional::cross_entropy(output, target);
    }
    return {};
}

} // namespace ddpdesk::train
