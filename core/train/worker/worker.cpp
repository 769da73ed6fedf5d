#include "train/worker/worker.h"

#include "os/platform.h"
#include "os/shared_memory.h"
#include "train/base/errors.h"
#include "train/base/output_folder.h"
#include "train/base/telemetry_emitter.h"
#include "train/base/wait_report.h"
#include "train/data/datasets.h"
#include "train/data/node_data.h"
#include "train/engine/precision.h"
#include "train/engine/trainer.h"
#include "train/rendezvous/rendezvous.h"
#include "train/worker/options.h"
#include "train/worker/resolve_identity.h"
#include "train/worker/store_inspect.h"

#include "os/utf8_path.h"
#include "protocol/telemetry.h"
#include "protocol/warm_start.h"

#include <ddpdesk/build_info.h>

#include <torch/cuda.h>
#include <torch/torch.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <mutex>
#include <thread>

namespace ddpdesk::train {

namespace fs = std::filesystem;

namespace {

// Leaves without destructors (a rendezvous thread may still be inside a library call), so the names of shared
// blocks this rank created go here.
[[noreturn]] void finish(int code) {
    SharedMemory::removeCreatedNames();
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(code);
}

c10::Device chooseDevice(const WorkerOptions& o, const Identity& id) {
    if (o.device == "cpu") return c10::Device(c10::kCPU);
    if (!torch::cuda::is_available()) {
        std::string why =
            DDPDESK_TORCH_HAS_CUDA
                ? "no CUDA device is visible (driver missing, or CUDA_VISIBLE_DEVICES hides every GPU)"
                : "this ddpdesk-worker was built with a CPU-only LibTorch";
        throw TrainError(error_code::DeviceUnavailable,
                         "--device cuda is not available: " + why + "; use --device cpu",
                         exit_code::BadInput);
    }
    // One GPU per local rank, counting among the GPUs CUDA_VISIBLE_DEVICES leaves visible.
    int count = static_cast<int>(torch::cuda::device_count());
    return c10::Device(c10::kCUDA, static_cast<c10::DeviceIndex>(id.localRank % count));
}

// IDX images are one copy per machine where the launcher said which ranks share it and gave the run a secret
// to name the copy after (node_data.h).
NodeDataShare dataShare(const WorkerOptions& o, const Identity& id) {
    return NodeDataShare({resolveRunSecret(o), id.localRank, id.localWorldSize, id.localWorldKnown,
                          std::chrono::milliseconds(static_cast<std::int64_t>(o.timeoutSec * 1000.0))});
}

Dataset loadData(const WorkerOptions& o, NodeDataShare& share) {
    if (o.workload == "autoencoder") return makeLinspaceDataset();
    std::string path = o.dataPath.empty() ? defaultDataDir() : o.dataPath;
    std::error_code ec;
    if (o.workload == "torchscript" && fs::is_regular_file(fs::path(path), ec)) return loadTensorFile(path);
    Dataset d = loadIdxDataset(path, share.enabled() ? &share : nullptr);
    if (!share.note().empty()) TelemetryEmitter::instance().log(share.note());
    return d;
}

// Runs the model once on two samples before training, so a model that cannot take this data fails fast
// and identically on every rank.
void probeModel(TrainModel& model, const Dataset& data, LossKind loss, const std::string& workload) {
    try {
        torch::NoGradGuard noGrad;
        model.setTraining(false);
        at::Tensor x = data.firstInputs(2);
        at::Tensor target = data.y.defined() ? data.y.narrow(0, 0, x.size(0)) : x;
        computeLoss(loss, model.forward(x), target);
        model.setTraining(true);
    } catch (const TrainError&) {
        throw;
    } catch (const std::exception& e) {
        std::string what = e.what();
        throw TrainError(error_code::ModelInvalid,
                         workload + " model cannot train on this data with loss " + lossName(loss) + ": " +
                             what.substr(0, what.find('\n')),
                         exit_code::BadInput);
    }
}

void emitHello(const WorkerOptions& o, const Identity& id, int threads,
               const std::optional<protocol::StoreSpec>& store) {
    auto& tm = TelemetryEmitter::instance();
    nlohmann::json e = tm.event(protocol::ev::Hello);
    e[protocol::field::WorldSize] = id.worldSize;
    e[protocol::field::LocalRank] = id.localRank;
    e[protocol::field::LocalWorldSize] = id.localWorldSize;
    e[protocol::field::IdentitySource] = id.source;
    e[protocol::field::Host] = id.host;
    e[protocol::field::Pid] = id.pid;
    e[protocol::field::Device] = o.device;
    e[protocol::field::Workload] = o.workload;
    e[protocol::field::Threads] = threads;
    e[protocol::field::Store] =
        store ? nlohmann::json(protocol::storeSpecText(*store)) : nlohmann::json(nullptr);
    e[protocol::field::Versions] = {{protocol::field::VersionDdpdesk, DDPDESK_VERSION},
                                    {protocol::field::VersionTorch, DDPDESK_TORCH_VERSION},
                                    {protocol::field::VersionProtocol, protocol::kVersion}};
    tm.emit(e);
}

// What can be refused without loading anything, before this rank announces itself in the store. Returns
// the folder rank 0 writes into.
fs::path checkBeforeArriving(const WorkerOptions& o, const Identity& id, c10::Device device) {
    if (const std::string why = precisionProblem(o.settings.precision, device); !why.empty())
        throw badInput(why);
    fs::path out = prepareOutputFolder(o.outDir, id);
    if (o.workload != "autoencoder" && o.workload != "torchscript")
        checkIdxDatasetPresent(o.dataPath.empty() ? defaultDataDir() : o.dataPath);
    return out;
}

std::chrono::milliseconds collectiveTimeout(const WorkerOptions& o) {
    return std::chrono::milliseconds(
        static_cast<std::int64_t>(1000.0 * o.collectiveTimeoutSec.value_or(std::max(o.timeoutSec, 300.0))));
}

RendezvousConfig rendezvousConfig(const WorkerOptions& o, const Identity& id,
                                  const protocol::StoreSpec& store) {
    RendezvousConfig rc;
    rc.address = store;
    rc.externalStore = storeHostedElsewhere(o);
    rc.identity = id;
    rc.timeout = std::chrono::milliseconds(static_cast<std::int64_t>(o.timeoutSec * 1000.0));
    rc.collectiveTimeout = collectiveTimeout(o);
    rc.device = chooseGlooDevice(o.iface, store, id);
    rc.secret = resolveRunSecret(o);
    return rc;
}

// The rendezvous waits on the other ranks (store, arrivals, Gloo's mesh) while loading the data set, building
// the model and probing it is this rank's own work: they run at the same time, so the first step waits for
// the slower of the two, not their sum. A packaged task on a detached thread, not std::async, whose future
// would block a failing rank's exit until the rendezvous ended: a rank that fails while it runs leaves
// through runWorker's std::_Exit; every other path waits for it in get() first. What can fail without the
// data is checked before it starts (checkBeforeArriving), so a typo in a flag never leaves an arrival in a
// store the user keeps. A slower peer's start-up is then waited for in the first broadcast, bounded by the
// collective timeout (by default the larger of --timeout and 300 s).
std::future<RendezvousResult> startRendezvous(const RendezvousConfig& rc) {
    std::packaged_task<RendezvousResult()> task([rc] { return rendezvous(rc); });
    std::future<RendezvousResult> result = task.get_future();
    std::thread(std::move(task)).detach();
    return result;
}

TrainerConfig makeConfig(const WorkerOptions& o, const Identity& id, const Dataset& data, c10::Device device,
                         const fs::path& outDir) {
    const protocol::WorkerSettings& s = o.settings;
    TrainerConfig c;
    c.settings = s;
    c.identity = id;
    c.workload = o.workload;
    std::int64_t defaultBatch = o.workload == "autoencoder" ? 50 : 64;
    if (s.globalBatch) {
        // Samples per optimizer step over all ranks: world size x micro-batches x batch size.
        const std::int64_t parts = id.worldSize * s.accumulate;
        if (*s.globalBatch % parts != 0)
            throw badInput("--global-batch " + std::to_string(*s.globalBatch) +
                           " does not split evenly over " + std::to_string(id.worldSize) + " ranks" +
                           (s.accumulate > 1 ? " x " + std::to_string(s.accumulate) + " micro-batches" : "") +
                           "; use a multiple of " + std::to_string(parts));
        c.batchSize = *s.globalBatch / parts;
    } else {
        c.batchSize = s.batchSize.value_or(defaultBatch);
    }
    if (!o.loss.empty())
        c.loss = parseLoss(o.loss);
    else if (o.workload == "autoencoder")
        c.loss = LossKind::Rmse;
    else
        c.loss = data.classification ? LossKind::CrossEntropy : LossKind::Mse;
    if (c.loss == LossKind::CrossEntropy && !data.classification)
        throw badInput("--loss cross-entropy needs integer class labels; this data has " +
                       std::string(data.y.defined() ? "float targets" : "no labels"));
    c.lr = s.lr.value_or(protocol::defaultLearningRate(o.workload));
    c.epochs = s.epochs;
    c.steps = s.steps;
    if (!c.epochs && !c.steps) c.epochs = 1;
    c.seed = std::uint64_t(s.seed.value_or(0));
    c.bucketBytes = static_cast<std::int64_t>(s.bucketMb.value_or(25.0) * 1024.0 * 1024.0);
    c.overlap = !s.noOverlap;
    c.gradTransport = s.gradTransport == "shm"    ? GradTransport::SharedMemory
                      : s.gradTransport == "gloo" ? GradTransport::Gloo
                                                  : GradTransport::Auto;
    c.device = device;
    c.collectiveTimeout = collectiveTimeout(o);
    c.outDir = outDir;
    c.telemetryMs = s.telemetryMs.value_or(100);
    return c;
}

// `given`: the rank's group when its caller made it (ranks as threads, runRankInGroup); null: the worker's
// own way, a rendezvous through the store.
int train(const WorkerOptions& o, Collectives* given) {
    auto& tm = TelemetryEmitter::instance();
    Identity id = resolveIdentity(o);
    tm.setRank(id.rank);
    if (!given) startWaitReporter(id.rank, id.pid); // the process's: one per worker
    const std::optional<protocol::StoreSpec> store = given ? std::nullopt : resolveStore(o);
    int threads = o.settings.threads.value_or(std::max(1, logicalCores() / id.localWorldSize));
    emitHello(o, id, threads, store);
    if (!store && !given && id.worldSize > 1)
        throw badInput(
            "world size " + std::to_string(id.worldSize) +
            " needs a rendezvous store: --store file:PATH or tcp://HOST:PORT (or MASTER_ADDR/MASTER_PORT)");
    if (o.externalStore && (!store || store->kind != protocol::StoreSpec::Kind::Tcp))
        throw badInput("--external-store only applies to a tcp:// store");

    at::set_num_threads(threads);
    keepFreedMemory();
    c10::Device device = chooseDevice(o, id);
    const auto started = std::chrono::steady_clock::now();
    std::future<RendezvousResult> joining;
    const fs::path outDir = checkBeforeArriving(o, id, device);
    std::optional<RendezvousConfig> rc;
    if (store) {
        rc = rendezvousConfig(o, id, *store);
        joining = startRendezvous(*rc);
    }
    NodeDataShare share = dataShare(o, id);
    Dataset data = loadData(o, share);
    if (o.settings.limitSamples) limitSamples(data, *o.settings.limitSamples);
    TrainerConfig config = makeConfig(o, id, data, device, outDir);
    std::unique_ptr<TrainModel> model;
    {
        // torch's default generator belongs to the process: ranks that share one (threads, runRankInGroup)
        // draw their initial parameters one at a time, so each rank's are those of its seed.
        static std::mutex seeding;
        std::lock_guard<std::mutex> lock(seeding);
        torch::manual_seed(std::uint64_t(o.settings.seed.value_or(0)));
        model = makeModel(o.workload, o.modelPath);
    }
    probeModel(*model, data, config.loss, o.workload);
    tm.log(
        data.description + "; " + model->describe() + "; batch " + std::to_string(config.batchSize) +
        (o.settings.accumulate > 1 ? " x " + std::to_string(o.settings.accumulate) + " micro-batches" : "") +
        " per rank; " + std::to_string(threads) + " thread(s)" +
        (o.settings.precision != "fp32" ? "; " + o.settings.precision + " autocast" : ""));

    const auto prepared = std::chrono::steady_clock::now();
    config.prepared = std::chrono::duration_cast<std::chrono::milliseconds>(prepared - started);
    RendezvousResult rdv;
    if (joining.valid()) rdv = joining.get(); // rethrows the rendezvous' TrainError
    config.waitedForPeers =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - prepared);
    // Every local rank has its data by the end of the first broadcast: the shared images need no name then.
    config.afterBroadcast = [&share] { share.releaseNames(); };
    if (rc)
        config.makeSubgroup = [rc = *rc, kv = rdv.store](const std::string& prefix, int rank, int size) {
            return createSubgroup(rc, kv, prefix, rank, size);
        };
    Trainer trainer(config, std::move(data), std::move(model), given ? given : rdv.group.get());
    trainer.run();
    return exit_code::Ok;
}

// A warm worker (protocol/warm_start.h): LibTorch is loaded by now; the run's arguments, environment and
// folder come as one line on stdin.
int runWarm(const char* program) {
    std::string line;
    if (!std::getline(std::cin, line)) return exit_code::Ok; // the launcher let it go unused
    protocol::WarmStartRequest request;
    std::string error;
    if (!protocol::decodeWarmStart(line, &request, &error))
        throw badInput(std::string(protocol::kWaitForConfigFlag) + ": " + error);
    for (const auto& [name, value] : request.env)
        if (!setEnvironmentVariable(name, &value))
            throw badInput(std::string(protocol::kWaitForConfigFlag) + ": cannot set " + name);
    for (const std::string& name : request.unset)
        setEnvironmentVariable(name, nullptr);
    if (!request.cwd.empty()) {
        std::error_code ec;
        fs::current_path(os::pathFromUtf8(request.cwd), ec);
        if (ec)
            throw badInput(std::string(protocol::kWaitForConfigFlag) + ": cannot enter the folder " +
                           request.cwd + ": " + ec.message());
    }
    std::vector<const char*> argv{program};
    for (const std::string& a : request.args)
        argv.push_back(a.c_str());
    return runWorker(static_cast<int>(argv.size()), argv.data());
}

// A failure as the launcher reads it: the `error` event; returns its exit code.
int reportFailure(const std::exception& e) {
    auto& tm = TelemetryEmitter::instance();
    if (const auto* failure = dynamic_cast<const TrainError*>(&e)) {
        tm.emitError(*failure);
        return failure->exitCode();
    }
    std::string what = e.what();
    tm.emitError(
        TrainError(error_code::TrainingFailed, what.substr(0, what.find('\n')), exit_code::TrainingFailure));
    return exit_code::TrainingFailure;
}

} // namespace

int runWorker(int argc, const char* const* argv) {
    try {
        if (argc == 2 && std::strcmp(argv[1], protocol::kWaitForConfigFlag) == 0) return runWarm(argv[0]);
        ParsedCommandLine cl = parseCommandLine(argc, argv);
        if (cl.exitNow) return cl.exitCode;
        if (cl.options.inspectStore) return inspectStore(cl.options);
        return train(cl.options, nullptr);
    } catch (const std::exception& e) {
        finish(reportFailure(e));
    }
}

int runRankInGroup(const std::vector<std::string>& args, Collectives& group) {
    try {
        std::vector<const char*> argv{"ddpdesk-worker"};
        for (const std::string& a : args)
            argv.push_back(a.c_str());
        ParsedCommandLine cl = parseCommandLine(static_cast<int>(argv.size()), argv.data());
        if (cl.exitNow) return cl.exitCode;
        if (cl.options.inspectStore) throw badInput("--inspect-store needs a store, not a group");
        return train(cl.options, &group);
    } catch (const std::exception& e) {
        return reportFailure(e);
    }
}

} // namespace ddpdesk::train
