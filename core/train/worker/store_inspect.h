#pragma once

#include "train/worker/options.h"

#include <map>
#include <optional>
#include <string>

namespace ddpdesk::train {

// --inspect-store: connects to --store as a client, never creating or modifying it, and prints ONE line
//   {"event":"store_inspect","reachable":bool,"error":str|null,"keys":{"<key>":"<value>"|null}, ...}
// Returns 0 when the store answered, 3 when it is not reachable (or not a store) within --timeout.
int inspectStore(const WorkerOptions& options);

} // namespace ddpdesk::train
