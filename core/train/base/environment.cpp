#include "train/base/environment.h"

#include <cstdlib>

namespace ddpdesk::train {

std::optional<std::string> envValue(const char* name) {
    const char* v = std::getenv(name);
    if (!v || !*v) return std::nullopt;
    return std::string(v);
}

} // namespace ddpdesk::train
