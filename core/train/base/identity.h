#pragma once

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
    bool localWorldKnown = false; // local world size came from flags/env, not assumed

    // Every rank runs on this machine, as far as the launcher told us: then nothing needs to leave loopback.
    bool allRanksLocal() const { return localWorldKnown && localWorldSize == worldSize; }
};

} // namespace ddpdesk::train
