#pragma once

// Reads the launcher's `gpu` / `proc` monitor events (core/monitor's JSON) into flat per-device readings for
// the utilization and memory charts. Tolerant by design: a metric a device does not report is simply absent.

#include <QJsonObject>
#include <QString>
#include <QVector>

namespace ddpdesk::ui {

struct MonitorReading {
    QString key;        // "GPU 0" or "rank 1"
    qint64 pid = 0;     // for per-process readings
    double util = -1;   // percent (GPU utilization or process CPU %)
    double memMiB = -1; // GPU memory used or process resident memory
};

QVector<MonitorReading> gpuReadings(const QJsonObject& gpuEvent);
QVector<MonitorReading> procReadings(const QJsonObject& procEvent);

} // namespace ddpdesk::ui
