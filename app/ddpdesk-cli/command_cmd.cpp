// `ddpdesk-cli command --format F`: the run flags as a launch for torchrun, mpirun, Slurm or HPC Pack.
#include "commands.h"
#include "run_cmd.h"

#include "launch/config/command_format.h"

#include <iostream>
#include <memory>

namespace ddpdesk::cli {

namespace {
struct CommandFlags {
    RunFlags run;
    std::string format;
    std::string worker = "ddpdesk-worker";
};
} // namespace

void addCommandCommand(CLI::App& app, CliContext& ctx) {
    auto flags = std::make_shared<CommandFlags>();
    CLI::App* sub =
        app.add_subcommand("command", "print the equivalent cluster launch (torchrun, mpirun, slurm, "
                                      "hpcpack) for the run flags");
    addRunFlags(sub, flags->run, false);
    sub->add_option("--format", flags->format, "torchrun|mpirun|slurm|hpcpack")->required();
    sub->add_option("--worker-path", flags->worker, "how the cluster nodes call ddpdesk-worker")
        ->capture_default_str();
    sub->callback([&ctx, flags, sub] {
        if (sub->count("--nproc") == 0 && flags->run.config.devices != QLatin1String("cpu"))
            flags->run.config.nproc = toConfig(flags->run).deviceList().size();
        const auto format = launch::parseCommandFormat(QString::fromStdString(flags->format));
        QVector<launch::ConfigProblem> problems;
        if (!format)
            problems.push_back({QStringLiteral("format"), QStringLiteral("unknown format '%1'; valid: %2")
                                                              .arg(QString::fromStdString(flags->format),
                                                                   launch::commandFormatNames().join(", "))});
        const launch::RunConfig config = toConfig(flags->run);
        for (const launch::ConfigProblem& p : config.validateValues())
            if (p.field != QLatin1String("out")) // the output folder lives on the cluster, not here
                problems.push_back(p);
        if (format) problems += launch::commandProblems(config, *format);
        if (!problems.isEmpty()) {
            ctx.exitCode = refuse(problems);
            return;
        }
        std::cout
            << launch::formatCommand(config, *format, QString::fromStdString(flags->worker)).toStdString();
        ctx.exitCode = 0;
    });
}

} // namespace ddpdesk::cli
