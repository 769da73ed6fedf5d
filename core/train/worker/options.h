#pragma once

#include "protocol/worker_settings.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ddpdesk::train {

// Everything the command line can say (docs/engine.md and the worker contract list the flags).
// Unset optionals mean "use the environment or the workload's default".
struct WorkerOptions {
    std::string workload; // autoencoder | fashion-mnist | torchscript
    std::string modelPath;
    std::string dataPath;
    std::string loss; // mse | rmse | cross-entropy

    std::optional<int> rank, worldSize, localRank, localWorldSize;

    std::string store; // file:PATH | tcp://HOST:PORT
    bool externalStore = false;
    std::string iface;
    std::string runSecretFile; // --run-secret-file (the secret otherwise comes from the environment only)
    double timeoutSec = 60.0;
    std::optional<double> collectiveTimeoutSec; // default max(timeout, 300)

    protocol::WorkerSettings settings; // what the launcher passes to every rank (protocol/worker_settings.h)
    std::string device = "cpu";
    std::string outDir; // --out; empty: ./ddpdesk-out (train/output_folder.h)

    bool inspectStore = false;
    std::vector<std::string> keys;
    bool version = false;
};

struct ParsedCommandLine {
    WorkerOptions options;
    bool exitNow = false; // --help was printed
    int exitCode = 0;
};

// Parses and checks flags; throws TrainError(BAD_INPUT) naming the flag and what would be valid.
// Checks that need the environment (identity, store fallback) happen in identity.cpp.
ParsedCommandLine parseCommandLine(int argc, const char* const* argv);

} // namespace ddpdesk::train
