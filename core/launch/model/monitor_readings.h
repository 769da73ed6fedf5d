#pragma once

// The launcher's `gpu` / `proc` monitor events (core/monitor's JSON, live or replayed from metrics.jsonl)
// read once, here in core, into flat per-device readings: the RunModel keeps these structs, so the GUI's
// charts never parse JSON. Tolerant by design: a metric a device does not report is simply absent.

#include <QString>
#include <QVector>

#include <nlohmann/json_fwd.hpp>

namespace ddpdesk::launch {

struct MonitorReading {
    int node = 0;       // the node whose monitor read it (a multi-node run's node 0 shows every node's)
    QString key;        // "GPU 0" or "rank 1"
    qint64 pid = 0;     // for per-process readings
    double util = -1;   // percent (GPU utilization or process CPU %)
    double memMiB = -1; // GPU memory used or process resident memory
    int threads = -1;   // a process's threads
    // GPUs only: what tells a slow GPU from a busy one.
    double temperatureC = -1, smClockMHz = -1;
    QVector<qint64> pids; // the compute processes on it, where the driver lists them
    // Processes only: the GPUs it holds memory on (a CUDA context), and its own memory on them in all; -1
    // where the driver lists it there but attributes no memory to it (Windows WDDM).
    QVector<int> gpus;
    double gpuMemMiB = -1;
};

QVector<MonitorReading> gpuReadings(const nlohmann::json& gpuEvent);
QVector<MonitorReading> procReadings(const nlohmann::json& procEvent);
// One node's fresh readings in place of that node's earlier ones; the others' stay, ordered by node.
void replaceNodeReadings(QVector<MonitorReading>& all, int node, const QVector<MonitorReading>& fresh);
int readingsNode(const nlohmann::json& monitorEvent); // its `node` (tagged by node 0's link), else 0
// The name a chart or a text gives the reading: "GPU 0", or "1/GPU 0" in a multi-node run.
QString readingName(const MonitorReading& r, bool multiNode);

} // namespace ddpdesk::launch
