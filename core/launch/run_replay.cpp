#include "launch/run_replay.h"

#include "launch/run_model.h"
#include "protocol/telemetry.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <map>

namespace ddpdesk::launch {

namespace {

int intOf(const nlohmann::json& j, const char* key, int fallback) {
    auto it = j.find(key);
    return (it != j.end() && it->is_number()) ? it->get<int>() : fallback;
}

QString textOf(const nlohmann::json& j, const char* key) {
    auto it = j.find(key);
    return (it != j.end() && it->is_string()) ? QString::fromStdString(it->get<std::string>()) : QString();
}

RankState stateFromName(const QString& name) {
    for (RankState s : {RankState::Pending, RankState::Starting, RankState::Rendezvous, RankState::Training,
                        RankState::Done, RankState::Failed, RankState::Stopped})
        if (rankStateName(s) == name)
            return s;
    return RankState::Failed;
}

bool isLauncherEvent(const protocol::Event& e) {
    return e.rank < 0 || textOf(e.body, "source") == QLatin1String("launcher");
}

double numOr(const QJsonObject& o, const char* key, double fallback) {
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isDouble() ? v.toDouble() : fallback;
}

} // namespace

QVector<RecordedRun> scanRecordedRuns(const QString& runsFolder) {
    QVector<RecordedRun> out;
    const QDir dir(runsFolder);
    for (const QFileInfo& fi : dir.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile f(QDir(fi.filePath()).filePath(QStringLiteral("summary.json")));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QJsonDocument doc = QJsonDocument::fromJson(f.readAll());
        if (!doc.isObject())
            continue;
        RecordedRun r;
        r.folder = fi.filePath();
        r.name = fi.fileName();
        r.finishedAt = QFileInfo(f).lastModified();
        r.summary = doc.object();
        out << r;
    }
    std::sort(out.begin(), out.end(),
              [](const RecordedRun& a, const RecordedRun& b) { return a.finishedAt > b.finishedAt; });
    return out;
}

RunSummary summaryFromJson(const QJsonObject& o) {
    RunSummary s;
    s.status = o.value(QLatin1String("status")).toString(QStringLiteral("stopped"));
    s.worldSize = int(numOr(o, "world_size", 0));
    s.workload = o.value(QLatin1String("workload")).toString();
    s.steps = qint64(numOr(o, "steps", 0));
    s.wallS = numOr(o, "wall_s", 0);
    s.samplesPerS = numOr(o, "samples_per_s", 0);
    s.finalLoss = numOr(o, "final_loss", qQNaN());
    s.testAccuracy = numOr(o, "test_accuracy", qQNaN());
    s.failedRank = int(numOr(o, "failed_rank", -1));
    s.failureReason = o.value(QLatin1String("failure_reason")).toString();
    for (const QJsonValue& v : o.value(QLatin1String("failed_rank_stderr")).toArray())
        s.failedRankStderr << v.toString();
    s.restarts = int(numOr(o, "restarts", 0));
    return s;
}

bool replayRecordedRun(const QString& runDir, RunModel* model, QString* error) {
    const QString metricsPath = QDir(runDir).filePath(QStringLiteral("metrics.jsonl"));
    QFile f(metricsPath);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QCoreApplication::translate("ddpdesk::launch::RunReplay", "cannot read %1: %2")
                         .arg(metricsPath, f.errorString());
        return false;
    }
    QVector<QByteArray> lines;
    std::vector<protocol::Event> events; // parsed once; index-aligned with lines
    while (!f.atEnd()) {
        QByteArray line = f.readLine().trimmed();
        if (auto e = protocol::parseLine(std::string_view(line.constData(), size_t(line.size())))) {
            lines << line;
            events.push_back(std::move(*e));
        }
    }
    // The local ranks, in local-rank order: from the launcher's rank_start events, else from the workers' hello.
    std::map<int, int> rankByLocal;
    int worldSize = 0;
    QString workload;
    for (const protocol::Event& e : events) {
        if (e.type == "rank_start" || e.type == protocol::ev::Hello) {
            const int rank = intOf(e.body, "rank", -1);
            const int local = intOf(e.body, "local_rank", -1);
            if (rank >= 0 && local >= 0 && !rankByLocal.count(local))
                rankByLocal[local] = rank;
        }
        if (e.type == protocol::ev::Hello) {
            worldSize = std::max(worldSize, intOf(e.body, "world_size", 0));
            if (workload.isEmpty())
                workload = textOf(e.body, "workload");
        }
    }
    if (rankByLocal.empty()) {
        if (error)
            *error = QCoreApplication::translate(
                         "ddpdesk::launch::RunReplay",
                         "%1 has no rank_start or hello event: not a ddpdesk run recording")
                         .arg(metricsPath);
        return false;
    }
    QVector<int> globalRanks;
    for (const auto& kv : rankByLocal)
        globalRanks << kv.second;

    QJsonObject recorded;
    QFile sf(QDir(runDir).filePath(QStringLiteral("summary.json")));
    if (sf.open(QIODevice::ReadOnly))
        recorded = QJsonDocument::fromJson(sf.readAll()).object();
    if (recorded.contains(QLatin1String("world_size")))
        worldSize = recorded.value(QLatin1String("world_size")).toInt(worldSize);
    if (recorded.contains(QLatin1String("workload")))
        workload = recorded.value(QLatin1String("workload")).toString(workload);
    if (worldSize <= 0)
        worldSize = globalRanks.size();

    model->setReplayClock(events.front().t > 0 ? events.front().t : 1);
    model->reset(globalRanks, worldSize, workload, 0);
    for (size_t i = 0; i < events.size(); ++i) {
        const protocol::Event& e = events[i];
        if (e.t > 0)
            model->setReplayClock(e.t);
        if (e.type == protocol::ev::Gpu || e.type == protocol::ev::Proc) {
            model->applyMonitorEvent(e.body);
            continue;
        }
        if (!isLauncherEvent(e) && e.type == protocol::ev::Log) {
            // What the supervisor recorded from a rank's stderr (live, it went through appendStderr).
            if (textOf(e.body, "stream") == QLatin1String("stderr"))
                model->appendStderr(model->indexOfRank(e.rank), textOf(e.body, "text"));
            continue;
        }
        if (!isLauncherEvent(e)) {
            model->applyLine(model->indexOfRank(e.rank), lines[int(i)]);
            continue;
        }
        const int index = model->indexOfRank(intOf(e.body, "rank", -1));
        if (e.type == "rank_start") {
            model->setPid(index, intOf(e.body, "pid", 0));
        } else if (e.type == "rank_exit") {
            const auto code = e.body.find("exit_code");
            const int exitCode = (code != e.body.end() && code->is_number()) ? code->get<int>() : -1;
            model->setRankState(index, stateFromName(textOf(e.body, "state")), textOf(e.body, "text"), exitCode);
        } else if (e.type == "restart") {
            model->noteRestart();
        }
    }
    if (recorded.isEmpty())
        model->finish(
            QStringLiteral("stopped"), -1,
            QCoreApplication::translate("ddpdesk::launch::RunReplay", "the recording has no summary.json"));
    else
        model->finishRecorded(summaryFromJson(recorded));
    model->setReplayClock(0);
    return true;
}

} // namespace ddpdesk::launch
