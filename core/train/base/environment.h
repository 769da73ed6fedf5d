#pragma once

#include <optional>
#include <string>

namespace ddpdesk::train {

// Reads an environment variable; empty optional when unset or empty (an empty value is no choice at all).
std::optional<std::string> envValue(const char* name);

} // namespace ddpdesk::train
