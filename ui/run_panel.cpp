// RunPanel: wires the Run page's widgets and renders a RunModel into them at each refresh tick.
#include "run_panel.h"

#include "launch/model/run_model.h"
#include "launch/run/supervisor.h"
#include "run_chart_feed.h"
#include "run_failure_banner.h"
#include "run_node_table.h"
#include "run_rank_table.h"

#include <QComboBox>
#include <QDateTime>
#include <QEvent>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSlider>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>

#include <cmath>

namespace ddpdesk::ui {

namespace {

QString formatDuration(double s) {
    if (s < 0 || !std::isfinite(s)) return QStringLiteral("--:--");
    const qint64 t = qint64(s + 0.5);
    if (t >= 3600)
        return QStringLiteral("%1:%2:%3")
            .arg(t / 3600)
            .arg((t / 60) % 60, 2, 10, QLatin1Char('0'))
            .arg(t % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2").arg(t / 60).arg(t % 60, 2, 10, QLatin1Char('0'));
}

} // namespace

RunPanel::RunPanel(QWidget* parent) : QWidget(parent) {
    m_table = std::make_unique<RunRankTable>();
    m_nodes = std::make_unique<RunNodeTable>();
    m_charts = std::make_unique<RunChartFeed>(this);
    m_ui = layOutRunPanel(*this, m_nodes->widget(), m_table->widget(), *m_charts, kMaxLogLines);
    connectWidgets();
    retranslate();
}

RunPanel::~RunPanel() = default;

void RunPanel::connectWidgets() {
    m_timer = new QTimer(this);
    m_timer->setObjectName(QStringLiteral("run page refresh"));
    m_timer->setInterval(kRefreshMs);
    connect(m_timer, &QTimer::timeout, this, &RunPanel::refresh);
    m_timer->start();

    connect(m_ui.start, &QPushButton::clicked, this, &RunPanel::startRequested);
    connect(m_ui.stop, &QPushButton::clicked, this, &RunPanel::stopRequested);
    connect(m_ui.stacks, &QPushButton::clicked, this, &RunPanel::showStacks);
    connect(m_ui.banner, &RunFailureBanner::diagnoseClicked, this, &RunPanel::diagnoseRequested);
    connect(m_ui.banner, &RunFailureBanner::showLogClicked, this, [this](int failedRank) {
        if (m_model) {
            const int idx = m_model->indexOfRank(failedRank);
            if (idx >= 0) selectLogRank(idx);
        }
        m_ui.tabs->setCurrentIndex(1);
    });
    connect(m_ui.smoothing, &QSlider::valueChanged, this, [this] {
        m_charts->markDirty(RunChartFeed::Loss);
        m_ui.smoothingLabel->setText(tr("Loss smoothing: %1").arg(smoothing(), 0, 'f', 2));
    });
    connect(m_ui.logRank, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_ui.log->clear();
        if (i >= 0 && i < m_logs.slotCount()) {
            m_ui.log->setPlainText(m_logs.text(i));
            m_logs.clearPending(i);
            m_ui.log->verticalScrollBar()->setValue(m_ui.log->verticalScrollBar()->maximum());
        }
    });
    connect(m_table->widget(), &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        selectLogRank(row);
        m_ui.tabs->setCurrentIndex(1);
    });
}

void RunPanel::retranslate() {
    m_ui.start->setText(tr("&Start"));
    m_ui.stop->setText(tr("S&top"));
    m_ui.stop->setToolTip(tr("Stop every worker; checkpoints are kept (Shift+F5)"));
    m_ui.stacks->setText(tr("Show stac&ks"));
    m_ui.stacks->setToolTip(
        tr("Where does it hang? Every script rank writes the Python stacks of all its threads into the "
           "log; every ddpdesk-worker rank writes what it waits in (collective, bucket, for how long)"));
    m_ui.banner->retranslate();
    m_table->retranslate();
    m_nodes->retranslate();
    m_ui.tabs->setTabText(0, tr("Charts"));
    m_ui.tabs->setTabText(1, tr("Logs"));
    m_ui.smoothingLabel->setText(tr("Loss smoothing: %1").arg(smoothing(), 0, 'f', 2));
    m_charts->retranslate();
    if (m_model) resetViews();
    refreshStatus();
}

void RunPanel::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(e);
}

double RunPanel::smoothing() const {
    return m_ui.smoothing->value() / 100.0;
}

void RunPanel::setStartEnabled(bool enabled, const QString& reason) {
    const bool running = m_supervisor && m_supervisor->isRunning();
    m_ui.start->setEnabled(enabled && !running);
    m_ui.start->setToolTip(enabled ? tr("Start the run (F5)") : reason);
}

void RunPanel::attach(launch::Supervisor* supervisor) {
    if (m_model) disconnect(m_model, nullptr, this, nullptr);
    if (m_supervisor) disconnect(m_supervisor, nullptr, this, nullptr);
    m_supervisor = supervisor;
    m_model = supervisor ? supervisor->model() : nullptr;
    m_title.clear();
    m_ui.banner->clear();
    m_charts->clearMonitor();
    if (!m_model) return;
    connectModel(m_model);
    connect(supervisor, &launch::Supervisor::rankFailed, this, &RunPanel::showFailure);
    connect(supervisor, &launch::Supervisor::message, this,
            [this](const QString& text) { onLog(-1, text, false); });
    connect(supervisor, &launch::Supervisor::stallDetected, this,
            [this](const QString& report) { onLog(-1, report, true); });
    connect(supervisor, &launch::Supervisor::started, this, [this] {
        resetViews();
        m_ui.stop->setEnabled(true);
        m_ui.stacks->setEnabled(m_supervisor && m_supervisor->canShowStacks());
        m_ui.start->setEnabled(false);
    });
    connect(supervisor, &launch::Supervisor::finished, this, [this] {
        m_ui.stop->setEnabled(false);
        m_ui.stacks->setEnabled(false);
        m_ui.start->setEnabled(true);
        refreshNow();
    });
    resetViews();
}

void RunPanel::watch(const launch::RunModel* model) {
    attach(nullptr);
    m_model = model;
    if (model) connectModel(model);
    resetViews();
}

void RunPanel::connectModel(const launch::RunModel* model) {
    // A sweep deletes each size's Supervisor (and its model) when it moves on; keep the last picture, drop
    // the pointer.
    connect(model, &QObject::destroyed, this, [this, model] {
        if (m_model == model) {
            m_model = nullptr;
            m_dirtyTable = m_dirtyStatus = false;
            m_charts->clearDirty();
        }
    });
    // Per event these only set flags: the work happens once per refresh tick, whatever the event rate.
    connect(model, &launch::RunModel::rankUpdated, this, [this] { m_dirtyTable = m_dirtyStatus = true; });
    connect(model, &launch::RunModel::seriesAppended, this, [this] {
        m_charts->markDirty(RunChartFeed::Loss);
        m_charts->markDirty(RunChartFeed::Throughput);
    });
    connect(model, &launch::RunModel::progressChanged, this, [this] { m_dirtyStatus = true; });
    connect(model, &launch::RunModel::logLine, this, &RunPanel::onLog);
    connect(model, &launch::RunModel::monitorSampled, this, &RunPanel::onMonitorSample);
    connect(model, &launch::RunModel::liveDiagnosisChanged, this, [this] {
        if (!m_model->isFinished()) m_ui.banner->showHoldUp(m_model);
    });
    connect(model, &launch::RunModel::runFinished, this, [this] {
        m_dirtyTable = m_dirtyStatus = true;
        m_charts->reset(
            m_model); // a finished run's axes fit its data, without the headroom a live chart keeps
        const launch::RunSummary s = m_model->summary();
        if (s.status == QLatin1String("failed"))
            showFailure(s.failedRank, s.failureReason);
        else if (s.status == QLatin1String("ok") && s.diagnosis)
            m_ui.banner->showCompletedWarning(m_model);
        refresh();
    });
}

void RunPanel::showModel(const launch::RunModel* model, const QString& title) {
    attach(nullptr);
    m_model = model;
    m_title = title;
    resetViews();
    if (model && model->summary().status == QLatin1String("failed"))
        showFailure(model->summary().failedRank, model->summary().failureReason);
    else if (model && model->summary().status == QLatin1String("ok") && model->summary().diagnosis)
        m_ui.banner->showCompletedWarning(model);
    refreshNow();
}

void RunPanel::resetViews() {
    const int n = m_model ? m_model->rankCount() : 0;
    m_table->setRowCount(n);
    m_charts->reset(m_model);

    const int oldSel = m_ui.logRank->currentIndex();
    const QSignalBlocker block(m_ui.logRank);
    m_ui.logRank->clear();
    m_logs.resize(n + 1);
    for (int i = 0; i < n; ++i)
        m_ui.logRank->addItem(tr("Rank %1").arg(m_model->rank(i).rank));
    m_ui.logRank->addItem(tr("Launcher"));
    m_ui.logRank->setCurrentIndex(oldSel >= 0 && oldSel <= n ? oldSel : 0);
    m_dirtyTable = m_dirtyStatus = true;
}

void RunPanel::onLog(int index, const QString& text, bool) {
    if (m_logs.slotCount() == 0) return;
    const int launcher = m_logs.slotCount() - 1;
    m_logs.append(index < 0 || index >= launcher ? launcher : index, text);
}

void RunPanel::onMonitorSample() {
    if (!m_model) return;
    if (m_charts->addMonitorSample(*m_model))
        retranslate(); // GPU charts became per-worker CPU charts or back: new titles, new series
    m_charts->markDirty(RunChartFeed::Utilization);
    m_charts->markDirty(RunChartFeed::Memory);
}

void RunPanel::showFailure(int rank, const QString& reason) {
    m_ui.banner->showFailure(m_model, rank, reason);
    m_dirtyTable = true;
}

QTableWidget* RunPanel::rankTable() const {
    return m_table->widget();
}

QTableWidget* RunPanel::nodeTable() const {
    return m_nodes->widget();
}

bool RunPanel::failureVisible() const {
    return !m_ui.banner->isHidden();
}

QString RunPanel::failureText() const {
    return m_ui.banner->text();
}

QString RunPanel::statusText() const {
    return m_ui.status->text();
}

QString RunPanel::logText() const {
    return m_ui.log->toPlainText();
}

void RunPanel::showStacks() {
    if (!m_supervisor) return;
    // The answers arrive in the launcher's log, every rank's together.
    m_ui.tabs->setCurrentIndex(1);
    selectLogRank(m_ui.logRank->count() - 1);
    m_supervisor->requestStacks(tr("asked from the Run page"));
}

void RunPanel::selectLogRank(int index) {
    m_ui.logRank->setCurrentIndex(index);
}

void RunPanel::refreshNow() {
    m_dirtyTable = m_dirtyStatus = true;
    m_charts->markAllDirty();
    refresh();
    while (m_model && m_charts->refreshNext(*m_model, smoothing())) {
    }
    m_charts->drawPending();
}

void RunPanel::refresh() {
    if (!m_model) return;
    if (m_dirtyTable) {
        m_dirtyTable = false;
        m_table->update(*m_model);
    }
    // A few rows, each tick: "no contact for N s" counts on between events.
    const bool hadNodes = m_nodes->widget()->isVisibleTo(this);
    m_nodes->update(*m_model, QDateTime::currentMSecsSinceEpoch() / 1000.0);
    if (!hadNodes && m_nodes->widget()->isVisibleTo(this)) {
        // Nodes and every node's ranks above the charts: give the tables room for them.
        const int h = m_ui.split->height();
        m_ui.split->setSizes({h * 3 / 10, h - h * 3 / 10});
    }
    if (m_dirtyStatus) refreshStatus();
    flushLogs();
    // Redrawing a Qt Charts chart costs milliseconds per thousand points; one chart per tick keeps every
    // UI-thread stall short, and charts off screen cost nothing.
    if (isVisible() && m_ui.tabs->currentIndex() == 0) m_charts->refreshNext(*m_model, smoothing());
}

void RunPanel::refreshStatus() {
    m_dirtyStatus = false;
    if (!m_model && m_table->widget()->rowCount() > 0)
        return; // the run's Supervisor is gone (a sweep moved on): keep its last status line
    if (!m_model) {
        m_ui.status->setText(tr("No run yet. Configure one on the Setup page, or press Run demo."));
        m_ui.progress->setValue(0);
        m_ui.progress->setFormat(QString());
        return;
    }
    const double p = m_model->progress();
    m_ui.progress->setValue(p < 0 ? 0 : int(p * 1000));
    const launch::RunSummary s = m_model->summary();
    if (m_model->isFinished()) {
        const QString ended = s.status == QLatin1String("failed")    ? tr("failed")
                              : s.status == QLatin1String("stopped") ? tr("stopped")
                                                                     : s.status;
        m_ui.progress->setFormat(s.status == QLatin1String("ok") ? tr("Finished")
                                                                 : tr("Ended: %1").arg(ended));
    } else if (p < 0) {
        // A script's length is its own: once steps come, it is running, with no percentage to show.
        m_ui.progress->setFormat(s.steps > 0 ? tr("Running") : tr("Starting..."));
    } else {
        m_ui.progress->setFormat(
            tr("%1% \u2014 ETA %2").arg(p * 100.0, 0, 'f', 1).arg(formatDuration(m_model->etaS())));
    }
    QString text = m_title.isEmpty() ? QString() : m_title + QStringLiteral(" \u2014 ");
    const QString line = m_model->expectedSteps() > 0
                             ? tr("%1, world size %2: step %3 of %4, %5 samples/s, mean loss %6, %7 elapsed")
                                   .arg(s.workload)
                                   .arg(s.worldSize)
                                   .arg(s.steps)
                                   .arg(m_model->expectedSteps())
                             : tr("%1, world size %2: step %3, %4 samples/s, mean loss %5, %6 elapsed")
                                   .arg(s.workload)
                                   .arg(s.worldSize)
                                   .arg(s.steps);
    const double rate = m_model->isFinished() ? s.samplesPerS : m_model->samplesRate().perS;
    text += line.arg(rate > 0 ? QString::number(rate, 'f', 0) : tr("n/a"))
                .arg(std::isfinite(m_model->meanLoss()) ? QString::number(m_model->meanLoss(), 'g', 4)
                                                        : QStringLiteral("\u2013"))
                .arg(formatDuration(m_model->isFinished() ? s.wallS : m_model->elapsedS()));
    m_ui.status->setText(text);
}

void RunPanel::flushLogs() {
    QString text;
    if (!m_logs.takePending(m_ui.logRank->currentIndex(), &text)) return;
    QScrollBar* bar = m_ui.log->verticalScrollBar();
    const bool atEnd = bar->value() >= bar->maximum() - 2;
    m_ui.log->appendPlainText(text);
    if (atEnd) bar->setValue(bar->maximum());
}

} // namespace ddpdesk::ui
