#include "train/worker/options.h"

#include "train/base/errors.h"

#include "protocol/run_auth.h"
#include "protocol/worker_settings_cli.h"

#include <CLI/CLI.hpp>

#include <cmath>
#include <iostream>
#include <mutex>
#include <sstream>

namespace ddpdesk::train {

namespace {

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
    const auto problems = protocol::settingProblems(o.settings);
    if (!problems.empty()) throw badInput(problems.front().message());
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

    protocol::addSettingOptions(app, o.settings);
    app.add_option("--device", o.device, "cpu | cuda")->check(CLI::IsMember({"cpu", "cuda"}));

    app.add_option(
        "--out", o.outDir,
        "Folder for checkpoint.pt and model.pt (default: ./ddpdesk-out, a folder of DDP Desk's own)");

    app.add_flag("--inspect-store", o.inspectStore,
                 "Read keys from --store as a client and print one JSON line");
    app.add_option("--keys", o.keys, "Keys for --inspect-store, comma separated")->delimiter(',');
    app.add_flag("--version", o.version, "Print versions and exit");

    try {
        // One parse at a time in a process. CLI11 2.6 (Debian unstable, the LibTorch 2.14 build) reads a
        // switch's value through function-local statics and then trusts errno: a thread that waits for
        // another to finish initializing them comes back from the futex with errno EAGAIN, and `--resume` is
        // then refused as "Could not convert: --resume = true". Ranks as threads parse together; a worker
        // process parses once.
        static std::mutex parsing;
        const std::lock_guard<std::mutex> oneAtATime(parsing);
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
