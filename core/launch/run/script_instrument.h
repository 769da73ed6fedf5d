#pragma once

// Progress from a user's script without changing it: the launcher writes DDP Desk's instrumentation module
// (resources/python/ddpdesk_instrument.py) into the run folder and starts each rank as
// `python OUT/.ddpdesk-python/ddpdesk_instrument.py SCRIPT ARGS`: by its path, not `-m` and PYTHONPATH, so a
// ddpdesk_instrument.py of the user's (in the folder the rank starts in) can never be run instead, and the
// script's sys.path is what `python SCRIPT ARGS` gives it. The module prints `step` events marked "source":
// "instrument"; `--no-instrument` turns it off.

#include "launch/config/run_config.h"

#include <QString>
#include <QStringList>

namespace ddpdesk::launch {

inline constexpr const char* kInstrumentSourceTag = "instrument"; // the events' "source"

// Whether this run's ranks get the module: a script run through an interpreter, not switched off.
bool instrumentsScript(const RunConfig& config);

// OUT/.ddpdesk-python: the module and the ranks' stacks files (stack_dump.h), for worker runs too.
QString instrumentFolder(const QString& outDir);

// Makes OUT/.ddpdesk-python (kept when it is already a folder) and returns it; empty with `why` when the path
// holds something else (a link, a file), which is left as it is.
QString makeInstrumentFolder(const QString& outDir, QString* why);

// Writes the module to OUT/.ddpdesk-python/ddpdesk_instrument.py and returns that folder; empty with `why`
// when the path holds something DDP Desk did not write (a link, a folder, another file), which is left as it
// is.
QString writeInstrumentModule(const QString& outDir, QString* why);

// The module's file in `folder` (what writeInstrumentModule returned).
QString instrumentModuleFile(const QString& folder);

// The interpreter's arguments for one rank: FOLDER/ddpdesk_instrument.py SCRIPT ARGS.
QStringList instrumentedArguments(const RunConfig& config, int localRank, const QString& folder);

} // namespace ddpdesk::launch
