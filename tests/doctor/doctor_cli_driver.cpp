// Runs the real `doctor` subcommand (app/ddpdesk-cli/doctor_cmd.cpp) without the rest of the CLI, so its
// flags, output and exit codes are tested even while the launcher and monitor commands are built elsewhere.

#include "commands.h"

#include <iostream>

int main(int argc, char** argv) {
    ddpdesk::cli::CliContext ctx{argc, argv, 0};
    CLI::App app{"doctor test driver"};
    app.require_subcommand(1);
    ddpdesk::cli::addDoctorCommand(app, ctx);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    return ctx.exitCode;
}
