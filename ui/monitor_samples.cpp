#include "monitor_samples.h"

#include <QJsonArray>

namespace ddpdesk::ui {
namespace {

// First present numeric field among the names core/monitor (and older recordings) use.
double number(const QJsonObject& o, std::initializer_list<const char*> keys, double scale = 1.0) {
    for (const char* k : keys) {
        const QJsonValue v = o.value(QLatin1String(k));
        if (v.isDouble()) return v.toDouble() * scale;
    }
    return -1;
}

QVector<QJsonObject> entries(const QJsonObject& event, std::initializer_list<const char*> arrayKeys) {
    QVector<QJsonObject> out;
    for (const char* k : arrayKeys) {
        const QJsonValue v = event.value(QLatin1String(k));
        if (v.isArray()) {
            for (const QJsonValue& e : v.toArray())
                if (e.isObject()) out << e.toObject();
            return out;
        }
    }
    if (!event.isEmpty()) out << event; // one device / process per event
    return out;
}

constexpr double kMiB = 1.0 / (1024.0 * 1024.0);

} // namespace

QVector<MonitorReading> gpuReadings(const QJsonObject& gpuEvent) {
    QVector<MonitorReading> out;
    for (const QJsonObject& g : entries(gpuEvent, {"gpus", "devices"})) {
        if (!g.contains(QLatin1String("index")) || g.value(QLatin1String("lost")).toBool()) continue;
        MonitorReading r;
        r.key = QStringLiteral("GPU %1").arg(g.value(QLatin1String("index")).toInt());
        r.util = number(g, {"gpu_util", "gpu_util_percent", "util_gpu", "utilization_gpu"});
        r.memMiB = number(g, {"mem_used_bytes", "memory_used_bytes"}, kMiB);
        if (r.memMiB < 0) r.memMiB = number(g, {"mem_used_mib", "memory_used_mib"});
        out << r;
    }
    return out;
}

QVector<MonitorReading> procReadings(const QJsonObject& procEvent) {
    QVector<MonitorReading> out;
    for (const QJsonObject& p : entries(procEvent, {"processes", "procs"})) {
        MonitorReading r;
        r.pid = qint64(number(p, {"pid"}));
        if (r.pid <= 0) continue;
        const QJsonValue rank = p.value(QLatin1String("rank"));
        r.key = rank.isDouble() && rank.toInt() >= 0 ? QStringLiteral("rank %1").arg(rank.toInt())
                                                     : QStringLiteral("pid %1").arg(r.pid);
        r.util = number(p, {"cpu_percent", "cpu"});
        r.memMiB = number(p, {"rss_bytes", "resident_bytes", "memory_bytes"}, kMiB);
        if (r.memMiB < 0) r.memMiB = number(p, {"rss_mib", "rss_mb"});
        out << r;
    }
    return out;
}

} // namespace ddpdesk::ui
