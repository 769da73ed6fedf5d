#include "launch/watch/straggler_evidence.h"

#include "launch/model/run_model.h"
#include "protocol/telemetry.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace ddpdesk::launch {

namespace {

// The Supervisor's context: the watch's texts keep their translations.
QString evidenceTr(const char* text, const char* disambiguation = nullptr, int n = -1) {
    return QCoreApplication::translate("ddpdesk::launch::Supervisor", text, disambiguation, n);
}

const MonitorReading* gpuReading(const RunModel& model, int node, int gpu) {
    if (gpu < 0) return nullptr;
    for (const MonitorReading& g : model.lastGpuReadings())
        if (g.node == node && g.key == QStringLiteral("GPU %1").arg(gpu)) return &g;
    return nullptr;
}

// The node whose monitor read a rank's process and GPU: node 0 holds another node's readings under that node;
// a node's own readings carry no node.
int readingNode(const RankStatus& r) {
    return r.remote ? r.node : 0;
}

} // namespace

StragglerEvidence stragglerEvidence(const RunModel& model, int slowIndex, int slowGpu, int fastestIndex,
                                    int fastestGpu) {
    StragglerEvidence e;
    const RankStatus& slow = model.rank(slowIndex);
    const int node = readingNode(slow);
    for (const MonitorReading& p : model.lastProcReadings()) {
        if (p.node != node || p.pid != slow.pid || slow.pid <= 0) continue;
        if (p.util >= 0) {
            e.text << evidenceTr("CPU %1 %").arg(p.util, 0, 'f', 0);
            e.fields[protocol::field::CpuPercent] = p.util;
        }
        if (p.threads > 0) {
            e.text << evidenceTr("%1 threads").arg(p.threads);
            e.fields[protocol::field::Threads] = p.threads;
        }
    }
    const MonitorReading* g = gpuReading(model, node, slowGpu);
    if (!g) return e;
    e.fields[protocol::field::Index] = slowGpu;
    if (g->util >= 0) {
        e.text << evidenceTr("GPU %1 at %2 % utilization").arg(slowGpu).arg(g->util, 0, 'f', 0);
        e.fields[protocol::field::GpuUtilPercent] = g->util;
    }
    if (g->temperatureC >= 0) {
        e.text << evidenceTr("%1 °C").arg(g->temperatureC, 0, 'f', 0);
        e.fields[protocol::field::TemperatureC] = g->temperatureC;
    }
    if (g->smClockMHz >= 0) {
        const int fastestNode = fastestIndex >= 0 && fastestIndex < model.rankCount()
                                    ? readingNode(model.rank(fastestIndex))
                                    : node;
        const MonitorReading* f = fastestGpu != slowGpu || fastestNode != node
                                      ? gpuReading(model, fastestNode, fastestGpu)
                                      : nullptr;
        if (f && f->smClockMHz > 0) {
            e.text << evidenceTr("SM clock %1 MHz against %2 MHz on GPU %3 of the fastest rank")
                          .arg(g->smClockMHz, 0, 'f', 0)
                          .arg(f->smClockMHz, 0, 'f', 0)
                          .arg(fastestGpu);
            e.fields[protocol::field::FastestSmClockMhz] = f->smClockMHz;
        } else {
            e.text << evidenceTr("SM clock %1 MHz").arg(g->smClockMHz, 0, 'f', 0);
        }
        e.fields[protocol::field::SmClockMhz] = g->smClockMHz;
    }
    QJsonArray others;
    QStringList otherText;
    for (qint64 pid : g->pids)
        if (pid != slow.pid) {
            others.push_back(pid);
            otherText << QString::number(pid);
        }
    if (!others.isEmpty()) {
        e.text << evidenceTr("%n other process(es) on its GPU (pid %1)", nullptr, int(others.size()))
                      .arg(otherText.join(QStringLiteral(", ")));
        e.fields[protocol::field::GpuOtherPids] = others;
    }
    return e;
}

} // namespace ddpdesk::launch
