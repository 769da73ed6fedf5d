#pragma once

// Feeds the Run page's four charts (loss per rank + smoothed mean, throughput, and the monitor's two:
// utilization and memory) from a RunModel. The monitor charts show the run, not the machine: the GPUs its
// ranks run on and each rank's own GPU memory, or, for CPU workers, each rank's CPU and memory.
// Model signals only mark a chart dirty; refreshNext() redraws one dirty chart per call, so a refresh tick
// never pays for all four, and every series is cut to kMaxChartPoints (min/max per bucket, spikes kept)
// before it reaches the chart, so a 100k-step run costs the same to draw as a short one.

#include "charts/line_chart.h"

#include <QHash>
#include <QPointF>
#include <QSet>
#include <QString>
#include <QStringList>
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
    // Takes the model's latest gpu/proc sample. Returns true when the run turned out to use GPUs or stopped
    // doing so (a new run): the charts' titles change, so the caller retranslates and resets.
    bool addMonitorSample(const launch::RunModel& model);

    void markDirty(Chart which) { m_dirty[which] = true; }
    void markAllDirty();
    void clearDirty();
    bool refreshNext(const launch::RunModel& model, double smoothing); // false: nothing was dirty
    void drawPending(); // hands every chart's pending points to the chart now (tests, screenshots)

private:
    void refreshChart(Chart which, const launch::RunModel& model, double smoothing);
    void clearSeries();
    void showMemoryNote();

    std::unique_ptr<LineChart> m_charts[ChartCount];
    QVector<int> m_lossIds, m_rateIds;
    int m_meanId = -1;
    QHash<QString, int> m_utilIds, m_memIds; // per GPU or per worker
    QHash<QString, QVector<QPointF>> m_utilSeries, m_memSeries;
    // A GPU's or worker's colour, by first sight: keys arrive node by node, so an index in the sorted keys of
    // the moment would give two series one colour.
    QHash<QString, int> m_monitorColor;
    // The GPUs the run's ranks were seen on, by chart name ("GPU 1", "1/GPU 0"). Kept until clearMonitor():
    // a rank that ended is no longer listed on its GPU, but that GPU's history stays the run's.
    QSet<QString> m_runGpus;
    // Ranks listed on their GPU with no memory attributed to them (Windows WDDM): a note says n/a, no 0 is
    // drawn.
    QStringList m_unattributedRanks;
    bool m_monitorIsGpu = false;
    bool m_dirty[ChartCount] = {false, false, false, false};
    int m_turn = 0;
};

} // namespace ddpdesk::ui
