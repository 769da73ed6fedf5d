#pragma once

// The same configuration as a launch for an existing cluster scheduler, so a user who outgrows one machine keeps
// the settings: a torchrun line, an mpirun line forwarding the environment, an sbatch script, an HPC Pack
// `job submit` line. The GUI's "Copy as ... command" and `ddpdesk-cli command` both use this.

#include "launch/run_config.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace ddpdesk::launch {

enum class CommandFormat { Torchrun, Mpirun, Slurm, HpcPack };

std::optional<CommandFormat> parseCommandFormat(const QString& name); // torchrun|mpirun|slurm|hpcpack
QString commandFormatName(CommandFormat f);
QStringList commandFormatNames();

// workerProgram: how the target machines call ddpdesk-worker (default: the name alone, found on PATH).
QString formatCommand(const RunConfig& config, CommandFormat format,
                      const QString& workerProgram = QStringLiteral("ddpdesk-worker"));

// Quoting for a POSIX shell / for cmd.exe, used by formatCommand.
QString shellQuote(const QString& arg);
QString cmdQuote(const QString& arg);

} // namespace ddpdesk::launch
