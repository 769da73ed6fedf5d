#include "launch/model/monitor_readings.h"

#include "protocol/telemetry.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <vector>

namespace ddpdesk::launch {
namespace {

// First present numeric field among the names core/monitor (and older recordings) use. NaN and infinity count
// as absent: they are written to metrics.jsonl as null, so a replayed run and a live one read the same.
double number(const nlohmann::json& o, std::initializer_list<const char*> keys, double scale = 1.0) {
    for (const char* k : keys) {
        const auto it = o.find(k);
        if (it != o.end() && it->is_number()) {
            const double v = it->get<double>();
            // Within +-2^53: the callers cast to qint64 and int (another node's monitor sent it).
            if (std::isfinite(v)) return std::clamp(v, -9.0e15, 9.0e15) * scale;
        }
    }
    return -1;
}

// A whole number that fits an int, else 0: what these readings have always taken for a GPU index or rank.
int wholeInt(const nlohmann::json& v) {
    if (!v.is_number()) return 0;
    const double d = v.get<double>();
    return d == std::trunc(d) && d >= INT_MIN && d <= INT_MAX ? int(d) : 0;
}

std::vector<const nlohmann::json*> entries(const nlohmann::json& event,
                                           std::initializer_list<const char*> arrayKeys) {
    std::vector<const nlohmann::json*> out;
    if (!event.is_object()) return out;
    for (const char* k : arrayKeys) {
        const auto it = event.find(k);
        if (it != event.end() && it->is_array()) {
            for (const nlohmann::json& e : *it)
                if (e.is_object()) out.push_back(&e);
            return out;
        }
    }
    if (!event.empty()) out.push_back(&event); // one device / process per event
    return out;
}

constexpr double kMiB = 1.0 / (1024.0 * 1024.0);

} // namespace

int readingsNode(const nlohmann::json& monitorEvent) {
    const auto node =
        monitorEvent.is_object() ? monitorEvent.find(protocol::field::Node) : monitorEvent.end();
    return monitorEvent.is_object() && node != monitorEvent.end() ? std::max(0, wholeInt(*node)) : 0;
}

void replaceNodeReadings(QVector<MonitorReading>& all, int node, const QVector<MonitorReading>& fresh) {
    all.erase(
        std::remove_if(all.begin(), all.end(), [node](const MonitorReading& r) { return r.node == node; }),
        all.end());
    auto at = std::find_if(all.begin(), all.end(), [node](const MonitorReading& r) { return r.node > node; });
    const int pos = int(at - all.begin());
    for (int i = 0; i < fresh.size(); ++i)
        all.insert(pos + i, fresh[i]);
}

QString readingName(const MonitorReading& r, bool multiNode) {
    return multiNode && r.key.startsWith(QLatin1String("GPU"))
               ? QStringLiteral("%1/%2").arg(r.node).arg(r.key)
               : r.key;
}

QVector<MonitorReading> gpuReadings(const nlohmann::json& gpuEvent) {
    QVector<MonitorReading> out;
    const int node = readingsNode(gpuEvent);
    for (const nlohmann::json* g : entries(gpuEvent, {protocol::field::Gpus, "devices"})) {
        const auto index = g->find(protocol::field::Index);
        const auto lost = g->find(protocol::field::Lost);
        if (index == g->end() || (lost != g->end() && lost->is_boolean() && lost->get<bool>())) continue;
        MonitorReading r;
        r.node = node;
        r.key = QStringLiteral("GPU %1").arg(wholeInt(*index));
        r.util = number(*g, {"gpu_util", protocol::field::GpuUtilPercent, "util_gpu", "utilization_gpu"});
        r.memMiB = number(*g, {protocol::field::MemUsedBytes, "memory_used_bytes"}, kMiB);
        if (r.memMiB < 0) r.memMiB = number(*g, {"mem_used_mib", "memory_used_mib"});
        r.temperatureC = number(*g, {protocol::field::TemperatureC});
        r.smClockMHz = number(*g, {protocol::field::SmClockMhz});
        const auto processes = g->find(protocol::field::Processes);
        if (processes != g->end() && processes->is_array())
            for (const nlohmann::json& p : *processes)
                if (p.is_object() && number(p, {protocol::field::Pid}) > 0)
                    r.pids << qint64(number(p, {protocol::field::Pid}));
        out << r;
    }
    return out;
}

QVector<MonitorReading> procReadings(const nlohmann::json& procEvent) {
    QVector<MonitorReading> out;
    const int node = readingsNode(procEvent);
    for (const nlohmann::json* p : entries(procEvent, {protocol::field::Processes, "procs"})) {
        MonitorReading r;
        r.node = node;
        r.pid = qint64(number(*p, {protocol::field::Pid}));
        if (r.pid <= 0) continue;
        const auto rank = p->find(protocol::field::Rank);
        const bool hasRank = rank != p->end() && rank->is_number() && std::isfinite(rank->get<double>());
        r.key = hasRank && wholeInt(*rank) >= 0 ? QStringLiteral("rank %1").arg(wholeInt(*rank))
                                                : QStringLiteral("pid %1").arg(r.pid);
        r.util = number(*p, {protocol::field::CpuPercent, "cpu"});
        r.memMiB = number(*p, {protocol::field::RssBytes, "resident_bytes", "memory_bytes"}, kMiB);
        if (r.memMiB < 0) r.memMiB = number(*p, {"rss_mib", "rss_mb"});
        r.threads = int(std::clamp(number(*p, {protocol::field::Threads}), -1.0, double(INT_MAX)));
        const auto onGpus = p->find(protocol::field::Gpus);
        if (onGpus != p->end() && onGpus->is_array())
            for (const nlohmann::json& g : *onGpus) {
                const auto index = g.is_object() ? g.find(protocol::field::Index) : g.end();
                if (!g.is_object() || index == g.end()) continue;
                r.gpus << wholeInt(*index);
                const double mib = number(g, {protocol::field::UsedMemBytes}, kMiB);
                if (mib >= 0) r.gpuMemMiB = std::max(0.0, r.gpuMemMiB) + mib;
            }
        out << r;
    }
    return out;
}

} // namespace ddpdesk::launch
