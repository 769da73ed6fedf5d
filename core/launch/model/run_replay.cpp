#include "launch/model/run_replay.h"

#include "launch/model/run_model.h"
#include "protocol/telemetry.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <map>
#include <optional>

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

bool isLauncherEvent(const protocol::Event& e) {
    return e.rank < 0 || textOf(e.body, protocol::field::Source) == QLatin1String("launcher");
}

// Reads metrics.jsonl one line at a time through a fixed buffer: a line longer than the limit is read through
// and dropped, so memory stays bounded whatever the file holds.
class BoundedLines {
public:
    explicit BoundedLines(QFile& file) : m_file(file), m_buf(int(protocol::kMaxLineBytes) + 2, '\0') {}

    // Calls fn(line, event) for each telemetry event; stats (when given) counts lines read and lines skipped.
    template <typename Fn> void forEach(ReplayStats* stats, Fn fn) {
        for (;;) {
            const qint64 n = m_file.readLine(m_buf.data(), m_buf.size());
            if (n <= 0) return;
            if (stats) ++stats->lines;
            if (m_buf[int(n - 1)] != '\n' && !m_file.atEnd()) {
                // Overlong; its first kMaxLineBytes say whether it is also nested too deep.
                const bool deep = protocol::checkLine(std::string_view(m_buf.constData(), size_t(n))) ==
                                  protocol::LineCheck::TooDeep;
                drainLine();
                if (stats) ++(deep ? stats->skippedTooDeep : stats->skippedTooLong);
                continue;
            }
            const QByteArray line = QByteArray(m_buf.constData(), int(n)).trimmed();
            const std::string_view text(line.constData(), size_t(line.size()));
            const protocol::LineCheck check = protocol::checkLine(text);
            if (check != protocol::LineCheck::Ok) {
                if (stats)
                    ++(check == protocol::LineCheck::TooLong ? stats->skippedTooLong : stats->skippedTooDeep);
                continue;
            }
            if (auto e = protocol::parseLine(text)) fn(line, *e);
        }
    }

private:
    void drainLine() {
        for (;;) {
            const qint64 n = m_file.readLine(m_buf.data(), m_buf.size());
            if (n <= 0 || m_buf[int(n - 1)] == '\n') return;
        }
    }

    QFile& m_file;
    QByteArray m_buf;
};

} // namespace

namespace {

std::optional<RecordedRun> readRecordedRun(const QString& folder, const QString& name) {
    QFile f(QDir(folder).filePath(QStringLiteral("summary.json")));
    if (!f.open(QIODevice::ReadOnly)) return std::nullopt;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll());
    if (!doc.isObject()) return std::nullopt;
    RecordedRun r;
    r.folder = folder;
    r.name = name;
    r.finishedAt = QFileInfo(f).lastModified();
    r.summary = RunSummary::fromJson(doc.object());
    return r;
}

} // namespace

QVector<RecordedRun> recordedRunsAt(const QString& folder, QString* why) {
    const QFileInfo fi(folder);
    if (!fi.isDir()) {
        if (why)
            *why = QCoreApplication::translate("ddpdesk::launch::RunReplay", "'%1' is not a folder")
                       .arg(QDir::toNativeSeparators(folder));
        return {};
    }
    if (auto run = readRecordedRun(fi.filePath(), fi.fileName())) return {*run};
    // One level down only: a sweep keeps each size's run in a folder of its own, and deeper trees (a run's
    // checkpoints/, tensorboard/) hold no runs.
    QVector<RecordedRun> out;
    for (const QFileInfo& sub : QDir(fi.filePath()).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot))
        if (auto run = readRecordedRun(sub.filePath(), fi.fileName() + QLatin1Char('/') + sub.fileName()))
            out << *run;
    if (out.isEmpty() && why)
        *why =
            QCoreApplication::translate(
                "ddpdesk::launch::RunReplay",
                "'%1' is not a run folder: it has no summary.json (every run DDP Desk records writes one), "
                "and no folder directly inside it has one (as a sweep's n1, n2, ... do)")
                .arg(QDir::toNativeSeparators(folder));
    return out;
}

QVector<RecordedRun> scanRecordedRuns(const QString& runsFolder) {
    QVector<RecordedRun> out;
    for (const QFileInfo& fi : QDir(runsFolder).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot))
        out += recordedRunsAt(fi.filePath(), nullptr);
    std::sort(out.begin(), out.end(),
              [](const RecordedRun& a, const RecordedRun& b) { return a.finishedAt > b.finishedAt; });
    return out;
}

QString ReplayStats::describe() const {
    if (skipped() == 0) return QString();
    return QCoreApplication::translate(
               "ddpdesk::launch::RunReplay",
               "%1 of %2 lines of metrics.jsonl skipped (%3 over %4 KiB, %5 nested deeper "
               "than %6)")
        .arg(skipped())
        .arg(lines)
        .arg(skippedTooLong)
        .arg(protocol::kMaxLineBytes / 1024)
        .arg(skippedTooDeep)
        .arg(protocol::kMaxDepth);
}

bool replayRecordedRun(const QString& runDir, RunModel* model, QString* error, ReplayStats* stats) {
    const QString metricsPath = QDir(runDir).filePath(QStringLiteral("metrics.jsonl"));
    QFile f(metricsPath);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QCoreApplication::translate("ddpdesk::launch::RunReplay", "cannot read %1: %2")
                         .arg(metricsPath, f.errorString());
        return false;
    }
    ReplayStats counted;
    BoundedLines reader(f);
    // First pass: the ranks, in rank order, from the launcher's rank_start events, else from the workers'
    // hello; node 0 of a multi-node run recorded the other nodes' ranks too (their events carry `node`).
    std::map<int, int> nodeByRank;
    int worldSize = 0;
    QString workload;
    double firstT = 0;
    bool anyEvent = false;
    reader.forEach(&counted, [&](const QByteArray&, const protocol::Event& e) {
        if (!anyEvent) firstT = e.t;
        anyEvent = true;
        if (e.type == protocol::ev::RankStart || e.type == protocol::ev::Hello) {
            const int rank = intOf(e.body, protocol::field::Rank, -1);
            const int local = intOf(e.body, protocol::field::LocalRank, -1);
            if (rank >= 0 && local >= 0 && !nodeByRank.count(rank))
                nodeByRank[rank] = intOf(e.body, protocol::field::Node, -1);
        }
        if (e.type == protocol::ev::Hello) {
            worldSize = std::max(worldSize, intOf(e.body, protocol::field::WorldSize, 0));
            if (workload.isEmpty()) workload = textOf(e.body, protocol::field::Workload);
        }
    });
    if (stats) *stats = counted;
    if (nodeByRank.empty()) {
        if (error)
            *error = QCoreApplication::translate(
                         "ddpdesk::launch::RunReplay",
                         "%1 has no rank_start or hello event: not a ddpdesk run recording")
                         .arg(metricsPath);
        return false;
    }
    QVector<int> globalRanks;
    int ownRanks = 0; // this node's: recorded without `node`, before the other nodes' in rank order
    for (const auto& [rank, node] : nodeByRank) {
        globalRanks << rank;
        ownRanks += node < 0 ? 1 : 0;
    }

    QJsonObject recorded;
    QFile sf(QDir(runDir).filePath(QStringLiteral("summary.json")));
    if (sf.open(QIODevice::ReadOnly)) recorded = QJsonDocument::fromJson(sf.readAll()).object();
    if (recorded.contains(QLatin1String("world_size")))
        worldSize = recorded.value(QLatin1String("world_size")).toInt(worldSize);
    if (recorded.contains(QLatin1String("workload")))
        workload = recorded.value(QLatin1String("workload")).toString(workload);
    if (worldSize <= 0) worldSize = globalRanks.size();

    model->setReplayClock(firstT > 0 ? firstT : 1);
    model->reset(globalRanks, worldSize, workload, 0);
    if (ownRanks < globalRanks.size()) model->setRemoteRanks(ownRanks, ownRanks);
    // Second pass: every event through the model, in file order.
    f.seek(0);
    reader.forEach(nullptr, [&](const QByteArray& line, const protocol::Event& e) {
        if (e.t > 0) model->setReplayClock(e.t);
        if (e.type == protocol::ev::Gpu || e.type == protocol::ev::Proc) { // any node's, as live
            model->applyMonitorEvent(e.body);
            return;
        }
        if (!isLauncherEvent(e) && e.type == protocol::ev::Log) {
            // What the supervisor recorded from a rank's stderr (live, it went through appendStderr).
            if (textOf(e.body, protocol::field::Stream) == QLatin1String("stderr"))
                model->appendStderr(model->indexOfRank(e.rank), textOf(e.body, protocol::field::Text));
            return;
        }
        if (!isLauncherEvent(e)) {
            model->applyLine(model->indexOfRank(e.rank), line);
            return;
        }
        const int index = model->indexOfRank(intOf(e.body, protocol::field::Rank, -1));
        if (e.type == protocol::ev::RankStart) {
            if (!e.body.contains(protocol::field::Node)) // another node's pid is not one of this machine's
                model->setPid(index, intOf(e.body, protocol::field::Pid, 0));
        } else if (e.type == protocol::ev::RankExit) {
            const auto code = e.body.find(protocol::field::ExitCode);
            const int exitCode = (code != e.body.end() && code->is_number()) ? code->get<int>() : -1;
            model->setRankState(
                index, rankStateFromName(textOf(e.body, protocol::field::State)).value_or(RankState::Failed),
                textOf(e.body, protocol::field::Text), exitCode);
        } else if (e.type == protocol::ev::Restart) {
            model->noteRestart();
        } else if (e.type == protocol::ev::Node) {
            model->setNodeContact(intOf(e.body, protocol::field::Node, -1),
                                  textOf(e.body, protocol::field::Host),
                                  textOf(e.body, protocol::field::State));
        }
    });
    if (recorded.isEmpty())
        model->finish(
            QStringLiteral("stopped"), -1,
            QCoreApplication::translate("ddpdesk::launch::RunReplay", "the recording has no summary.json"));
    else
        model->finishRecorded(RunSummary::fromJson(recorded));
    model->setReplayClock(0);
    return true;
}

} // namespace ddpdesk::launch
