#pragma once

#include "train/base/collectives.h"
#include "train/base/identity.h"
#include "train/data/datasets.h"
#include "train/engine/checkpoint.h"
#include "train/engine/local_exchange.h"
#include "train/engine/losses.h"
#include "train/engine/models.h"

#include "protocol/worker_settings.h"

#include <c10/core/Device.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace ddpdesk::train {

struct TrainerConfig {
    Identity identity;
    std::string workload;
    LossKind loss = LossKind::Mse;
    std::int64_t batchSize = 1;         // per rank
    std::optional<std::int64_t> epochs; // exactly one of epochs / steps is set
    std::optional<std::int64_t> steps;
    double lr = 0.01;
    std::uint64_t seed = 0;
    std::int64_t bucketBytes = 25ll << 20;
    bool overlap = true;
    GradTransport gradTransport = GradTransport::Auto;
    c10::Device device = c10::Device(c10::kCPU);
    std::chrono::milliseconds collectiveTimeout{300000};
    std::filesystem::path outDir;
    int telemetryMs = 100;
    // This rank's own start-up (data set, model, probe) beside the rendezvous, and how long it then waited
    // for the rendezvous to end: the `rendezvous` event of phase `done` reports both.
    std::chrono::milliseconds prepared{0}, waitedForPeers{0};
    // Creates a Gloo group of some ranks on the job's store and device (rendezvous.h createSubgroup), for the
    // nodes' leaders of the hierarchical gradient exchange; collective over those ranks only.
    std::function<std::unique_ptr<Collectives>(const std::string& prefix, int rank, int size)> makeSubgroup;
    // Called once rank 0's parameters have reached every rank (the job's first collective).
    std::function<void()> afterBroadcast;
    protocol::WorkerSettings settings; // as given; the values above are resolved from it and the workload
};

// The DDP step loop for one rank: initial broadcast from rank 0, optional resume, sharded batches, bucketed
// overlapped allreduce, optimizer step, telemetry, checkpoints, per-epoch evaluation, final model. `group` is
// null for a single process without a store (no communication at all).
class Trainer {
public:
    Trainer(TrainerConfig config, Dataset data, std::unique_ptr<TrainModel> model, Collectives* group);
    ~Trainer();

    // Trains to the end and emits `done`. Throws TrainError (NaN loss, checkpoint problems) or CommError.
    void run();

    // Steps per epoch for this rank and the total the run will take (known before training).
    std::int64_t batchesPerEpoch() const;
    std::int64_t totalSteps() const;

private:
    struct State;
    std::unique_ptr<State> m;
};

} // namespace ddpdesk::train
