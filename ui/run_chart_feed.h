#pragma once

// Feeds the Run page's four charts (loss per rank + smoothed mean, throughput, GPU or per-worker CPU
// utilization, memory) from a RunModel. Model signals only mark a chart dirty; refreshNext() redraws one
// dirty chart per call, so a refresh tick never pays for all four, and every series is cut to kMaxChartPoints
// (min/max per bucket, spikes kept) before it reaches the chart, so a 100k-step run costs the same to draw as
// a short one.

#include "charts/line_chart.h"

#include <QHash>
#include <QPointF>
#include <QString>
#include <QVector>

#include <memory>

namespace ddpdesk::launch {
class RunModel;
}

namespace ddpdesk::ui {

class RunChartFeed {
public:
    static constexpr int kMaxChartPoints = 500; // per series on screen: ~1 point per 2 px of a typical chart
    enum Chart { Loss, Throughput, Utilization, Memory, ChartCount };

    explicit RunChartFeed(QWidget* parent);
    ~RunChartFeed();

    QWidget* widget(Chart which) const;
    void retranslate();
    bool monitorIsGpu() const { return m_monitorIsGpu; }

    // New series for the model's ranks (none for a null model); monitor history is kept (see clearMonitor).
    void reset(const launch::RunModel* model);
    void clearMonitor();
    // Takes the model's latest gpu/proc sample. Returns true when the source switched between GPUs and worker
    // processes: the charts' titles change, so the caller retranslates and resets.
    bool addMonitorSample(const launch::RunModel& model);

    void markDirty(Chart which) { m_dirty[which] = true; }
    void markAllDirty();
    void clearDirty();
    bool refreshNext(const launch::RunModel& model, double smoothing); // false: nothing was dirty
    void drawPending(); // hands every chart's pending points to the chart now (tests, screenshots)

private:
    void refreshChart(Chart which, const launch::RunModel& model, double smoothing);

    std::unique_ptr<LineChart> m_charts[ChartCount];
    QVector<int> m_lossIds, m_rateIds;
    int m_meanId = -1;
    QHash<QString, int> m_utilIds, m_memIds; // per GPU or per worker
    QHash<QString, QVector<QPointF>> m_utilSeries, m_memSeries;
    // A GPU's or worker's colour, by first sight: keys arrive node by node, so an index in the sorted keys of
    // the moment would give two series one colour.
    QHash<QString, int> m_monitorColor;
    bool m_monitorIsGpu = false;
    bool m_dirty[ChartCount] = {false, false, false, false};
    int m_turn = 0;
};

} // namespace ddpdesk::ui
