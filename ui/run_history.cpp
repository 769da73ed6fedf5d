#include "run_history.h"
#include "os/caught.h"

#include "charts/series_buffer.h"
#include "launch/model/run_model.h"

#include <QThread>

namespace ddpdesk::ui {

QVector<RunRecord> scanRuns(const QString& runsFolder) {
    return launch::scanRecordedRuns(runsFolder);
}

RunCurves readCurves(const QString& runFolder, int maxPoints) {
    RunCurves c;
    launch::RunModel model;
    if (!launch::replayRecordedRun(runFolder, &model, nullptr)) return c;
    for (int i = 0; i < model.rankCount(); ++i) {
        c.ranks << model.rank(i).rank;
        c.lossByRank << downsampleMinMax(model.lossSeries(i), maxPoints);
    }
    c.meanLoss = downsampleMinMax(model.globalLossSeries(), maxPoints);
    return c;
}

CurveCache::CurveCache(QObject* parent) : QObject(parent) {}

CurveCache::~CurveCache() {
    for (QThread* t : std::as_const(m_reading)) {
        t->wait();
        delete t;
    }
}

std::optional<RunCurves> CurveCache::curves(const QString& runFolder) {
    const auto done = m_done.constFind(runFolder);
    if (done != m_done.constEnd()) return done.value();
    if (!m_reading.contains(runFolder)) {
        QThread* t = QThread::create([this, runFolder] {
            RunCurves c; // a recorded file that makes the reader throw draws no curve, and ends nothing else
            os::runCaught("reading a run's curves", [&] { c = readCurves(runFolder); });
            // Queued to this object: dropped with it if the cache is gone first.
            QMetaObject::invokeMethod(
                this,
                [this, runFolder, c] {
                    if (QThread* finished = m_reading.take(runFolder)) {
                        finished->wait();
                        delete finished;
                    }
                    m_done.insert(runFolder, c);
                    emit ready(runFolder);
                },
                Qt::QueuedConnection);
        });
        m_reading.insert(runFolder, t);
        t->start();
    }
    return std::nullopt;
}

} // namespace ddpdesk::ui
