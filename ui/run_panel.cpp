#include "run_panel.h"

#include "charts/series_buffer.h"
#include "icons.h"
#include "launch/run_model.h"
#include "launch/supervisor.h"
#include "monitor_samples.h"

#include <QComboBox>
#include <QEvent>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSlider>
#include <QSplitter>
#include <QStyle>
#include <QTableWidget>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace ddpdesk::ui {

using launch::RankState;

namespace {

QString formatDuration(double s)
{
    if (s < 0 || !std::isfinite(s))
        return QStringLiteral("--:--");
    const qint64 t = qint64(s + 0.5);
    if (t >= 3600)
        return QStringLiteral("%1:%2:%3").arg(t / 3600).arg((t / 60) % 60, 2, 10, QLatin1Char('0'))
            .arg(t % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2").arg(t / 60).arg(t % 60, 2, 10, QLatin1Char('0'));
}

QString stateText(RankState s)
{
    switch (s) {
    case RankState::Pending: return RunPanel::tr("pending");
    case RankState::Starting: return RunPanel::tr("starting");
    case RankState::Rendezvous: return RunPanel::tr("rendezvous");
    case RankState::Training: return RunPanel::tr("training");
    case RankState::Done: return RunPanel::tr("done");
    case RankState::Failed: return RunPanel::tr("failed");
    case RankState::Stopped: return RunPanel::tr("stopped");
    }
    return launch::rankStateName(s);
}

QColor stateColor(RankState s)
{
    switch (s) {
    case RankState::Training: return QColor(0x10, 0x7c, 0x10);
    case RankState::Done: return QColor(0x00, 0x67, 0xc0);
    case RankState::Failed: return QColor(0xc4, 0x2b, 0x1c);
    case RankState::Stopped: return QColor(0x8a, 0x6d, 0x00);
    default: return QColor(0x55, 0x55, 0x55);
    }
}

} // namespace

RunPanel::RunPanel(QWidget* parent) : QWidget(parent)
{
    build();
    retranslate();
}

RunPanel::~RunPanel() = default;

void RunPanel::retranslate()
{
    m_start->setText(tr("&Start"));
    m_stop->setText(tr("S&top"));
    m_stop->setToolTip(tr("Stop every worker; checkpoints are kept (Shift+F5)"));
    m_diagnose->setText(tr("&Diagnose"));
    m_showLog->setText(tr("Show log"));
    m_table->setHorizontalHeaderLabels({tr("Rank"), tr("State"), tr("Step"), tr("Loss"), tr("Samples/s"),
                                        tr("Comm wait"), tr("PID"), tr("Exit")});
    m_tabs->setTabText(0, tr("Charts"));
    m_tabs->setTabText(1, tr("Logs"));
    m_smoothingLabel->setText(tr("Loss smoothing: %1").arg(m_smoothing->value() / 100.0, 0, 'f', 2));
    m_lossChart->setTitle(tr("Loss"));
    m_lossChart->setAxisTitles(tr("seconds"), tr("loss"));
    m_rateChart->setTitle(tr("Throughput"));
    m_rateChart->setAxisTitles(tr("seconds"), tr("samples/s"));
    m_utilChart->setTitle(m_monitorIsGpu ? tr("GPU utilization") : tr("CPU per worker"));
    m_utilChart->setAxisTitles(tr("seconds"), tr("%"));
    m_memChart->setTitle(m_monitorIsGpu ? tr("GPU memory") : tr("Memory per worker"));
    m_memChart->setAxisTitles(tr("seconds"), tr("MiB"));
    if (m_model)
        resetViews();
    refreshStatus();
}

void RunPanel::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(e);
}

void RunPanel::setStartEnabled(bool enabled, const QString& reason)
{
    const bool running = m_supervisor && m_supervisor->isRunning();
    m_start->setEnabled(enabled && !running);
    m_start->setToolTip(enabled ? tr("Start the run (F5)") : reason);
}

void RunPanel::attach(launch::Supervisor* supervisor)
{
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    if (m_supervisor)
        disconnect(m_supervisor, nullptr, this, nullptr);
    m_supervisor = supervisor;
    m_model = supervisor ? supervisor->model() : nullptr;
    m_title.clear();
    m_failedRank = -1;
    m_banner->hide();
    m_utilSeries.clear();
    m_memSeries.clear();
    if (!m_model)
        return;
    connectModel(m_model);
    connect(supervisor, &launch::Supervisor::rankFailed, this, &RunPanel::showFailure);
    connect(supervisor, &launch::Supervisor::message, this,
            [this](const QString& text) { onLog(-1, text, false); });
    connect(supervisor, &launch::Supervisor::stallDetected, this,
            [this](const QString& report) { onLog(-1, report, true); });
    connect(supervisor, &launch::Supervisor::started, this, [this] {
        resetViews();
        m_stop->setEnabled(true);
        m_start->setEnabled(false);
    });
    connect(supervisor, &launch::Supervisor::finished, this, [this] {
        m_stop->setEnabled(false);
        m_start->setEnabled(true);
        refreshNow();
    });
    resetViews();
}

void RunPanel::watch(const launch::RunModel* model)
{
    attach(nullptr);
    m_model = model;
    if (model)
        connectModel(model);
    resetViews();
}

void RunPanel::connectModel(const launch::RunModel* model)
{
    // A sweep deletes each size's Supervisor (and its model) when it moves on; keep the last picture, drop the pointer.
    connect(model, &QObject::destroyed, this, [this, model] {
        if (m_model == model) {
            m_model = nullptr;
            m_dirtyTable = m_dirtyStatus = false;
            std::fill(std::begin(m_dirtyChart), std::end(m_dirtyChart), false);
        }
    });
    connect(model, &launch::RunModel::rankUpdated, this, [this] { m_dirtyTable = m_dirtyStatus = true; });
    connect(model, &launch::RunModel::seriesAppended, this, [this] { m_dirtyChart[0] = m_dirtyChart[1] = true; });
    connect(model, &launch::RunModel::progressChanged, this, [this] { m_dirtyStatus = true; });
    connect(model, &launch::RunModel::logLine, this, &RunPanel::onLog);
    connect(model, &launch::RunModel::monitorSampled, this, &RunPanel::onMonitorSample);
    connect(model, &launch::RunModel::runFinished, this, [this] {
        m_dirtyTable = m_dirtyStatus = m_dirtyChart[0] = m_dirtyChart[1] = true;
        const launch::RunSummary s = m_model->summary();
        if (s.status == QLatin1String("failed"))
            showFailure(s.failedRank, s.failureReason);
        refresh();
    });
}

void RunPanel::showModel(const launch::RunModel* model, const QString& title)
{
    attach(nullptr);
    m_model = model;
    m_title = title;
    resetViews();
    if (model && model->summary().status == QLatin1String("failed"))
        showFailure(model->summary().failedRank, model->summary().failureReason);
    refreshNow();
}

void RunPanel::resetViews()
{
    const int n = m_model ? m_model->rankCount() : 0;
    m_table->setRowCount(n);
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < ColCount; ++c)
            if (!m_table->item(r, c)) {
                auto* item = new QTableWidgetItem;
                item->setTextAlignment(c == ColState ? Qt::AlignLeft | Qt::AlignVCenter
                                                     : Qt::AlignRight | Qt::AlignVCenter);
                m_table->setItem(r, c, item);
            }
    m_lossChart->removeAllSeries();
    m_rateChart->removeAllSeries();
    m_utilChart->removeAllSeries();
    m_memChart->removeAllSeries();
    m_lossIds.clear();
    m_rateIds.clear();
    m_utilIds.clear();
    m_memIds.clear();
    for (int i = 0; i < n; ++i) {
        const QString name = tr("rank %1").arg(m_model->rank(i).rank);
        m_lossIds << m_lossChart->addSeries(name, seriesColor(i));
        m_rateIds << m_rateChart->addSeries(name, seriesColor(i));
    }
    m_meanId = n > 1 ? m_lossChart->addSeries(tr("mean"), QColor(0x20, 0x20, 0x20)) : -1;

    const int oldSel = m_logRank->currentIndex();
    const QSignalBlocker block(m_logRank);
    m_logRank->clear();
    if (m_logs.size() != n + 1) {
        m_logs = QVector<QStringList>(n + 1);
        m_pending = QVector<QStringList>(n + 1);
    }
    for (int i = 0; i < n; ++i)
        m_logRank->addItem(tr("Rank %1").arg(m_model->rank(i).rank));
    m_logRank->addItem(tr("Launcher"));
    m_logRank->setCurrentIndex(oldSel >= 0 && oldSel <= n ? oldSel : 0);
    m_dirtyTable = m_dirtyStatus = true;
    std::fill(std::begin(m_dirtyChart), std::end(m_dirtyChart), true);
}

void RunPanel::onLog(int index, const QString& text, bool isStderr)
{
    if (m_logs.isEmpty())
        return;
    const int slot = index < 0 || index >= m_logs.size() - 1 ? m_logs.size() - 1 : index;
    const QString line = isStderr ? text : text;
    m_logs[slot] << line;
    if (m_logs[slot].size() > kMaxLogLines)
        m_logs[slot].erase(m_logs[slot].begin(), m_logs[slot].begin() + (m_logs[slot].size() - kMaxLogLines));
    m_pending[slot] << line;
    if (m_pending[slot].size() > kMaxLogLines)
        m_pending[slot].removeFirst();
}

void RunPanel::onMonitorSample()
{
    if (!m_model)
        return;
    const double t = m_model->elapsedS();
    QVector<MonitorReading> readings = gpuReadings(m_model->lastGpuSample());
    const bool gpu = !readings.isEmpty();
    if (!gpu) {
        readings = procReadings(m_model->lastProcSample());
        for (MonitorReading& r : readings) {
            // Name processes by rank: that is what the user picked, PIDs change on every run.
            for (const auto& rs : m_model->ranks())
                if (rs.pid && rs.pid == r.pid)
                    r.key = tr("rank %1").arg(rs.rank);
        }
    }
    if (gpu != m_monitorIsGpu) {
        m_monitorIsGpu = gpu;
        m_utilSeries.clear();
        m_memSeries.clear();
        retranslate();
    }
    for (const MonitorReading& r : readings) {
        if (r.util >= 0)
            m_utilSeries[r.key].push_back(QPointF(t, r.util));
        if (r.memMiB >= 0)
            m_memSeries[r.key].push_back(QPointF(t, r.memMiB));
    }
    // Bounded like the model's series: thin 2:1 instead of growing for 100k-step runs.
    for (auto* map : {&m_utilSeries, &m_memSeries})
        for (auto& s : *map)
            if (s.size() > 4 * kMaxChartPoints)
                s = downsampleMinMax(s, 2 * kMaxChartPoints);
    m_dirtyChart[2] = m_dirtyChart[3] = true;
}

void RunPanel::showFailure(int rank, const QString& reason)
{
    m_failedRank = rank;
    QString lastError;
    if (m_model) {
        const int idx = m_model->indexOfRank(rank);
        if (idx >= 0) {
            const auto& rs = m_model->rank(idx);
            if (!rs.errorMessage.isEmpty())
                lastError = rs.errorCode.isEmpty() ? rs.errorMessage
                                                   : QStringLiteral("%1: %2").arg(rs.errorCode, rs.errorMessage);
            else if (!rs.lastStderr.isEmpty())
                lastError = rs.lastStderr.back();
        }
    }
    QString text = rank >= 0 ? tr("<b>Rank %1 failed.</b> %2").arg(rank).arg(reason.toHtmlEscaped())
                             : tr("<b>The run failed.</b> %1").arg(reason.toHtmlEscaped());
    if (!lastError.isEmpty() && !reason.contains(lastError))
        text += QStringLiteral("<br>") + tr("Last error: %1").arg(lastError.toHtmlEscaped());
    m_bannerText->setText(text);
    m_banner->show();
    m_dirtyTable = true;
}

bool RunPanel::failureVisible() const { return !m_banner->isHidden(); }

QString RunPanel::failureText() const { return m_bannerText->text(); }

QString RunPanel::statusText() const { return m_status->text(); }

QString RunPanel::logText() const { return m_log->toPlainText(); }

void RunPanel::selectLogRank(int index) { m_logRank->setCurrentIndex(index); }

void RunPanel::refreshNow()
{
    m_dirtyTable = m_dirtyStatus = true;
    std::fill(std::begin(m_dirtyChart), std::end(m_dirtyChart), true);
    refresh();
    while (m_model && refreshNextChart()) {
    }
}

void RunPanel::refresh()
{
    if (!m_model)
        return;
    if (m_dirtyTable)
        refreshTable();
    if (m_dirtyStatus)
        refreshStatus();
    flushLogs();
    // A Qt Charts repaint costs tens of milliseconds whatever the data; one chart per tick keeps every UI-thread
    // stall short, and charts off screen cost nothing.
    if (isVisible() && m_tabs->currentIndex() == 0)
        refreshNextChart();
}

bool RunPanel::refreshNextChart()
{
    for (int k = 0; k < kCharts; ++k) {
        const int c = (m_chartTurn + k) % kCharts;
        if (m_dirtyChart[c]) {
            m_dirtyChart[c] = false;
            refreshChart(c);
            m_chartTurn = (c + 1) % kCharts;
            return true;
        }
    }
    return false;
}

void RunPanel::refreshTable()
{
    m_dirtyTable = false;
    const int n = m_model->rankCount();
    if (m_table->rowCount() != n)
        resetViews();
    for (int i = 0; i < n; ++i) {
        const launch::RankStatus& r = m_model->rank(i);
        auto set = [&](int col, const QString& text) {
            QTableWidgetItem* item = m_table->item(i, col);
            if (item->text() != text)
                item->setText(text);
        };
        set(ColRank, QString::number(r.rank));
        QString state = stateText(r.state);
        if (r.state == RankState::Rendezvous && !r.rendezvousPhase.isEmpty())
            state += QStringLiteral(" (%1)").arg(r.rendezvousPhase);
        set(ColState, state);
        m_table->item(i, ColState)->setForeground(stateColor(r.state));
        m_table->item(i, ColState)->setIcon(r.state == RankState::Failed ? icon(IconId::Error)
                                            : r.state == RankState::Done ? icon(IconId::Ok) : QIcon());
        set(ColStep, QString::number(r.step));
        set(ColLoss, std::isfinite(r.loss) ? QString::number(r.loss, 'g', 4) : QStringLiteral("\u2013"));
        set(ColRate, r.samplesPerSec > 0 ? QString::number(r.samplesPerSec, 'f', 0) : QStringLiteral("\u2013"));
        set(ColComm, QStringLiteral("%1 %").arg(r.commWaitShare * 100.0, 0, 'f', 1));
        set(ColPid, r.pid ? QString::number(r.pid) : QString());
        set(ColExit, r.exitText.isEmpty() ? (r.exitCode >= 0 ? QString::number(r.exitCode) : QString())
                                          : r.exitText);
        m_table->item(i, ColExit)->setToolTip(r.exitText);
    }
}

void RunPanel::refreshChart(int which)
{
    if (which == 0) {
        const double w = m_smoothing->value() / 100.0;
        for (int i = 0; i < m_lossIds.size() && i < m_model->rankCount(); ++i)
            m_lossChart->setPoints(m_lossIds[i], downsampleMinMax(smoothEma(m_model->lossSeries(i), w), kMaxChartPoints));
        if (m_meanId >= 0)
            m_lossChart->setPoints(m_meanId, downsampleMinMax(smoothEma(m_model->globalLossSeries(), w), kMaxChartPoints));
        return;
    }
    if (which == 1) {
        for (int i = 0; i < m_rateIds.size() && i < m_model->rankCount(); ++i)
            m_rateChart->setPoints(m_rateIds[i], downsampleMinMax(m_model->throughputSeries(i), kMaxChartPoints));
        return;
    }
    LineChart* chart = which == 2 ? m_utilChart.get() : m_memChart.get();
    QHash<QString, int>& ids = which == 2 ? m_utilIds : m_memIds;
    const QHash<QString, QVector<QPointF>>& series = which == 2 ? m_utilSeries : m_memSeries;
    QStringList keys = series.keys();
    keys.sort();
    for (const QString& k : keys) {
        if (!ids.contains(k))
            ids[k] = chart->addSeries(k, seriesColor(int(keys.indexOf(k))));
        chart->setPoints(ids[k], downsampleMinMax(series[k], kMaxChartPoints));
    }
}

void RunPanel::refreshStatus()
{
    m_dirtyStatus = false;
    if (!m_model && m_table->rowCount() > 0)
        return; // the run's Supervisor is gone (a sweep moved on): keep its last status line
    if (!m_model) {
        m_status->setText(tr("No run yet. Configure one on the Setup page, or press Run demo."));
        m_progress->setValue(0);
        m_progress->setFormat(QString());
        return;
    }
    const double p = m_model->progress();
    m_progress->setValue(p < 0 ? 0 : int(p * 1000));
    const launch::RunSummary s = m_model->summary();
    if (m_model->isFinished())
        m_progress->setFormat(s.status == QLatin1String("ok") ? tr("Finished") : tr("Ended: %1").arg(s.status));
    else if (p < 0)
        m_progress->setFormat(tr("Starting..."));
    else
        m_progress->setFormat(tr("%1% \u2014 ETA %2").arg(p * 100.0, 0, 'f', 1).arg(formatDuration(m_model->etaS())));
    QString text = m_title.isEmpty() ? QString() : m_title + QStringLiteral(" \u2014 ");
    text += tr("%1, world size %2: step %3 of %4, %5 samples/s, mean loss %6, %7 elapsed")
                .arg(s.workload)
                .arg(s.worldSize)
                .arg(s.steps)
                .arg(m_model->expectedSteps() > 0 ? QString::number(m_model->expectedSteps()) : tr("?"))
                .arg(m_model->isFinished() ? s.samplesPerS : m_model->globalSamplesPerS(), 0, 'f', 0)
                .arg(std::isfinite(m_model->meanLoss()) ? QString::number(m_model->meanLoss(), 'g', 4)
                                                        : QStringLiteral("\u2013"))
                .arg(formatDuration(m_model->isFinished() ? s.wallS : m_model->elapsedS()));
    m_status->setText(text);
}

void RunPanel::flushLogs()
{
    const int sel = m_logRank->currentIndex();
    if (sel < 0 || sel >= m_pending.size() || m_pending[sel].isEmpty())
        return;
    QScrollBar* bar = m_log->verticalScrollBar();
    const bool atEnd = bar->value() >= bar->maximum() - 2;
    m_log->appendPlainText(m_pending[sel].join(QLatin1Char('\n')));
    m_pending[sel].clear();
    if (atEnd)
        bar->setValue(bar->maximum());
}

} // namespace ddpdesk::ui
