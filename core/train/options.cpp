#include "train/options.h"

#include "train/errors.h"

#include "protocol/run_auth.h"

#include <CLI/CLI.hpp>

#include <cmath>
#include <iostream>
#include <sstream>

namespace ddpdesk::train {

namespace {

void requirePositive(const std::optional<std::int64_t>& v, const char* flag) {
    if (v && *v < 1)
        throw badInput(std::string(flag) + " must be at least 1 (got " + std::to_string(*v) + ")");
}

void checkValues(const WorkerOptions& o) {
    if (!o.inspectStore && !o.version) {
        if (o.workload.empty())
            throw badInput("--workload is required: autoencoder, fashion-mnist or torchscript");
        if (o.workload == "torchscript" && o.modelPath.empty())
            throw badInput("--workload torchscript needs --model FILE (a module saved with torch.jit.save)");
        if (o.workload != "torchscript" && !o.modelPath.empty())
            throw badInput("--model is only used with --workload torchscript");
    }
    if (!(o.timeoutSec > 0) || !std::isfinite(o.timeoutSec))
        throw badInput("--timeout must be a positive number of seconds");
    if (o.collectiveTimeoutSec && (!(*o.collectiveTimeoutSec > 0) || !std::isfinite(*o.collectiveTimeoutSec)))
        throw badInput("--collective-timeout must be a positive number of seconds");
    if (o.epochs && o.steps) throw badInput("give either --epochs or --steps, not both");
    requirePositive(o.epochs, "--epochs");
    requirePositive(o.steps, "--steps");
    if (o.batchSize && o.globalBatch)
        throw badInput("give either --batch-size (per rank) or --global-batch, not both");
    requirePositive(o.batchSize, "--batch-size");
    requirePositive(o.globalBatch, "--global-batch");
    requirePositive(o.limitSamples, "--limit-samples");
    if (o.lr && !(*o.lr > 0 && std::isfinite(*o.lr))) throw badInput("--lr must be a positive number");
    if (o.threads && *o.threads < 1) throw badInput("--threads must be at least 1");
    if (!(o.bucketMb > 0) || !std::isfinite(o.bucketMb))
        throw badInput("--bucket-mb must be a positive number of MiB");
    if (o.checkpointEvery < 0)
        throw badInput("--checkpoint-every must be 0 (only at the end) or a number of steps");
    if (o.telemetryMs < 0)
        throw badInput("--telemetry-ms must be 0 (every step) or a positive number of milliseconds");
    if (o.worldSize && *o.worldSize < 1)
        throw badInput("--world-size must be at least 1 (got " + std::to_string(*o.worldSize) + ")");
    if (o.rank && *o.rank < 0)
        throw badInput("--rank must be 0 or more (got " + std::to_string(*o.rank) + ")");
}

} // namespace

ParsedCommandLine parseCommandLine(int argc, const char* const* argv) {
    ParsedCommandLine parsed;
    WorkerOptions& o = parsed.options;
    CLI::App app{"ddpdesk-worker: trains one rank of a Distributed Data Parallel job over Gloo.\n"
                 "stdout carries only telemetry (JSON Lines); human logs go to stderr.",
                 "ddpdesk-worker"};
    app.set_help_flag("-h,--help", "Print this help and exit");
    app.get_formatter()->column_width(34);

    app.add_option("--workload", o.workload, "autoencoder | fashion-mnist | torchscript")
        ->check(CLI::IsMember({"autoencoder", "fashion-mnist", "torchscript"}));
    app.add_option("--model", o.modelPath, "TorchScript module file (torchscript workload)");
    app.add_option(
        "--data", o.dataPath,
        "IDX folder (default $DDPDESK_DATA or /usr/share/datasets/fashion-mnist), or a .pt tensor file "
        "(torchscript workload)");
    app.add_option("--loss", o.loss, "mse | rmse | cross-entropy")
        ->check(CLI::IsMember({"mse", "rmse", "cross-entropy"}));

    app.add_option("--rank", o.rank,
                   "Global rank (else RANK, OMPI_COMM_WORLD_RANK, SLURM_PROCID; default 0)");
    app.add_option("--world-size", o.worldSize,
                   "Number of ranks (else WORLD_SIZE, OMPI_COMM_WORLD_SIZE, SLURM_NTASKS)");
    app.add_option("--local-rank", o.localRank,
                   "Rank on this node (else LOCAL_RANK, OMPI_..._LOCAL_RANK, SLURM_LOCALID)");
    app.add_option("--local-world-size", o.localWorldSize, "Ranks on this node (else LOCAL_WORLD_SIZE, ...)");

    app.add_option("--store", o.store, "file:PATH or tcp://HOST:PORT (else tcp://$MASTER_ADDR:$MASTER_PORT)");
    app.add_flag("--external-store", o.externalStore, "Rank 0 does not host the TCPStore");
    app.add_option("--iface", o.iface, "Network interface for Gloo (else $GLOO_SOCKET_IFNAME)");
    app.add_option(protocol::kRunSecretFileFlag, o.runSecretFile,
                   std::string("File holding the run secret (readable only by you; else $") +
                       protocol::kRunSecretEnv +
                       "): every rank proves it belongs to the run before training");
    app.add_option("--timeout", o.timeoutSec,
                   "Seconds for store connect and process-group creation (default 60)");
    app.add_option("--collective-timeout", o.collectiveTimeoutSec,
                   "Seconds for each collective (default max(--timeout, 300))");

    app.add_option("--epochs", o.epochs, "Epochs to train (default 1)");
    app.add_option("--steps", o.steps, "Total optimizer steps across epochs (instead of --epochs)");
    app.add_option("--batch-size", o.batchSize, "Samples per rank per step");
    app.add_option("--global-batch", o.globalBatch, "Samples per step over all ranks (split evenly)");
    app.add_option("--lr", o.lr, "Learning rate (default: the workload's)");
    app.add_option("--seed", o.seed, "Seed for initialisation and shuffling (default 0)");
    app.add_option("--threads", o.threads, "Intra-op threads per worker (default cores / local workers)");
    app.add_option("--bucket-mb", o.bucketMb, "Gradient bucket size in MiB (default 25)");
    app.add_flag("--no-overlap", o.noOverlap, "Allreduce after backward instead of during it");
    app.add_option(
           "--grad-transport", o.gradTransport,
           "Gradient exchange: auto (shared memory when all ranks share this machine, else Gloo) | shm | "
           "gloo")
        ->check(CLI::IsMember({"auto", "shm", "gloo"}));
    app.add_option("--device", o.device, "cpu | cuda")->check(CLI::IsMember({"cpu", "cuda"}));

    app.add_option("--out", o.outDir, "Folder for checkpoint.pt and model.pt (default: current folder)");
    app.add_option("--checkpoint-every", o.checkpointEvery,
                   "Write a checkpoint every N steps (and at the end)");
    app.add_flag("--resume", o.resume, "Continue from OUT/checkpoint.pt when present");
    app.add_option("--telemetry-ms", o.telemetryMs,
                   "Minimum milliseconds between step events (0 = every step)");
    app.add_option("--limit-samples", o.limitSamples, "Use only the first N training (and test) samples");

    app.add_flag("--inspect-store", o.inspectStore,
                 "Read keys from --store as a client and print one JSON line");
    app.add_option("--keys", o.keys, "Keys for --inspect-store, comma separated")->delimiter(',');
    app.add_flag("--version", o.version, "Print versions and exit");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        // Help is the one thing written to stdout that is not telemetry: asked for explicitly.
        std::cout << app.help() << std::flush;
        parsed.exitNow = true;
        return parsed;
    } catch (const CLI::ParseError& e) {
        std::string what = e.what();
        throw badInput(what.empty() ? "invalid command line" : what + " (see --help)");
    }
    checkValues(o);
    return parsed;
}

} // namespace ddpdesk::train
