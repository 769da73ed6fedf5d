#pragma once

// The History page's view of finished runs. Listing and reading a run folder is core/launch's job
// (launch/run_replay.h): a run is replayed into a RunModel, and this only turns the model's series into curves.

#include "launch/run_replay.h"

#include <QPointF>
#include <QString>
#include <QVector>

namespace ddpdesk::ui {

using RunRecord = launch::RecordedRun;

struct RunCurves {
    QVector<int> ranks;                   // global rank of each series
    QVector<QVector<QPointF>> lossByRank; // x: seconds since the run started
    QVector<QPointF> meanLoss;            // the model's global loss (mean over ranks per step)
};

// Every direct subfolder of runsFolder with a summary.json, newest first. Unreadable ones are skipped.
QVector<RunRecord> scanRuns(const QString& runsFolder);
// Replays the run folder through a RunModel; maxPoints bounds each series (downsampled). Empty when unreadable.
RunCurves readCurves(const QString& runFolder, int maxPoints = 1000);

} // namespace ddpdesk::ui
