#include "run_history.h"

#include "charts/series_buffer.h"
#include "launch/run_model.h"

namespace ddpdesk::ui {

QVector<RunRecord> scanRuns(const QString& runsFolder)
{
    return launch::scanRecordedRuns(runsFolder);
}

RunCurves readCurves(const QString& runFolder, int maxPoints)
{
    RunCurves c;
    launch::RunModel model;
    if (!launch::replayRecordedRun(runFolder, &model, nullptr))
        return c;
    for (int i = 0; i < model.rankCount(); ++i) {
        c.ranks << model.rank(i).rank;
        c.lossByRank << downsampleMinMax(model.lossSeries(i), maxPoints);
    }
    c.meanLoss = downsampleMinMax(model.globalLossSeries(), maxPoints);
    return c;
}

} // namespace ddpdesk::ui
