#include "commands.h"
#include "common/version_text.h"

#include <QtGlobal>

#include <iostream>

int main(int argc, char** argv) {
    ddpdesk::cli::CliContext ctx;
    ctx.argc = argc;
    ctx.argv = argv;

    CLI::App app{"DDP Desk command line: run, sweep, diagnose and monitor PyTorch-style DDP training"};
    app.set_version_flag("--version", [] { return ddpdesk::versionText("ddpdesk-cli", qVersion()); });
    app.require_subcommand(1);
    ddpdesk::cli::addRunCommands(app, ctx);
    ddpdesk::cli::addDoctorCommand(app, ctx);
    ddpdesk::cli::addGpusCommand(app, ctx);
    ddpdesk::cli::addStacksCommand(app, ctx);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // One exit code for every usage error (CLI11 has one per kind), so scripts can tell "bad flags" (2)
        // from "the run failed" (1); --help and --version still exit 0.
        return app.exit(e) == 0 ? 0 : 2;
    } catch (const std::exception& e) {
        std::cerr << "ddpdesk-cli: error: " << e.what() << "\n";
        return 2;
    }
    return ctx.exitCode;
}
