#pragma once

#include "protocol/store_spec.h"
#include "train/worker/options.h"

#include <cstdint>
#include <optional>
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
    bool localWorldKnown = false; // local world size came from flags/env, not assumed

    // Every rank runs on this machine, as far as the launcher told us: then nothing needs to leave loopback.
    bool allRanksLocal() const { return localWorldKnown && localWorldSize == worldSize; }
};

// Throws TrainError(BAD_INPUT) for rank >= world size, world size < 1, or unparsable environment values.
Identity resolveIdentity(const WorkerOptions& options);

// Where the ranks meet: --store, else tcp://$MASTER_ADDR:$MASTER_PORT; nullopt when neither is given. Throws
// BAD_INPUT for a malformed spec or a TCP port outside 1..65535, so what comes back is a File or Tcp store.
std::optional<protocol::StoreSpec> resolveStore(const WorkerOptions& options);

// The run secret's raw bytes from --run-secret-file, else $DDPDESK_RUN_SECRET (protocol/run_auth.h); empty
// when neither is given (a worker started by hand: no rank proof). Throws BAD_INPUT naming the flag or
// variable.
std::string resolveRunSecret(const WorkerOptions& options);

// Reads an environment variable; empty optional when unset or empty.
std::optional<std::string> envValue(const char* name);

} // namespace ddpdesk::train
