#pragma once

// Shared by run_cmd.cpp, sweep_cmd.cpp and command_cmd.cpp: the run flags (from the launcher's and the
// worker's tables, so `run`, `sweep` and `command` accept exactly the same configuration) and the conversion
// into a launch::RunConfig.

#include "commands.h"
#include "launch/config/run_config.h"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace ddpdesk::cli {

struct RunFlags {
    // The launcher's flags (launch/config/launcher_flags.h) and the training settings.
    launch::RunConfig config;
    std::vector<std::string> scriptArgs;
    bool json = false;
    std::string runSecret, runSecretFile; // resolved into config.runSecret by resolveRunSecretFlags
};

// Registers the run flags on a subcommand; requireOut: `run` and `sweep` need --out, `command` does not.
void addRunFlags(CLI::App* sub, RunFlags& flags, bool requireOut);
// --run-secret / --run-secret-file: on `run` and `sweep`, whose nodes above 0 both need node 0's secret
// (`command` prints a launch for other tools and takes none).
void addRunSecretFlags(CLI::App* sub, RunFlags& flags);
// The two flags into flags.config.runSecret (hex); false after printing why (exit 2).
bool resolveRunSecretFlags(RunFlags& flags);
launch::RunConfig toConfig(const RunFlags& flags);
// Prints the problems naming each flag and returns exit code 2.
int refuse(const QVector<launch::ConfigProblem>& problems);
// Creates the Qt application a subcommand needs (a QGuiApplication with an offscreen fallback when gui is
// set).
void prepareQtApplication(int& argc, char** argv, bool gui);

void addSweepCommand(CLI::App& app, CliContext& ctx);
void addCommandCommand(CLI::App& app, CliContext& ctx);

} // namespace ddpdesk::cli
