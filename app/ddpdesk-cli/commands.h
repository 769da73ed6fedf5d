#pragma once

// Each ddpdesk-cli subcommand lives in its own file (run_cmd.cpp, doctor_cmd.cpp, gpus_cmd.cpp, ...) and
// registers itself here; main.cpp only wires them together, so the CLI stays a thin view over core/.

#include <CLI/CLI.hpp>

namespace ddpdesk::cli {

struct CliContext {
    int argc = 0;
    char** argv = nullptr;
    int exitCode = 0; // set by the subcommand that ran
};

void addRunCommands(CLI::App& app, CliContext& ctx);   // run, sweep, command (core/launch)
void addDoctorCommand(CLI::App& app, CliContext& ctx); // doctor (core/doctor)
void addGpusCommand(CLI::App& app, CliContext& ctx);   // gpus (core/monitor)
void addStacksCommand(CLI::App& app, CliContext& ctx); // stacks (core/launch/diagnose/stack_dump.h)

} // namespace ddpdesk::cli
