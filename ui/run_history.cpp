#include "run_history.h"

#include "charts/series_buffer.h"
#include "protocol/telemetry.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace ddpdesk::ui {

QVector<RunRecord> scanRuns(const QString& runsFolder)
{
    QVector<RunRecord> out;
    const QDir dir(runsFolder);
    for (const QFileInfo& fi : dir.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile f(QDir(fi.filePath()).filePath(QStringLiteral("summary.json")));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QJsonDocument doc = QJsonDocument::fromJson(f.readAll());
        if (!doc.isObject())
            continue;
        RunRecord r;
        r.folder = fi.filePath();
        r.name = fi.fileName();
        r.finishedAt = QFileInfo(f).lastModified();
        r.summary = doc.object();
        out << r;
    }
    std::sort(out.begin(), out.end(), [](const RunRecord& a, const RunRecord& b) { return a.finishedAt > b.finishedAt; });
    return out;
}

RunCurves readCurves(const QString& runFolder, int maxPoints)
{
    RunCurves c;
    QFile f(QDir(runFolder).filePath(QStringLiteral("metrics.jsonl")));
    if (!f.open(QIODevice::ReadOnly))
        return c;
    std::map<int, int> slot; // global rank -> series index
    std::map<int, double> latest;
    double t0 = -1;
    while (!f.atEnd()) {
        const QByteArray line = f.readLine().trimmed();
        const auto e = protocol::parseLine(std::string_view(line.constData(), size_t(line.size())));
        if (!e)
            continue;
        if (t0 < 0 && e->t > 0)
            t0 = e->t;
        if (e->type != protocol::ev::Step || e->rank < 0)
            continue;
        const auto loss = e->body.find("loss");
        if (loss == e->body.end() || !loss->is_number())
            continue;
        const double y = loss->get<double>();
        if (!std::isfinite(y))
            continue;
        auto it = slot.find(e->rank);
        if (it == slot.end()) {
            it = slot.emplace(e->rank, c.ranks.size()).first;
            c.ranks << e->rank;
            c.lossByRank.push_back({});
        }
        const double x = e->t - t0;
        c.lossByRank[it->second] << QPointF(x, y);
        latest[e->rank] = y;
        double sum = 0;
        for (const auto& kv : latest)
            sum += kv.second;
        c.meanLoss << QPointF(x, sum / double(latest.size()));
    }
    // Ranks in order (their first step events may arrive in any order).
    QVector<int> order(c.ranks.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&c](int a, int b) { return c.ranks[a] < c.ranks[b]; });
    RunCurves sorted;
    for (int i : order) {
        sorted.ranks << c.ranks[i];
        sorted.lossByRank << downsampleMinMax(c.lossByRank[i], maxPoints);
    }
    c.ranks = sorted.ranks;
    c.lossByRank = sorted.lossByRank;
    c.meanLoss = downsampleMinMax(c.meanLoss, maxPoints);
    return c;
}

} // namespace ddpdesk::ui
