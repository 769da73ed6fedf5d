#pragma once

// The program's part of who a rank is: its identity, its store and its run secret, read from the worker's
// flags, then the torchrun, Open MPI and Slurm environments.

#include "protocol/store_spec.h"
#include "train/base/identity.h"
#include "train/worker/options.h"

#include <cstdint>
#include <optional>
#include <string>

namespace ddpdesk::train {

// Throws TrainError(BAD_INPUT) for rank >= world size, world size < 1, or unparsable environment values.
Identity resolveIdentity(const WorkerOptions& options);

// Where the ranks meet: --store, else tcp://$MASTER_ADDR:$MASTER_PORT; nullopt when neither is given. Throws
// BAD_INPUT for a malformed spec or a TCP port outside 1..65535, so what comes back is a File or Tcp store.
std::optional<protocol::StoreSpec> resolveStore(const WorkerOptions& options);

// Rank 0 joins the TCP store as a client instead of hosting it: --external-store, or torchrun's agent hosts
// it (TORCHELASTIC_USE_AGENT_STORE=True with the store taken from MASTER_ADDR/MASTER_PORT).
bool storeHostedElsewhere(const WorkerOptions& options);

// The run secret's raw bytes from --run-secret-file, else $DDPDESK_RUN_SECRET (protocol/run_auth.h); empty
// when neither is given (a worker started by hand: no rank proof). Throws BAD_INPUT naming the flag or
// variable.
std::string resolveRunSecret(const WorkerOptions& options);

} // namespace ddpdesk::train
