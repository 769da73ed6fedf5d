#pragma once

// The same configuration as a launch for an existing cluster scheduler, so a user who outgrows one machine
// keeps the settings: a torchrun line, an mpirun line forwarding the environment, an sbatch script, an HPC
// Pack `job submit` line. The GUI's "Copy as ... command" and `ddpdesk-cli command` both use this.

#include "launch/config/run_config.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

namespace ddpdesk::launch {

enum class CommandFormat { Torchrun, Mpirun, Slurm, HpcPack };

std::optional<CommandFormat> parseCommandFormat(const QString& name); // torchrun|mpirun|slurm|hpcpack
QString commandFormatName(CommandFormat f);
QStringList commandFormatNames();

// workerProgram: how the target machines call ddpdesk-worker (default: the name alone, found on PATH).
QString formatCommand(const RunConfig& config, CommandFormat format,
                      const QString& workerProgram = QStringLiteral("ddpdesk-worker"));

// Values the format's shell cannot carry (a line break in an HPC Pack line), as problems naming the flag; the
// caller refuses them like any other bad value. Empty for torchrun/mpirun/slurm.
QVector<ConfigProblem> commandProblems(const RunConfig& config, CommandFormat format);

// Quoting for a POSIX shell (single quotes) / for a cmd.exe batch-file line run by a Microsoft C runtime
// program
// (% doubled, & | < > ^ escaped outside quotes, "" for a quote inside a quoted argument), used by
// formatCommand.
QString shellQuote(const QString& arg);
QString cmdQuote(const QString& arg);
// The same for a line pasted at a cmd.exe prompt (node 0's join command), where %% is not read as %: a % is
// ^-escaped, and inside quotes written as "^%" (the quote closes around it and reopens).
QString cmdPromptQuote(const QString& arg);

} // namespace ddpdesk::launch
