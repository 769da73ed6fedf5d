#include "train/engine/trainer.h"

#include "train/engine/compressed_transport.h"
#include "train/engine/precision.h"

#include "protocol/sha256.h"

#include "train/base/errors.h"
#include "train/base/output_folder.h"
#include "train/base/telemetry_emitter.h"
#include "train/base/wait_report.h"
#include "train/data/sampler.h"
#include "train/engine/ddp_reducer.h"
#include <ddpdesk/build_info.h>

#include "protocol/telemetry.h"

#include <torch/torch.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <map>

namespace ddpdesk::train {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

} // namespace

struct Trainer::State {
    TrainerConfig cfg;
    Dataset data;
    std::unique_ptr<TrainModel> model;
    Collectives* group = nullptr;
    DistributedSampler sampler;
    std::vector<at::Tensor> params;
    std::unique_ptr<torch::optim::Optimizer> optimizer;
    std::unique_ptr<DdpReducer> reducer;
    TrainPosition pos;
    CheckpointIdentity ckptId;
    // Step telemetry averaged over the steps since the last step event.
    double accStepMs = 0, accCommMs = 0;
    std::int64_t accSteps = 0;
    std::optional<double> lastAccuracy;
    int evalPasses = 0; // test-set evaluations, and their time
    double evalTotalMs = 0;
    std::optional<c10::ScalarType> autocast; // --precision
    LossScaler scaler;                       // fp16 only

    State(TrainerConfig c, Dataset d, std::unique_ptr<TrainModel> m, Collectives* g)
        : cfg(std::move(c)), data(std::move(d)), model(std::move(m)), group(g),
          sampler(data.size(), cfg.identity.rank, cfg.identity.worldSize, cfg.seed),
          autocast(autocastType(cfg.settings.precision)), scaler(autocast == c10::kHalf) {}

    // The model's output and loss under --precision's autocast; the loss comes back in fp32.
    at::Tensor forwardLoss(const at::Tensor& x, const at::Tensor& target) {
        AutocastScope amp(cfg.device, autocast);
        return computeLoss(cfg.loss, model->forward(x), target).to(at::kFloat);
    }

    bool distributed() const { return group != nullptr; }

    // Runs a collective and turns its failure into the error the launcher expects, naming what was awaited.
    void awaitCollective(const std::shared_ptr<PendingCollective>& work, const std::string& what) {
        std::string collective;
        for (const char* name : {"allreduce", "broadcast", "barrier"})
            if (what.find(name) != std::string::npos) collective = name;
        WaitScope waiting({what, "training", collective});
        try {
            work->wait(cfg.collectiveTimeout);
        } catch (const CommError& e) {
            throw commFailure(e, what);
        }
    }

    TrainError commFailure(const CommError& e, const std::string& what) const {
        nlohmann::json waiting{{protocol::field::What, what},
                               {protocol::field::Step, pos.globalStep + 1},
                               {protocol::field::Epoch, pos.epoch + 1},
                               {protocol::field::WorldSize, cfg.identity.worldSize},
                               {protocol::field::TimeoutS, cfg.collectiveTimeout.count() / 1000.0}};
        if (e.kind() == CommFailure::Timeout)
            return TrainError(error_code::CollectiveTimeout,
                              what + " did not complete within " +
                                  std::to_string(cfg.collectiveTimeout.count() / 1000) +
                                  " s (a rank stopped making progress): " + e.what(),
                              exit_code::Timeout, waiting);
        return TrainError(
            error_code::PeerLost,
            what + " failed because another rank went away or its connection broke: " + std::string(e.what()),
            exit_code::PeerFailure, waiting);
    }

    // Shared memory for the gradient buckets between the ranks of each machine; across machines, Gloo between
    // one leader per machine (see local_exchange.h).
    void chooseGradTransport(nlohmann::json& plan) {
        const std::optional<c10::ScalarType> wire = compressionType(cfg.settings.gradCompression);
        std::vector<at::Tensor> buckets = reducer->bucketTemplates();
        if (wire)
            for (at::Tensor& b : buckets)
                b = b.to(*wire); // shared-memory slots hold what travels
        LocalGradientExchange::Setup setup;
        try {
            setup = LocalGradientExchange::setup(*group, buckets, cfg.gradTransport, cfg.collectiveTimeout,
                                                 cfg.identity.host);
        } catch (const CommError& e) {
            throw commFailure(e, "the shared-memory setup for gradients");
        }
        if (!setup.exchange && cfg.gradTransport == GradTransport::SharedMemory)
            throw TrainError(error_code::BadInput, "--grad-transport shm: " + setup.note,
                             exit_code::BadInput);
        const bool groupSums =
            !setup.exchange || !setup.exchange->spansJob(); // the group, or its leaders, sum
        std::unique_ptr<GradientTransport> transport = makeTransport(std::move(setup), plan);
        if (wire) {
            if (const std::string why = groupSums ? group->cannotSum(*wire) : std::string(); !why.empty()) {
                const bool fp16Sums = *wire != c10::kHalf && group->cannotSum(c10::kHalf).empty();
                throw TrainError(error_code::BadInput,
                                 "--grad-compression " + cfg.settings.gradCompression + ": " + why +
                                     "; use " +
                                     (fp16Sums ? "--grad-compression fp16" : "--grad-compression none") +
                                     ", or keep all ranks on one machine so gradients travel through shared "
                                     "memory",
                                 exit_code::BadInput);
            }
            transport = makeCompressedTransport(std::move(transport), *wire);
            plan[protocol::field::GradCompression] = cfg.settings.gradCompression;
        }
        reducer->useTransport(std::move(transport));
    }

    std::unique_ptr<GradientTransport> makeTransport(LocalGradientExchange::Setup setup,
                                                     nlohmann::json& plan) {
        auto& tm = TelemetryEmitter::instance();
        if (!setup.exchange) {
            if (!setup.note.empty()) {
                plan[protocol::field::GradTransportNote] = setup.note;
                tm.log("gradients travel through Gloo: " + setup.note);
            }
            return makeGroupTransport(*group);
        }
        std::unique_ptr<LocalGradientExchange> ex = std::move(setup.exchange);
        if (ex->spansJob()) {
            plan[protocol::field::GradTransport] = "shared_memory";
            tm.log("gradients travel through shared memory " + ex->name() + " (all ranks on this machine)");
            return makeSharedMemoryTransport(std::move(ex));
        }
        plan[protocol::field::GradTransport] = "hierarchical";
        plan[protocol::field::Nodes] = ex->nodeCount();
        plan[protocol::field::LocalRanks] = ex->localSize();
        tm.log("gradients travel through shared memory " + ex->name() + " between this machine's " +
               std::to_string(ex->localSize()) + " rank(s), and through Gloo between the " +
               std::to_string(ex->nodeCount()) + " machines' first ranks" +
               (ex->isLeader() ? " (this rank is this machine's)" : ""));
        std::unique_ptr<Collectives> leaders;
        if (ex->isLeader()) {
            if (!cfg.makeSubgroup)
                throw TrainError(error_code::TrainingFailed,
                                 "the ranks span several machines, but this rank has no store to connect the "
                                 "machines' first ranks through",
                                 exit_code::TrainingFailure);
            WaitScope waiting({"the Gloo connections between the nodes' leaders", "training", "connect"});
            leaders = cfg.makeSubgroup("ddpdesk/pg-nodes", ex->nodeIndex(), ex->nodeCount());
        }
        return makeHierarchicalTransport(std::move(ex), std::move(leaders));
    }

    // Every rank starts from rank 0's parameters and buffers, one flat broadcast per dtype.
    void broadcastInitialState() {
        if (!distributed() || group->size() == 1) return;
        torch::NoGradGuard noGrad;
        std::map<c10::ScalarType, std::vector<at::Tensor>> byType;
        for (auto& [name, t] : model->namedParameters())
            byType[t.scalar_type()].push_back(t);
        for (auto& [name, t] : model->namedBuffers())
            byType[t.scalar_type()].push_back(t);
        for (auto& [type, tensors] : byType) {
            std::vector<at::Tensor> flat;
            for (auto& t : tensors)
                flat.push_back(t.reshape({-1}));
            at::Tensor all = torch::cat(flat);
            awaitCollective(group->broadcast({all}, 0), "the initial parameter broadcast from rank 0");
            std::int64_t offset = 0;
            for (auto& t : tensors) {
                t.copy_(all.narrow(0, offset, t.numel()).view_as(t));
                offset += t.numel();
            }
        }
    }

    void makeOptimizer() {
        for (auto& [name, t] : model->namedParameters())
            params.push_back(t);
        if (cfg.workload == "autoencoder")
            optimizer = std::make_unique<torch::optim::Adam>(
                params, torch::optim::AdamOptions(cfg.lr).betas(std::make_tuple(0.0, 0.99)));
        else
            optimizer =
                std::make_unique<torch::optim::SGD>(params, torch::optim::SGDOptions(cfg.lr).momentum(0.9));
    }

    // Rank 0 reads the checkpoint and broadcasts its bytes, so ranks need not share the --out folder; every
    // rank decodes the same bytes and therefore reaches the same verdict (resume, corrupt or mismatch).
    void resumeIfAsked() {
        if (!cfg.settings.resume) return;
        fs::path path = cfg.outDir / "checkpoint.pt";
        std::vector<char> bytes;
        std::int64_t present = 0;
        if (cfg.identity.rank == 0) {
            std::error_code ec;
            if (fs::is_regular_file(path, ec)) {
                std::ifstream in(path, std::ios::binary);
                bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
                present = 1;
            }
        }
        if (distributed() && group->size() > 1) {
            at::Tensor header =
                torch::tensor({present, static_cast<std::int64_t>(bytes.size())}, torch::kLong);
            awaitCollective(group->broadcast({header}, 0), "the checkpoint broadcast from rank 0");
            present = header[0].item<std::int64_t>();
            std::int64_t size = header[1].item<std::int64_t>();
            if (present) {
                at::Tensor blob = torch::empty({size}, torch::kUInt8);
                if (cfg.identity.rank == 0)
                    std::memcpy(blob.data_ptr<std::uint8_t>(), bytes.data(), bytes.size());
                awaitCollective(group->broadcast({blob}, 0), "the checkpoint broadcast from rank 0");
                const char* p = reinterpret_cast<const char*>(blob.data_ptr<std::uint8_t>());
                bytes.assign(p, p + size);
            }
        }
        auto& tm = TelemetryEmitter::instance();
        if (!present) {
            tm.log("--resume: no checkpoint at " + path.string() + " on rank 0; starting from the beginning");
            return;
        }
        pos = decodeCheckpoint(bytes, path.string(), *model, *optimizer, ckptId);
        nlohmann::json e = tm.event(protocol::ev::Checkpoint);
        e[protocol::field::Path] = path.string();
        e[protocol::field::Step] = pos.globalStep;
        e[protocol::field::Epoch] = pos.epoch + 1;
        e[protocol::field::Resumed] = true;
        tm.emit(e);
        tm.log("resumed from " + path.string() + " at step " + std::to_string(pos.globalStep));
    }

    void writeCheckpoint(bool final) {
        if (cfg.identity.rank != 0) return;
        fs::path path = cfg.outDir / "checkpoint.pt";
        std::vector<char> bytes = encodeCheckpoint(*model, *optimizer, pos, ckptId);
        try {
            claimOutputFile(cfg.outDir, "checkpoint.pt");
            writeFileAtomically(path, [&](std::ostream& out) { out.write(bytes.data(), bytes.size()); });
            if (final) {
                claimOutputFile(cfg.outDir, "model.pt");
                writeFileAtomically(cfg.outDir / "model.pt", [&](std::ostream& out) { model->save(out); });
            }
        } catch (const std::exception& e) {
            throw TrainError(error_code::CheckpointWriteFailed,
                             std::string("writing the checkpoint failed: ") + e.what(),
                             exit_code::TrainingFailure);
        }
        auto& tm = TelemetryEmitter::instance();
        nlohmann::json ev = tm.event(protocol::ev::Checkpoint);
        ev[protocol::field::Path] = path.string();
        ev[protocol::field::Step] = pos.globalStep;
        ev[protocol::field::Epoch] = pos.epoch + 1;
        if (final) ev[protocol::field::Model] = (cfg.outDir / "model.pt").string();
        tm.emitQueued(ev);
    }

    at::Tensor allreduceStats(std::vector<double> values, const std::string& what) {
        at::Tensor t = torch::tensor(values, torch::kFloat64);
        if (distributed() && group->size() > 1) awaitCollective(group->allreduceSum(t), what);
        return t;
    }

    // Test accuracy (classification) or test loss, each rank evaluating a disjoint share of the test set.
    nlohmann::json evaluate() {
        if (!data.hasTest()) return nullptr;
        torch::NoGradGuard noGrad;
        model->setTraining(false);
        const std::int64_t n = data.xTest.size(0);
        at::Tensor mine = torch::arange(cfg.identity.rank, n, cfg.identity.worldSize, torch::kLong);
        double score = 0, count = 0;
        // Small chunks: a 1000-image chunk of the CNN needed ~400 MB of activations per worker.
        constexpr std::int64_t kChunk = 256;
        for (std::int64_t start = 0; start < mine.size(0); start += kChunk) {
            at::Tensor idx = mine.narrow(0, start, std::min<std::int64_t>(kChunk, mine.size(0) - start));
            at::Tensor out;
            {
                AutocastScope amp(cfg.device, autocast);
                out = model->forward(data.testInputs(idx).to(cfg.device)).to(at::kFloat);
            }
            at::Tensor target = data.yTest.index_select(0, idx).to(cfg.device);
            if (data.classification)
                score += out.argmax(1).eq(target).sum().item<double>();
            else
                score += computeLoss(cfg.loss, out, target).item<double>() * idx.size(0);
            count += idx.size(0);
        }
        model->setTraining(true);
        at::Tensor total = allreduceStats({score, count}, "the test-set evaluation allreduce");
        double c = total[1].item<double>();
        return c > 0 ? nlohmann::json(total[0].item<double>() / c) : nlohmann::json(nullptr);
    }

    // evaluate() as a validation pass the launcher sees: `eval` begin and end, with this rank's totals.
    nlohmann::json evaluatePass() {
        if (!data.hasTest()) return nullptr;
        auto& tm = TelemetryEmitter::instance();
        ++evalPasses;
        tm.emitQueued(evalEvent(protocol::eval_state::Begin, 0, 0));
        const auto t0 = Clock::now();
        nlohmann::json result = evaluate();
        const double ms = msSince(t0);
        evalTotalMs += ms;
        // This rank's share of the test set, as evaluate() takes it: every world-size-th from its rank.
        const std::int64_t n = data.xTest.size(0), rank = cfg.identity.rank, world = cfg.identity.worldSize;
        tm.emitQueued(
            evalEvent(protocol::eval_state::End, ms, n > rank ? (n - rank + world - 1) / world : 0));
        return result;
    }

    nlohmann::json evalEvent(const char* state, double ms, std::int64_t samples) const {
        nlohmann::json e = TelemetryEmitter::instance().event(protocol::ev::Eval);
        e[protocol::field::State] = state;
        e[protocol::field::Step] = pos.globalStep;
        e[protocol::field::Samples] = samples;
        e[protocol::field::EvalMs] = ms;
        e[protocol::field::EvalTotalMs] = evalTotalMs;
        e[protocol::field::Passes] = evalPasses;
        return e;
    }

    // SHA-256 of every parameter's bytes in order; empty above 256 MiB (not worth a second copy at exit).
    std::string parametersDigest() const {
        std::int64_t total = 0;
        for (const at::Tensor& p : params)
            total += p.numel() * static_cast<std::int64_t>(p.element_size());
        if (total > (std::int64_t(256) << 20)) return std::string();
        std::string bytes;
        bytes.reserve(static_cast<std::size_t>(total));
        for (const at::Tensor& p : params) {
            const at::Tensor c = p.detach().to(torch::kCPU).contiguous();
            bytes.append(static_cast<const char*>(c.data_ptr()), static_cast<std::size_t>(c.nbytes()));
        }
        return protocol::toHex(protocol::sha256(bytes));
    }

    std::int64_t samplesPerStep() const { return cfg.batchSize * cfg.settings.accumulate; }

    // One optimizer step: --accumulate micro-batches of the batch size. Each micro-batch's loss is weighted
    // by its share of the step's samples, so the summed gradients are those of one batch of all of them.
    double trainStep(const at::Tensor& order, std::int64_t k, ReducerStats& rs) {
        const std::int64_t begin = k * samplesPerStep();
        const std::int64_t end = std::min(begin + samplesPerStep(), sampler.samplesPerRank());
        noteProgress(pos.globalStep + 1, static_cast<int>(pos.epoch + 1));
        double value = 0;
        for (std::int64_t from = begin; from < end; from += cfg.batchSize) {
            const std::int64_t to = std::min(from + cfg.batchSize, end);
            at::Tensor idx = order.slice(0, from, to);
            at::Tensor x = data.inputs(idx).to(cfg.device);
            at::Tensor target = data.y.defined() ? data.y.index_select(0, idx).to(cfg.device) : x;
            reducer->prepareForBackward(from == begin, to == end);
            at::Tensor loss = forwardLoss(x, target);
            const double part = loss.item<double>();
            // fp16: an overflowing forward pass is the loss scaler's to skip, on every rank alike (the inf
            // reaches the reduced gradients); stopping this rank alone would fail the others with PEER_LOST.
            if (!std::isfinite(part) && !scaler.enabled())
                throw TrainError(error_code::NanLoss,
                                 "the loss became " + std::string(std::isnan(part) ? "NaN" : "infinite") +
                                     " at step " + std::to_string(pos.globalStep + 1) + " (epoch " +
                                     std::to_string(pos.epoch + 1) + "); lower --lr or check the data",
                                 exit_code::TrainingFailure);
            if (from == begin && to == end) { // no accumulation: exactly the plain DDP step
                value = part;
                scaler.scale(loss).backward();
            } else {
                const double share = static_cast<double>(to - from) / static_cast<double>(end - begin);
                value += part * share;
                (scaler.scale(loss) * share).backward();
            }
        }
        try {
            rs = reducer->finishBackward();
        } catch (const CommError& e) {
            throw commFailure(e, "the gradient allreduce");
        }
        // fp16: every rank holds the same reduced gradients, so every rank skips the same steps.
        const bool finite = scaler.unscale(params);
        scaler.update(finite);
        if (finite) optimizer->step();
        if (scaler.consecutiveSkips() >= LossScaler::kMaxConsecutiveSkips)
            throw TrainError(
                error_code::NanLoss,
                "--precision fp16: " + std::to_string(scaler.consecutiveSkips()) +
                    " steps in a row had inf/NaN gradients up to step " + std::to_string(pos.globalStep + 1) +
                    " whatever the loss scale; lower --lr, check the data, or use --precision bf16",
                exit_code::TrainingFailure);
        pos.samples += end - begin;
        return value;
    }

    void emitStep(double loss, const ReducerStats& rs, double stepMs, bool force, std::int64_t total) {
        accStepMs += stepMs;
        accCommMs += rs.commWaitMs;
        ++accSteps;
        auto& tm = TelemetryEmitter::instance();
        if (!tm.stepDue(force ? 0 : cfg.telemetryMs)) return;
        nlohmann::json e = tm.event(protocol::ev::Step);
        e[protocol::field::Epoch] = pos.epoch + 1;
        e[protocol::field::Step] = pos.globalStep;
        e[protocol::field::TotalSteps] = total;
        e[protocol::field::Loss] = loss;
        e[protocol::field::Samples] = pos.samples;
        e[protocol::field::StepMs] = accStepMs / accSteps;
        e[protocol::field::CommWaitMs] = accCommMs / accSteps;
        e[protocol::field::ComputeMs] = (accStepMs - accCommMs) / accSteps;
        e[protocol::field::BytesAllreduced] = rs.bytesAllreduced;
        e[protocol::field::AllreduceCalls] = rs.allreduceCalls;
        e[protocol::field::StepsAveraged] = accSteps;
        if (scaler.enabled()) {
            e[protocol::field::LossScale] = scaler.currentScale();
            e[protocol::field::SkippedSteps] = scaler.skippedSteps();
        }
        // A launcher that stopped reading (a hung GUI) must not hold the steps: a step event it has no room
        // for is not written, and the next one averages over these steps too. The run's last one is written
        // whatever.
        if (pos.globalStep == total)
            tm.emit(e);
        else if (!tm.emitIfRoom(e))
            return;
        accStepMs = accCommMs = 0;
        accSteps = 0;
    }
};

Trainer::Trainer(TrainerConfig config, Dataset data, std::unique_ptr<TrainModel> model, Collectives* group)
    : m(std::make_unique<State>(std::move(config), std::move(data), std::move(model), group)) {
    m->ckptId = CheckpointIdentity{m->cfg.workload,
                                   m->cfg.identity.worldSize,
                                   m->cfg.batchSize,
                                   m->cfg.seed,
                                   m->data.size(),
                                   m->cfg.settings.accumulate,
                                   m->cfg.settings.gradCompression,
                                   m->cfg.settings.precision};
}

Trainer::~Trainer() = default;

std::int64_t Trainer::batchesPerEpoch() const {
    return m->sampler.batchesPerEpoch(m->samplesPerStep());
}

std::int64_t Trainer::totalSteps() const {
    return m->cfg.steps ? *m->cfg.steps : m->cfg.epochs.value_or(1) * batchesPerEpoch();
}

void Trainer::run() {
    auto& tm = TelemetryEmitter::instance();
    State& s = *m;
    s.model->toDevice(s.cfg.device);
    s.model->setTraining(true);
    s.broadcastInitialState();
    if (s.cfg.afterBroadcast) s.cfg.afterBroadcast();
    s.makeOptimizer();
    s.resumeIfAsked();
    s.reducer = std::make_unique<DdpReducer>(s.params, s.group, s.cfg.bucketBytes, s.cfg.overlap,
                                             s.cfg.collectiveTimeout);
    if (s.distributed()) {
        nlohmann::json plan = tm.event(protocol::ev::Rendezvous);
        plan[protocol::field::Phase] = "done";
        plan[protocol::field::Buckets] = s.reducer->bucketSizesBytes();
        plan[protocol::field::Overlap] = s.cfg.overlap;
        plan[protocol::field::GradTransport] = s.group->backendName(); // "gloo", or a test's group
        plan[protocol::field::Precision] = s.cfg.settings.precision;
        plan[protocol::field::PrepareMs] = s.cfg.prepared.count();
        plan[protocol::field::PeerWaitMs] = s.cfg.waitedForPeers.count();
        if (s.group->size() > 1) s.chooseGradTransport(plan);
        tm.emit(plan);
    }

    const std::int64_t total = totalSteps();
    const std::int64_t batches = batchesPerEpoch();
    const std::int64_t firstSamples = s.pos.samples;
    double lastLoss = std::nan("");
    auto start = Clock::now();
    for (std::int64_t epoch = s.pos.epoch; s.pos.globalStep < total || s.pos.stepInEpoch == batches;
         ++epoch) {
        if (epoch > s.pos.epoch) {
            s.pos.epoch = epoch;
            s.pos.stepInEpoch = 0;
        }
        at::Tensor order = s.sampler.indices(epoch);
        double lossSum = 0;
        std::int64_t lossCount = 0;
        for (std::int64_t k = s.pos.stepInEpoch; k < batches && s.pos.globalStep < total; ++k) {
            auto t0 = Clock::now();
            ReducerStats rs;
            lastLoss = s.trainStep(order, k, rs);
            lossSum += lastLoss;
            ++lossCount;
            s.pos.stepInEpoch = k + 1;
            ++s.pos.globalStep;
            bool edge = s.pos.globalStep == total || k + 1 == batches || k == 0;
            s.emitStep(lastLoss, rs, msSince(t0), edge || s.cfg.telemetryMs == 0, total);
            if (s.cfg.settings.checkpointEvery > 0 &&
                s.pos.globalStep % s.cfg.settings.checkpointEvery == 0 && s.pos.globalStep < total)
                s.writeCheckpoint(false);
        }
        if (s.pos.stepInEpoch < batches) break; // stopped mid-epoch by --steps
        at::Tensor mean =
            s.allreduceStats({lossSum, static_cast<double>(lossCount)}, "the epoch-loss allreduce");
        nlohmann::json accuracy = s.evaluatePass();
        nlohmann::json e = tm.event(protocol::ev::Epoch);
        e[protocol::field::Epoch] = epoch + 1;
        e[protocol::field::TrainLoss] = mean[1].item<double>() > 0
                                            ? nlohmann::json(mean[0].item<double>() / mean[1].item<double>())
                                            : nlohmann::json(nullptr);
        e[s.data.classification ? "test_accuracy" : "test_loss"] = accuracy;
        if (s.data.classification)
            s.lastAccuracy =
                accuracy.is_number() ? std::optional<double>(accuracy.get<double>()) : std::nullopt;
        e[protocol::field::Step] = s.pos.globalStep;
        tm.emitQueued(e);
        s.pos.epoch = epoch + 1;
        s.pos.stepInEpoch = 0;
        if (s.cfg.epochs && s.pos.epoch >= *s.cfg.epochs) break;
    }
    double wall = std::chrono::duration<double>(Clock::now() - start).count();
    s.writeCheckpoint(true);
    if (s.distributed() && s.group->size() > 1) s.awaitCollective(s.group->barrier(), "the final barrier");

    nlohmann::json done = tm.event(protocol::ev::Done);
    done[protocol::field::Steps] = s.pos.globalStep;
    done[protocol::field::EpochsCompleted] = s.pos.epoch;
    done[protocol::field::WallS] = wall;
    done[protocol::field::FinalLoss] =
        std::isfinite(lastLoss) ? nlohmann::json(lastLoss) : nlohmann::json(nullptr);
    done[protocol::field::Samples] = s.pos.samples;
    if (s.scaler.enabled()) done[protocol::field::SkippedSteps] = s.scaler.skippedSteps();
    done[protocol::field::SamplesPerS] = wall > 0 ? (s.pos.samples - firstSamples) / wall : 0.0;
    done[protocol::field::TestAccuracy] =
        s.lastAccuracy ? nlohmann::json(*s.lastAccuracy) : nlohmann::json(nullptr);
    // DDP's promise, checkable from outside: every rank ends with the same parameters, bit for bit.
    const std::string digest = s.parametersDigest();
    if (!digest.empty()) done[protocol::field::ParamsSha256] = digest;
    if (s.cfg.identity.rank == 0) done[protocol::field::Model] = (s.cfg.outDir / "model.pt").string();
    tm.emit(done);
}

} // namespace ddpdesk::train
