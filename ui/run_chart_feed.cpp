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
    showMemoryNote();
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
    clearSeries();
    m_runGpus.clear();
}

void RunChartFeed::clearSeries() {
    m_utilSeries.clear();
    m_memSeries.clear();
    m_monitorColor.clear();
    m_unattributedRanks.clear();
    showMemoryNote();
}

namespace {

// The run's processes in the latest sample, each named by its rank: that is what the user picked, PIDs change
// on every run.
QVector<launch::MonitorReading> rankProcesses(const launch::RunModel& model) {
    QVector<launch::MonitorReading> procs = model.lastProcReadings();
    for (launch::MonitorReading& r : procs)
        for (const auto& rs : model.ranks())
            if (rs.pid && rs.pid == r.pid && (rs.remote ? rs.node : 0) == r.node)
                r.key = RunPanel::tr("rank %1").arg(rs.rank);
    return procs;
}

// GPU `index` of `node` as the GPU charts name it: "GPU 0", or "1/GPU 0" in a multi-node run.
QString gpuName(int node, int index, bool multiNode) {
    launch::MonitorReading g;
    g.node = node;
    g.key = QStringLiteral("GPU %1").arg(index);
    return launch::readingName(g, multiNode);
}

// A reading absent from the sample (-1) draws no point: a gap, never a 0 the run did not have.
void addPoint(QHash<QString, QVector<QPointF>>& series, const QString& key, double t, double value) {
    if (value >= 0) series[key].push_back(QPointF(t, value));
}

} // namespace

bool RunChartFeed::addMonitorSample(const launch::RunModel& model) {
    const double t = model.elapsedS();
    const QVector<launch::MonitorReading> procs = rankProcesses(model);
    // Node 0 of a multi-node run shows every node's GPUs: "1/GPU 0".
    const bool multiNode = model.nodes().size() > 1;
    // The run's GPUs are those its ranks hold a CUDA context on. An idle GPU beside CPU workers, or another
    // job's GPU, is the machine's, not the run's: charting it would say the run does nothing.
    for (const launch::MonitorReading& p : procs)
        for (int index : p.gpus)
            m_runGpus.insert(gpuName(p.node, index, multiNode));
    // A GPU run's ranks start as plain processes until CUDA is up, so a run may switch once to its GPUs.
    const bool gpu = !m_runGpus.isEmpty();
    const bool switched = gpu != m_monitorIsGpu;
    if (switched) {
        m_monitorIsGpu = gpu;
        clearSeries();
    }
    m_unattributedRanks.clear();
    if (gpu) {
        for (const launch::MonitorReading& g : model.lastGpuReadings()) {
            const QString name = launch::readingName(g, multiNode);
            if (!m_runGpus.contains(name)) continue;
            addPoint(m_utilSeries, name, t, g.util);
            addPoint(m_memSeries, name, t, g.memMiB);
        }
        // Each rank's own share beside its GPU's total: what a rank holds, and which one grows.
        for (const launch::MonitorReading& p : procs) {
            if (p.gpus.isEmpty()) continue;
            if (p.gpuMemMiB >= 0)
                addPoint(m_memSeries, p.key, t, p.gpuMemMiB);
            else
                m_unattributedRanks << p.key;
        }
    } else {
        for (const launch::MonitorReading& p : procs) {
            addPoint(m_utilSeries, p.key, t, p.util);
            addPoint(m_memSeries, p.key, t, p.memMiB);
        }
    }
    showMemoryNote();
    // Bounded like the model's series: thin 2:1 instead of growing for 100k-step runs.
    for (auto* map : {&m_utilSeries, &m_memSeries})
        for (auto& s : *map)
            if (s.size() > 4 * kMaxChartPoints) s = downsampleMinMax(s, 2 * kMaxChartPoints);
    m_dirty[Utilization] = m_dirty[Memory] = true;
    return switched;
}

void RunChartFeed::showMemoryNote() {
    if (m_unattributedRanks.isEmpty()) {
        m_charts[Memory]->setNote(QString());
        return;
    }
    // A line over the plot: a few ranks by name, more by count (a Windows node's ranks all say n/a).
    const QString who = m_unattributedRanks.size() <= 3
                            ? m_unattributedRanks.join(QStringLiteral(", "))
                            : RunPanel::tr("%1 ranks").arg(m_unattributedRanks.size());
    m_charts[Memory]->setNote(
        RunPanel::tr("%1: n/a, Windows (WDDM) attributes no memory to a process").arg(who));
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
