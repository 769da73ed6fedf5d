#include "run_chart_feed.h"

#include "charts/series_buffer.h"
#include "launch/model/run_model.h"
#include "run_panel.h"

#include <algorithm>
#include <iterator>

namespace ddpdesk::ui {

RunChartFeed::RunChartFeed(QWidget* parent) {
    for (auto& c : m_charts)
        c = createLineChart(parent);
    m_charts[Utilization]->setYRange(0, 100);
}

RunChartFeed::~RunChartFeed() = default;

QWidget* RunChartFeed::widget(Chart which) const {
    return m_charts[which]->widget();
}

// Translated in RunPanel's context, where these strings have always lived (the shipped translations use it).
void RunChartFeed::retranslate() {
    m_charts[Loss]->setTitle(RunPanel::tr("Loss"));
    m_charts[Loss]->setAxisTitles(RunPanel::tr("seconds"), RunPanel::tr("loss"));
    m_charts[Throughput]->setTitle(RunPanel::tr("Throughput"));
    m_charts[Throughput]->setAxisTitles(RunPanel::tr("seconds"), RunPanel::tr("samples/s"));
    m_charts[Utilization]->setTitle(m_monitorIsGpu ? RunPanel::tr("GPU utilization")
                                                   : RunPanel::tr("CPU per worker"));
    m_charts[Utilization]->setAxisTitles(RunPanel::tr("seconds"), RunPanel::tr("%"));
    m_charts[Memory]->setTitle(m_monitorIsGpu ? RunPanel::tr("GPU memory")
                                              : RunPanel::tr("Memory per worker"));
    m_charts[Memory]->setAxisTitles(RunPanel::tr("seconds"), RunPanel::tr("MiB"));
}

void RunChartFeed::reset(const launch::RunModel* model) {
    for (auto& c : m_charts)
        c->removeAllSeries();
    m_lossIds.clear();
    m_rateIds.clear();
    m_utilIds.clear();
    m_memIds.clear();
    const int n = model ? model->rankCount() : 0;
    for (int i = 0; i < n; ++i) {
        const QString name = RunPanel::tr("rank %1").arg(model->rank(i).rank);
        m_lossIds << m_charts[Loss]->addSeries(name, seriesColor(i));
        m_rateIds << m_charts[Throughput]->addSeries(name, seriesColor(i));
    }
    m_meanId = n > 1 ? m_charts[Loss]->addSeries(RunPanel::tr("mean"), QColor(0x20, 0x20, 0x20)) : -1;
    markAllDirty();
}

void RunChartFeed::clearMonitor() {
    m_utilSeries.clear();
    m_memSeries.clear();
    m_monitorColor.clear();
}

bool RunChartFeed::addMonitorSample(const launch::RunModel& model) {
    const double t = model.elapsedS();
    QVector<launch::MonitorReading> readings = model.lastGpuReadings();
    const bool gpu = !readings.isEmpty();
    // Node 0 of a multi-node run shows every node's GPUs: "1/GPU 0".
    const bool multiNode = model.nodes().size() > 1;
    if (gpu) {
        for (launch::MonitorReading& r : readings)
            r.key = launch::readingName(r, multiNode);
    } else {
        readings = model.lastProcReadings();
        for (launch::MonitorReading& r : readings) {
            // Name processes by rank: that is what the user picked, PIDs change on every run.
            for (const auto& rs : model.ranks())
                if (rs.pid && rs.pid == r.pid && (rs.remote ? rs.node : 0) == r.node)
                    r.key = RunPanel::tr("rank %1").arg(rs.rank);
        }
    }
    const bool switched = gpu != m_monitorIsGpu;
    if (switched) {
        m_monitorIsGpu = gpu;
        clearMonitor();
    }
    for (const launch::MonitorReading& r : readings) {
        if (r.util >= 0) m_utilSeries[r.key].push_back(QPointF(t, r.util));
        if (r.memMiB >= 0) m_memSeries[r.key].push_back(QPointF(t, r.memMiB));
    }
    // Bounded like the model's series: thin 2:1 instead of growing for 100k-step runs.
    for (auto* map : {&m_utilSeries, &m_memSeries})
        for (auto& s : *map)
            if (s.size() > 4 * kMaxChartPoints) s = downsampleMinMax(s, 2 * kMaxChartPoints);
    m_dirty[Utilization] = m_dirty[Memory] = true;
    return switched;
}

void RunChartFeed::markAllDirty() {
    std::fill(std::begin(m_dirty), std::end(m_dirty), true);
}

void RunChartFeed::clearDirty() {
    std::fill(std::begin(m_dirty), std::end(m_dirty), false);
}

bool RunChartFeed::refreshNext(const launch::RunModel& model, double smoothing) {
    for (int k = 0; k < ChartCount; ++k) {
        const int c = (m_turn + k) % ChartCount;
        if (m_dirty[c]) {
            m_dirty[c] = false;
            refreshChart(Chart(c), model, smoothing);
            m_turn = (c + 1) % ChartCount;
            return true;
        }
    }
    return false;
}

void RunChartFeed::drawPending() {
    for (auto& c : m_charts)
        c->drawPending();
}

void RunChartFeed::refreshChart(Chart which, const launch::RunModel& model, double smoothing) {
    if (which == Loss) {
        LineChart& chart = *m_charts[Loss];
        auto drawn = [&](const QVector<QPointF>& raw) {
            return downsampleMinMax(smoothEma(raw, smoothing), kMaxChartPoints);
        };
        for (int i = 0; i < m_lossIds.size() && i < model.rankCount(); ++i)
            chart.setPoints(m_lossIds[i], drawn(model.lossSeries(i)));
        if (m_meanId >= 0) chart.setPoints(m_meanId, drawn(model.globalLossSeries()));
        return;
    }
    if (which == Throughput) {
        for (int i = 0; i < m_rateIds.size() && i < model.rankCount(); ++i)
            m_charts[Throughput]->setPoints(m_rateIds[i],
                                            downsampleMinMax(model.throughputSeries(i), kMaxChartPoints));
        return;
    }
    LineChart& chart = *m_charts[which];
    QHash<QString, int>& ids = which == Utilization ? m_utilIds : m_memIds;
    const QHash<QString, QVector<QPointF>>& series = which == Utilization ? m_utilSeries : m_memSeries;
    QStringList keys = series.keys();
    keys.sort();
    for (const QString& k : keys) {
        if (!ids.contains(k)) {
            if (!m_monitorColor.contains(k)) m_monitorColor.insert(k, int(m_monitorColor.size()));
            ids[k] = chart.addSeries(k, seriesColor(m_monitorColor.value(k)));
        }
        chart.setPoints(ids[k], downsampleMinMax(series[k], kMaxChartPoints));
    }
}

} // namespace ddpdesk::ui
