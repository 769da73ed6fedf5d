#pragma once

// The NVIDIA GPUs as NVML sees them: owns the reader and the 2-second timer that re-reads them while a driver
// answers, and hands each reading on as the Setup page's checklist entries.

#include "monitor/nvml_status.h"
#include "setup_panel.h" // GpuChoice

#include <QObject>
#include <QVector>

#include <memory>

class QTimer;

namespace ddpdesk::monitor {
class GpuReader;
}

namespace ddpdesk::ui {

class GpuPoller : public QObject {
    Q_OBJECT
public:
    explicit GpuPoller(QObject* parent = nullptr);
    ~GpuPoller() override;

    int deviceCount() const;
    const monitor::NvmlStatus& status() const;
    void start(); // reads once now, then every 2 s (without a driver there is nothing to refresh)

signals:
    void polled(const QVector<GpuChoice>& gpus); // the devices that are not lost

private:
    void poll();

    std::unique_ptr<monitor::GpuReader> m_reader;
    QTimer* m_timer;
};

} // namespace ddpdesk::ui
