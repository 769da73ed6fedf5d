#pragma once

// The launcher's own flags (what runs, where, how it is supervised), each declared once here like the
// worker's settings in protocol/worker_settings.h: its flag, its profile key, its rule, whether the other
// nodes of a multi-node run need it, and its help. The CLI's `run`/`sweep`/`command` flags, the JSON profile
// the GUI saves and loads, and the command other nodes join with all read this table; adding a launcher
// flag is one row in visitLauncherFlags() plus the code that uses it (docs/architecture.md). Not here: the
// training settings (the worker's table), the script's arguments after `--` and the run secret, which never
// goes into a profile or onto a command line it could be read from.

#include "launch/config/run_config.h"

#include <QStringList>

namespace ddpdesk::launch {

// What a value must satisfy on the command line; RunConfig::validateValues() checks the rest (and all of it
// for the GUI's form and profiles).
enum class LauncherRule {
    Text,       // a word or path
    Number,     // a count RunConfig::validateValues() checks with its context ("--nproc 0", GPUs, nodes)
    Count,      // at least 1
    ZeroOrMore, // 0 has a meaning of its own (off, the first, none)
    Switch,     // present: true
    OffSwitch,  // present: false ("--no-tensorboard"); the profile key keeps the positive sense
};

// Whether the other nodes of a multi-node run must be given it too (the join command node 0 prints).
enum class Spread {
    ThisNode,       // this machine's own: rank, folders, interpreter, interface, devices, TensorBoard files
    EveryNode,      // the same on every node: passed on when it is not the default
    EveryNodeShown, // the same on every node, always passed on (the run's shape)
};

struct LauncherFlag {
    const char* flag; // "--max-restarts"
    const char* key;  // profile key, "max_restarts"
    LauncherRule rule;
    Spread spread;
    const char* help; // the CLI's --help
};

// Calls visit(flag, field) for every launcher flag, field being a reference into c (const when c is), in the
// order the CLI documents them.
template <class Config, class Visit> void visitLauncherFlags(Config&& c, Visit&& visit) {
    using R = LauncherRule;
    using S = Spread;
    visit(LauncherFlag{"--workload", "workload", R::Text, S::EveryNodeShown,
                       "autoencoder|fashion-mnist|torchscript"},
          c.workload);
    visit(
        LauncherFlag{"--model", "model", R::Text, S::EveryNode, "TorchScript module (torchscript workload)"},
        c.modelFile);
    visit(LauncherFlag{"--data", "data", R::Text, S::ThisNode, "IDX data folder"}, c.dataDir);
    visit(LauncherFlag{"--nproc", "nproc", R::Number, S::EveryNodeShown,
                       "workers on this node (default 1, or one per GPU in --devices)"},
          c.nproc);
    visit(LauncherFlag{"--devices", "devices", R::Text, S::ThisNode,
                       "cpu, or GPU indices like 0,1 or UUIDs GPU-... (one worker per GPU)"},
          c.devices);
    visit(LauncherFlag{"--nnodes", "nnodes", R::Number, S::EveryNodeShown, "number of nodes"}, c.nnodes);
    visit(
        LauncherFlag{"--node-rank", "node_rank", R::ZeroOrMore, S::ThisNode, "this node's rank, 0..nnodes-1"},
        c.nodeRank);
    visit(LauncherFlag{"--store", "store", R::Text, S::EveryNodeShown,
                       "file:PATH or tcp://HOST:PORT (default: a fresh FileStore inside --out)"},
          c.store);
    visit(LauncherFlag{"--iface", "iface", R::Text, S::ThisNode,
                       "network interface for Gloo (GLOO_SOCKET_IFNAME)"},
          c.iface);
    visit(LauncherFlag{"--max-restarts", "max_restarts", R::ZeroOrMore, S::EveryNode,
                       "restart all workers from the last checkpoint up to R times"},
          c.maxRestarts);
    visit(LauncherFlag{"--timeout", "timeout", R::Count, S::EveryNode,
                       "seconds for store connect + process group creation"},
          c.timeoutSec);
    visit(LauncherFlag{"--stall-timeout", "stall_timeout", R::ZeroOrMore, S::EveryNode,
                       "seconds without progress before a stall report (0: off)"},
          c.stallTimeoutSec);
    visit(
        LauncherFlag{
            "--straggler-after", "straggler_after", R::ZeroOrMore, S::EveryNode,
            "seconds a rank's own work per step may stay 1.3x the fastest rank's before it is named a "
            "straggler (0: off)"},
        c.stragglerAfterSec);
    visit(LauncherFlag{"--out", "out", R::Text, S::ThisNode,
                       "output folder: metrics.jsonl, summary.json, checkpoints"},
          c.outDir);
    visit(LauncherFlag{"--script", "script", R::Text, S::EveryNode,
                       "run this program per rank instead of ddpdesk-worker (args after --)"},
          c.scriptFile);
    visit(LauncherFlag{"--python", "python", R::Text, S::ThisNode,
                       "interpreter for --script (default /usr/bin/python3 for .py)"},
          c.python);
    visit(LauncherFlag{"--loss-regex", "loss_regex", R::Text, S::EveryNode,
                       "regex whose group 1 is the loss in the script's output"},
          c.lossRegex);
    visit(LauncherFlag{"--workdir", "workdir", R::Text, S::ThisNode,
                       "folder the script's ranks run in (default: the current folder)"},
          c.workDir);
    visit(LauncherFlag{"--use-local-rank-arg", "use_local_rank_arg", R::Switch, S::EveryNode,
                       "pass --local-rank=N to the script (scripts written for torch.distributed.launch)"},
          c.useLocalRankArg);
    visit(LauncherFlag{"--no-instrument", "instrument", R::OffSwitch, S::EveryNode,
                       "do not load DDP Desk's progress reporter into the script (steps then come from loss "
                       "lines)"},
          c.instrument);
    visit(LauncherFlag{"--no-tensorboard", "tensorboard", R::OffSwitch, S::ThisNode,
                       "do not write TensorBoard event files into OUT/tensorboard"},
          c.tensorboard);
    visit(
        LauncherFlag{
            "--no-node-link", "node_link", R::OffSwitch, S::EveryNode,
            "multi-node: do not forward this node's events to node 0 (nor, on node 0, take the other "
            "nodes'): no listener beside a TCPStore, no link folder beside a FileStore"},
        c.nodeLink);
}

// The launcher flags another node of this run must be given to join it, with their values as on this node:
// the rows spread to every node (a store this node made up, its effective one), then the training settings.
// The node's own rank, output folder and secret are the caller's to add.
QStringList everyNodeArguments(const RunConfig& c);
// Node 0's command for the other nodes, as one line to paste: `ddpdesk-cli run`, everyNodeArguments, then
// `--node-rank N`, the secret's file and `--out DIR` (N and DIR the user's to fill in). Each argument is
// quoted for this system's shell (os::printedCommandsAreForCmd: command_format.h's cmdPromptQuote or
// shellQuote), so a store on a share whose name has a space stays one argument.
QString joinCommandLine(const RunConfig& c, const QString& secretFile);

} // namespace ddpdesk::launch
