#pragma once

#include <ATen/Tensor.h>

#include <string>

namespace ddpdesk::train {

enum class LossKind { Mse, Rmse, CrossEntropy };

// "mse" | "rmse" | "cross-entropy"; throws BAD_INPUT otherwise.
LossKind parseLoss(const std::string& name);
std::string lossName(LossKind kind);

// Mean over the batch, like the Python reference (RMSE = sqrt of the mean squared error of the batch).
at::Tensor computeLoss(LossKind kind, const at::Tensor& output, const at::Tensor& target);

} // namespace ddpdesk::train
