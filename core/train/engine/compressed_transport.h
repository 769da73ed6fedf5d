#pragma once

// --grad-compression fp16|bf16: PyTorch's fp16/bf16 compression communication hooks as a GradientTransport
// wrapper. Each complete bucket (already divided by the world size) is cast to the wire type, exchanged by
// the wrapped transport and cast back; every rank receives the same reduced values, so every rank still ends
// with identical parameters.

#include "train/engine/gradient_transport.h"

#include <c10/core/ScalarType.h>

#include <memory>
#include <optional>
#include <string>

namespace ddpdesk::train {

// The wire type for a --grad-compression value: nullopt for "none".
std::optional<c10::ScalarType> compressionType(const std::string& setting);

// `inner` must exchange tensors of `wire` type (a shared-memory exchange set up with wire-type buckets).
std::unique_ptr<GradientTransport> makeCompressedTransport(std::unique_ptr<GradientTransport> inner,
                                                           c10::ScalarType wire);

} // namespace ddpdesk::train
