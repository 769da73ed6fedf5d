#pragma once

// The files a run writes into its --out folder, and what is already at those paths that DDP Desk did not put
// there: checked before a run starts (RunConfig::validate), so the CLI and the GUI refuse alike, and by a
// sweep for its own files.

#include "launch/config/run_config.h"

#include <QString>
#include <QStringList>
#include <QVector>

namespace ddpdesk::launch {

// The launcher's own files in OUT for this kind of run: metrics.jsonl and summary.json, and a built-in
// workload's checkpoint.pt and model.pt (written by rank 0); the folder's mark lists them
// (protocol/output_mark.h).
QStringList runOutputNames(const RunConfig& config);

// What is already at the paths a run writes and would otherwise replace or remove - the default store folder
// (OUT/store: absent or empty, not a link), the store file, OUT/metrics.jsonl, summary.json, checkpoint.pt
// and model.pt (absent, or DDP Desk's own earlier output: protocol/output_mark.h) - as problems naming the
// path. Part of RunConfig::validate(), so the CLI and the GUI refuse alike.
QVector<ConfigProblem> foreignPathProblems(const RunConfig& config);
// The same for one output file DDP Desk (re)writes itself (metrics.jsonl, sweep.csv, ...): empty when the
// path is free or a file the folder's mark lists, else the reason naming it (a file of the user's is never
// replaced, a link or a folder never written through).
QString foreignOutputProblem(const QString& path);

} // namespace ddpdesk::launch
