#pragma once

// Finished runs on disk, rebuilt as RunModels. A run folder holds summary.json and metrics.jsonl (written by
// the supervisor); replaying metrics.jsonl through the same RunModel entry points a live run uses gives the
// History page, the Run page and tests exactly the state the run had, with the recording's own timestamps.

#include "launch/model/run_model.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QVector>

namespace ddpdesk::launch {

class RunModel;

struct RecordedRun {
    QString folder;
    QString name;         // folder name
    QDateTime finishedAt; // summary.json's modification time
    RunSummary summary;   // summary.json read back
    QString status() const { return summary.status; }
};

// Every direct subfolder of runsFolder with a readable summary.json, and the runs one level down in a
// subfolder that is no run itself (a sweep's sizes: sweep/n1, sweep/n2, ...), newest first.
QVector<RecordedRun> scanRecordedRuns(const QString& runsFolder);

// A folder the user names, wherever it is: the run it is (summary.json), else the runs directly inside it (a
// sweep's sizes, named "sweep/n1"). Empty with *why saying so when it is neither.
QVector<RecordedRun> recordedRunsAt(const QString& folder, QString* why);

// What a replay read. Lines over protocol::kMaxLineBytes or nested deeper than protocol::kMaxDepth are
// skipped unparsed (a damaged or hostile recording must not exhaust memory or the stack) and counted here.
struct ReplayStats {
    qint64 lines = 0; // lines read (one pass)
    qint64 skippedTooLong = 0;
    qint64 skippedTooDeep = 0;
    qint64 skipped() const { return skippedTooLong + skippedTooDeep; }
    QString describe() const; // "2 of 1234 lines of metrics.jsonl skipped (...)", empty when none was
};

// Resets model and feeds runDir/metrics.jsonl through it line by line (worker telemetry via applyLine,
// launcher rank_start/rank_exit/restart, monitor gpu/proc samples), then freezes it with runDir/summary.json.
// Without a summary.json (a run cut off mid-way) the model is finished as "stopped". False with *error naming
// the file when metrics.jsonl cannot be read or holds no rank. The file is streamed twice (ranks first, then
// the events), never held whole, so a multi-day recording replays in bounded memory.
bool replayRecordedRun(const QString& runDir, RunModel* model, QString* error, ReplayStats* stats = nullptr);

} // namespace ddpdesk::launch
