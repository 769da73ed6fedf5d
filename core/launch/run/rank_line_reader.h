#pragma once

// Owns how the ranks' output lines are read: per rank, the parser of a script's loss lines and whether the
// instrumentation module's steps arrived. Protocol events go to the RunModel and the run's record, the rest
// as log text (and a script's loss lines as steps).

#include "launch/config/run_config.h"
#include "launch/model/run_model.h"
#include "launch/run/script_output.h"

#include <QByteArray>
#include <QtGlobal>

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <vector>

namespace ddpdesk::launch {

class RankLineReader {
public:
    using RecordFn = std::function<void(const nlohmann::json& event)>; // into metrics.jsonl and TensorBoard

    RankLineReader(const RunConfig& config, RunModel& model, RecordFn record);

    // Script ranks run with the instrumentation module: its events on their stdout are taken as events.
    void setInstrumented(bool instrumented) { m_moduleEvents = instrumented; }
    void beginAttempt(); // fresh per-rank state for config.nproc ranks
    void onLine(int index, const QByteArray& line, bool isStderr);

private:
    struct Rank {
        std::unique_ptr<ScriptOutputParser> parser; // script runs only
        bool instrumented =
            false;            // the instrumentation module's steps arrived: loss lines are then only log text
        qint64 lastStep = -1; // the highest step this attempt's process reported
        qint64 stepsWentBack = 0; // step events dropped because their step was below lastStep
    };
    // A step event whose step is below what the rank's process already reported (a child it forked, carrying
    // a stale copy of the count): dropped, counted, said once per rank. True when `e` is such an event.
    bool wentBack(int index, Rank& r, const protocol::Event& e);

    const RunConfig& m_config;
    RunModel& m_model;
    RecordFn m_record;
    bool m_moduleEvents = false;
    std::vector<Rank> m_ranks;
};

} // namespace ddpdesk::launch
