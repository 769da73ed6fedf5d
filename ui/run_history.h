#pragma once

// The History page's view of finished runs. Listing and reading a run folder is core/launch's job
// (launch/run_replay.h): a run is replayed into a RunModel, and this only turns the model's series into
// curves.

#include "launch/model/run_replay.h"

#include <QHash>
#include <QObject>
#include <QPointF>
#include <QString>
#include <QVector>

#include <optional>

class QThread;

namespace ddpdesk::ui {

using RunRecord = launch::RecordedRun;

struct RunCurves {
    QVector<int> ranks;                   // global rank of each series
    QVector<QVector<QPointF>> lossByRank; // x: seconds since the run started
    QVector<QPointF> meanLoss;            // the model's global loss (mean over ranks per step)
};

// Every direct subfolder of runsFolder with a summary.json, newest first. Unreadable ones are skipped.
QVector<RunRecord> scanRuns(const QString& runsFolder);
// Replays the run folder through a RunModel; maxPoints bounds each series (downsampled). Empty when
// unreadable.
RunCurves readCurves(const QString& runFolder, int maxPoints = 1000);

// Finished runs' curves, read in background threads and kept: a finished run never changes, and replaying a
// 100,000-step recording takes seconds that the UI thread must not spend.
class CurveCache : public QObject {
    Q_OBJECT
public:
    explicit CurveCache(QObject* parent = nullptr);
    ~CurveCache() override; // waits for reads in progress

    // The curves once read; otherwise starts reading them (once) and returns nothing; ready(folder) follows.
    std::optional<RunCurves> curves(const QString& runFolder);

signals:
    void ready(const QString& runFolder);

private:
    QHash<QString, RunCurves> m_done;
    QHash<QString, QThread*> m_reading;
};

} // namespace ddpdesk::ui
