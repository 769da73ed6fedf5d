#pragma once

// Finished runs on disk: each run folder holds summary.json and metrics.jsonl (written by core/launch). This reads
// them back for the History page: the summary as written, and per-rank loss over wall time from the step events.

#include <QDateTime>
#include <QJsonObject>
#include <QPointF>
#include <QString>
#include <QVector>

namespace ddpdesk::ui {

struct RunRecord {
    QString folder;
    QString name;          // folder name
    QDateTime finishedAt;  // summary.json's modification time
    QJsonObject summary;
    QString status() const { return summary.value(QLatin1String("status")).toString(); }
};

struct RunCurves {
    QVector<int> ranks;                   // global rank of each series
    QVector<QVector<QPointF>> lossByRank; // x: seconds since the first event of the run
    QVector<QPointF> meanLoss;            // mean of the ranks' latest losses at each step event
};

// Every direct subfolder of runsFolder with a summary.json, newest first. Unreadable ones are skipped.
QVector<RunRecord> scanRuns(const QString& runsFolder);
// Reads metrics.jsonl through the telemetry parser; maxPoints bounds each series (downsampled).
RunCurves readCurves(const QString& runFolder, int maxPoints = 1000);

} // namespace ddpdesk::ui
