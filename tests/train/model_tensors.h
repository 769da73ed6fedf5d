#pragma once

// The tensors behind a ModelParams, for the few tests that look at parameter values themselves.

#include "model_compare.h"

#include <ATen/Tensor.h>

#include <map>
#include <string>

namespace ddpdesk::traintest {

struct ModelParams::Tensors {
    std::map<std::string, at::Tensor> byName;
};

} // namespace ddpdesk::traintest
