// `ddpdesk-cli stacks RUN_DIR`: "where does it hang?" for a script run that is still going, started by this
// CLI or the GUI. Every live rank that DDP Desk's instrumentation module announced dumps the Python stacks of
// all its threads (core/launch/diagnose/stack_dump.h); they are printed per rank, each followed by the rank's
// last collectives as it recorded them (protocol/collective_history.h: op, payload, call site, state). Exit 0
// when at least one rank answered, 1 when no rank could be asked (the run ended, or it is not an instrumented
// script run), 2 for a folder that is not a run.

#include "commands.h"

#include "launch/diagnose/stack_dump.h"
#include "launch/run/script_instrument.h"
#include "launch/watch/collective_watch.h"
#include "protocol/telemetry.h"

#include <QDir>
#include <QFileInfo>
#include <QThread>

#include <iostream>
#include <memory>
#include <string>

namespace ddpdesk::cli {

namespace {

int runStacks(const std::string& runDir) {
    const QString dir = QString::fromStdString(runDir);
    if (!QFileInfo(dir).isDir()) {
        std::cerr << "ddpdesk-cli stacks: " << runDir << " is not a folder\n";
        return 2;
    }
    const QString folder = launch::instrumentFolder(dir);
    if (!QFileInfo(folder).isDir()) {
        std::cerr << "ddpdesk-cli stacks: " << runDir
                  << " holds no run that can be asked (no .ddpdesk-python folder: not a DDP Desk run folder, "
                     "or a script run with --no-instrument)\n";
        return 2;
    }
    QVector<launch::StackTarget> targets = launch::stackTargets(folder);
    launch::requestStacks(targets);
    if (targets.isEmpty()) {
        std::cerr << "ddpdesk-cli stacks: no live rank to ask in " << runDir << " (the run has ended)\n";
        return 1;
    }
    QThread::msleep(launch::kStacksWaitMs);
    int answered = 0;
    for (const launch::StackTarget& t : targets) {
        const QString text = launch::collectStacks(t);
        std::cout << "== rank " << t.rank << " (pid " << t.pid << ")\n";
        if (text.isEmpty()) {
            std::cout << "(no stacks within " << launch::kStacksWaitMs << " ms)\n";
            continue;
        }
        ++answered;
        std::cout << text.toStdString() << "\n";
    }
    // What each rank's collectives were, oldest of the last 8 first: the stack says where a rank is, these
    // say what it did before (a rank one collective ahead, another collective at the same number).
    for (const launch::StackTarget& t : targets) {
        std::vector<protocol::CollectiveEntry> history = launch::readCollectiveHistory(folder, t.rank);
        std::cout << "== rank " << t.rank << ": last collectives";
        if (history.empty()) {
            std::cout << ": none recorded yet\n";
            continue;
        }
        std::cout << " (" << history.back().seq << " so far)\n";
        const double now = protocol::nowSeconds();
        for (auto it = history.size() > 8 ? history.end() - 8 : history.begin(); it != history.end(); ++it)
            std::cout << "  " << protocol::describeCollectiveEntry(*it, now) << "\n";
    }
    launch::doneAsking(targets);
    return answered > 0 ? 0 : 1;
}

} // namespace

void addStacksCommand(CLI::App& app, CliContext& ctx) {
    auto runDir = std::make_shared<std::string>();
    CLI::App* stacks = app.add_subcommand(
        "stacks",
        "Where does it hang? Print the Python stacks of every thread of each live rank of a script run, "
        "or what each ddpdesk-worker rank waits in (collective, bucket, for how long), of a run started by "
        "ddpdesk-cli run or the GUI");
    stacks->add_option("run_dir", *runDir, "The run's --out folder")->required();
    stacks->callback([runDir, &ctx] { ctx.exitCode = runStacks(*runDir); });
}

} // namespace ddpdesk::cli
