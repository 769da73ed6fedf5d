#pragma once

#include "train/options.h"

#include <cstdint>
#include <string>

namespace ddpdesk::train {

// Who this process is in the job, resolved from flags, then the torchrun, Open MPI and Slurm environments.
struct Identity {
    int rank = 0;
    int worldSize = 1;
    int localRank = 0;
    int localWorldSize = 1;
    std::string source; // "flags", "torchrun env", "Open MPI env", "Slurm env", "default" (for the rank)
    std::string host;
    std::int64_t pid = 0;
};

// Throws TrainError(BAD_INPUT) for rank >= world size, world size < 1, or unparsable environment values.
Identity resolveIdentity(const WorkerOptions& options);

// Where the ranks meet.
struct StoreAddress {
    enum class Kind { None, File, Tcp };
    Kind kind = Kind::None;
    std::string path;      // File
    std::string host;      // Tcp
    std::uint16_t port = 0; // Tcp
    std::string display;   // as the user would write it: file:PATH or tcp://HOST:PORT
};

// --store, else tcp://$MASTER_ADDR:$MASTER_PORT, else Kind::None. Throws BAD_INPUT for a malformed spec.
StoreAddress resolveStore(const WorkerOptions& options);

// Reads an environment variable; empty optional when unset or empty.
std::optional<std::string> envValue(const char* name);

} // namespace ddpdesk::train
