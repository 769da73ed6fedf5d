// `ddpdesk-cli sweep`: the run flags at several sizes in turn; writes sweep.csv and sweep.png and prints the
// table.
#include "commands.h"
#include "run_cmd.h"

#include "launch/process/process_control.h"
#include "launch/run/console_view.h"
#include "launch/run/supervisor.h"
#include "launch/run/sweep.h"
#include "plot/sweep_plot.h"
#include "protocol/run_auth.h"

#include <QCoreApplication>
#include <QDir>

#include <iostream>
#include <memory>

namespace ddpdesk::cli {

namespace {

struct SweepFlags {
    RunFlags run;
    std::string nprocList, gpuSets, compare;
    double targetLoss = 0;
};

int sweepMain(CliContext& ctx, const SweepFlags& f) {
    QString error;
    QVector<launch::SweepSize> sizes;
    if (!f.gpuSets.empty())
        sizes = launch::parseGpuSets(QString::fromStdString(f.gpuSets), &error);
    else
        sizes = launch::parseNprocList(QString::fromStdString(f.nprocList), &error);
    if (!sizes.isEmpty() && !f.compare.empty())
        sizes = launch::compareSetting(sizes, QString::fromStdString(f.compare), &error);
    if (sizes.isEmpty()) {
        std::cerr << "ddpdesk-cli: cannot start:\n  " << error.toStdString() << "\n";
        return 2;
    }
    prepareQtApplication(ctx.argc, ctx.argv, true);
    launch::SweepRunner sweep(plot::drawSweepPng);
    std::unique_ptr<launch::ConsoleView> view;
    QObject::connect(
        &sweep, &launch::SweepRunner::sizeStarted, &sweep, [&view, sizes](int i, launch::Supervisor* run) {
            const launch::SweepSize& s = sizes[i];
            QString name = s.devices == QLatin1String("cpu") ? QStringLiteral("nproc %1").arg(s.nproc)
                                                             : QStringLiteral("gpus %1").arg(s.devices);
            if (!s.setting.isEmpty()) name += QLatin1Char(' ') + s.variant();
            view = std::make_unique<launch::ConsoleView>(run, name);
        });
    // Deleted later: the view still prints its final line from the same `finished` signal.
    QObject::connect(&sweep, &launch::SweepRunner::sizeFinished, &sweep,
                     [&view](int, bool) { view.release()->deleteLater(); });
    bool allOk = false;
    QObject::connect(&sweep, &launch::SweepRunner::finished, &sweep, [&allOk](bool ok) {
        allOk = ok;
        QCoreApplication::exit(0);
    });
    QVector<launch::ConfigProblem> problems;
    if (!sweep.start(toConfig(f.run), sizes, &problems, f.targetLoss)) return refuse(problems);
    bool interrupted = false;
    launch::installInterruptHandler([&sweep, &interrupted] {
        interrupted = true;
        sweep.stop();
    });
    QCoreApplication::exec();
    std::cout << launch::sweepTable(sweep.rows()).toStdString() << "csv: " << sweep.csvPath().toStdString()
              << "\nplot: " << sweep.pngPath().toStdString() << "\n";
    if (f.run.config.tensorboard) // each size's run folder has its own tensorboard/: side by side in one view
        std::cout << "tensorboard: tensorboard --logdir "
                  << QDir::toNativeSeparators(QDir::cleanPath(f.run.config.outDir)).toStdString() << "\n";
    return interrupted ? 130 : allOk ? 0 : 1;
}

} // namespace

void addSweepCommand(CLI::App& app, CliContext& ctx) {
    auto flags = std::make_shared<SweepFlags>();
    CLI::App* sub =
        app.add_subcommand("sweep", "run the same configuration at several sizes and compare scaling");
    addRunFlags(sub, flags->run, true);
    addRunSecretFlags(sub, flags->run); // a node above 0 joins each size with node 0's secret, as in `run`
    auto* list = sub->add_option("--nproc-list", flags->nprocList, "worker counts, e.g. 1,2,4");
    auto* gpus = sub->add_option("--gpu-sets", flags->gpuSets, "GPU sets, e.g. \"0;0,1;0,1,2,3\"");
    list->excludes(gpus);
    sub->add_option("--compare", flags->compare,
                    "also run every size once per value of one training setting, e.g. precision=fp32,bf16 or "
                    "grad-compression=none,fp16");
    sub->add_option("--target-loss", flags->targetLoss,
                    "loss for time_to_target_s (default: the highest final loss among the sizes)");
    sub->callback([&ctx, flags] {
        if (flags->nprocList.empty() && flags->gpuSets.empty()) {
            std::cerr << "ddpdesk-cli: cannot start:\n  --nproc-list: give the sizes to compare, e.g. "
                         "--nproc-list 1,2,4 (or --gpu-sets \"0;0,1\")\n";
            ctx.exitCode = 2;
            return;
        }
        if (!resolveRunSecretFlags(flags->run)) {
            ctx.exitCode = 2;
            return;
        }
        // Each size is a run of its own, which on node 0 would invent a fresh secret: one for the whole
        // sweep lets the other nodes join every size with the one file node 0 writes (OUT/n1/run-secret).
        launch::RunConfig& c = flags->run.config;
        if (c.nnodes > 1 && c.nodeRank == 0 && c.runSecret.isEmpty() &&
            !qEnvironmentVariableIsSet(protocol::kRunSecretEnv))
            c.runSecret = QString::fromStdString(protocol::newRunSecretHex());
        ctx.exitCode = sweepMain(ctx, *flags);
    });
}

} // namespace ddpdesk::cli
