#pragma once

#include "train/options.h"

#include <map>
#include <optional>
#include <string>

namespace ddpdesk::train {

// --inspect-store: connects to --store as a client, never creating or modifying it, and prints ONE line
//   {"event":"store_inspect","reachable":bool,"error":str|null,"keys":{"<key>":"<value>"|null}, ...}
// Returns 0 when the store answered, 3 when it is not reachable (or not a store) within --timeout.
int inspectStore(const WorkerOptions& options);

// Reads a c10d FileStore file without locking or writing it: the entries as c10d's FileStore would see them
// (user keys without c10d's internal "/" prefix; deleted keys removed). A partly written last entry is
// ignored.
struct FileStoreSnapshot {
    std::map<std::string, std::string> keys;     // user keys
    std::map<std::string, std::string> internal; // c10d bookkeeping, e.g. "cleanup/" (ranks that finished)
};
std::optional<FileStoreSnapshot> readFileStore(const std::string& path, std::string* error);

} // namespace ddpdesk::train
