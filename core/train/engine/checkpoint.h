#pragma once

#include "train/engine/models.h"

#include <torch/optim/optimizer.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace ddpdesk::train {

// Where training stands; with the sampler's seed this fixes the data order of everything still to come.
struct TrainPosition {
    std::int64_t epoch = 0;       // current epoch (0-based)
    std::int64_t stepInEpoch = 0; // batches of `epoch` already done
    std::int64_t globalStep = 0;  // optimizer steps done in total
    std::int64_t samples = 0;     // samples this rank has processed
};

// What must match for a checkpoint to continue a run exactly.
struct CheckpointIdentity {
    std::string workload;
    int worldSize = 1;
    std::int64_t batchSize = 0; // per rank
    std::uint64_t seed = 0;
    std::int64_t datasetSize = 0;
    std::int64_t accumulate = 1; // micro-batches per step: another value changes the results
    std::string gradCompression = "none";
    std::string precision = "fp32"; // autocast changes every step's arithmetic
};

// Writes through a temporary file in the same folder (created exclusively, flushed to the disk) and renames
// it over `path`, so a crash mid-write leaves the previous file intact. A symbolic link or folder at `path`
// is refused, not followed or replaced. Throws std::runtime_error with the reason.
void writeFileAtomically(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write);

// Serialises model parameters and buffers, optimizer state, position, the CPU RNG state and the identity.
std::vector<char> encodeCheckpoint(TrainModel& model, torch::optim::Optimizer& optimizer,
                                   const TrainPosition& pos, const CheckpointIdentity& identity);

// Restores everything encodeCheckpoint wrote. Throws TrainError CHECKPOINT_CORRUPT (unreadable, truncated,
// not a DDP Desk checkpoint) or CHECKPOINT_MISMATCH (another workload, model shape, world size, batch or
// seed).
TrainPosition decodeCheckpoint(const std::vector<char>& bytes, const std::string& source, TrainModel& model,
                               torch::optim::Optimizer& optimizer, const CheckpointIdentity& identity);

} // namespace ddpdesk::train
