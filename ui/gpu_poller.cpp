// GpuPoller: samples every GPU through monitor::GpuReader on a timer and turns the samples into GpuChoices.
#include "gpu_poller.h"

#include "monitor/gpu_reader.h"

#include <QTimer>

namespace ddpdesk::ui {

namespace {
constexpr int kGpuPollerIntervalMs = 2000;
} // namespace

GpuPoller::GpuPoller(QObject* parent) : QObject(parent), m_reader(std::make_unique<monitor::GpuReader>()) {
    m_timer = new QTimer(this);
    m_timer->setInterval(kGpuPollerIntervalMs);
    connect(m_timer, &QTimer::timeout, this, &GpuPoller::poll);
}

GpuPoller::~GpuPoller() = default;

int GpuPoller::deviceCount() const {
    return m_reader->deviceCount();
}

const monitor::NvmlStatus& GpuPoller::status() const {
    return m_reader->status();
}

void GpuPoller::start() {
    poll();
    if (m_reader->deviceCount() > 0) m_timer->start();
}

void GpuPoller::poll() {
    QVector<GpuChoice> gpus;
    for (const monitor::GpuSample& s : m_reader->sample()) {
        if (s.lost) continue;
        GpuChoice g;
        g.index = s.index;
        g.name = QString::fromStdString(s.name);
        g.utilPercent = s.gpuUtilPercent ? double(*s.gpuUtilPercent) : -1.0;
        g.memUsedMiB = s.memUsedBytes ? double(*s.memUsedBytes) / (1024.0 * 1024.0) : -1.0;
        g.memTotalMiB = s.memTotalBytes ? double(*s.memTotalBytes) / (1024.0 * 1024.0) : -1.0;
        gpus << g;
    }
    emit polled(gpus);
}

} // namespace ddpdesk::ui
