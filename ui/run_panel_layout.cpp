// The Run page's widgets and wiring (run_panel.cpp holds how a RunModel is rendered into them).

#include "run_panel.h"

#include "icons.h"
#include "launch/run_model.h"
#include "run_chart_feed.h"
#include "run_failure_banner.h"
#include "run_rank_table.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
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
#include <QVBoxLayout>

namespace ddpdesk::ui {

void RunPanel::build() {
    m_start = new QPushButton(icon(IconId::Start), QString());
    m_stop = new QPushButton(icon(IconId::Stop), QString());
    m_stop->setEnabled(false);
    m_stacks = new QPushButton;
    m_stacks->setEnabled(false);
    m_status = new QLabel;
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress = new QProgressBar;
    m_progress->setRange(0, 1000);
    m_progress->setMinimumWidth(260);
    m_progress->setAlignment(Qt::AlignCenter); // the percentage and ETA inside the bar, not beside it
    auto* top = new QHBoxLayout;
    top->addWidget(m_start);
    top->addWidget(m_stop);
    top->addWidget(m_stacks);
    top->addWidget(m_status, 1);
    top->addWidget(m_progress);

    m_banner = new RunFailureBanner;
    m_table = std::make_unique<RunRankTable>();
    m_charts = std::make_unique<RunChartFeed>(this);
    m_smoothing = new QSlider(Qt::Horizontal);
    m_smoothing->setRange(0, 99);
    m_smoothing->setValue(60);
    m_smoothing->setMaximumWidth(200);
    m_smoothingLabel = new QLabel;
    auto* chartsPage = new QWidget;
    auto* grid = new QGridLayout(chartsPage);
    auto* smoothRow = new QHBoxLayout;
    smoothRow->addWidget(m_smoothingLabel);
    smoothRow->addWidget(m_smoothing);
    smoothRow->addStretch();
    grid->addLayout(smoothRow, 0, 0, 1, 2);
    grid->addWidget(m_charts->widget(RunChartFeed::Loss), 1, 0);
    grid->addWidget(m_charts->widget(RunChartFeed::Throughput), 1, 1);
    grid->addWidget(m_charts->widget(RunChartFeed::Utilization), 2, 0);
    grid->addWidget(m_charts->widget(RunChartFeed::Memory), 2, 1);

    auto* logPage = new QWidget;
    auto* lv = new QVBoxLayout(logPage);
    m_logRank = new QComboBox;
    m_log = new QPlainTextEdit;
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(kMaxLogLines);
    m_log->setFont(QFont(QStringLiteral("Consolas"), 9));
    m_log->setLineWrapMode(QPlainTextEdit::NoWrap);
    lv->addWidget(m_logRank);
    lv->addWidget(m_log, 1);

    m_tabs = new QTabWidget;
    m_tabs->addTab(chartsPage, QString());
    m_tabs->addTab(logPage, QString());

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_table->widget());
    split->addWidget(m_tabs);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);

    auto* v = new QVBoxLayout(this);
    v->addLayout(top);
    v->addWidget(m_banner);
    v->addWidget(split, 1);

    m_timer = new QTimer(this);
    m_timer->setInterval(kRefreshMs);
    connect(m_timer, &QTimer::timeout, this, &RunPanel::refresh);
    m_timer->start();

    connect(m_start, &QPushButton::clicked, this, &RunPanel::startRequested);
    connect(m_stop, &QPushButton::clicked, this, &RunPanel::stopRequested);
    connect(m_stacks, &QPushButton::clicked, this, &RunPanel::showStacks);
    connect(m_banner, &RunFailureBanner::diagnoseClicked, this, &RunPanel::diagnoseRequested);
    connect(m_banner, &RunFailureBanner::showLogClicked, this, [this](int failedRank) {
        if (m_model) {
            const int idx = m_model->indexOfRank(failedRank);
            if (idx >= 0) selectLogRank(idx);
        }
        m_tabs->setCurrentIndex(1);
    });
    connect(m_smoothing, &QSlider::valueChanged, this, [this] {
        m_charts->markDirty(RunChartFeed::Loss);
        m_smoothingLabel->setText(tr("Loss smoothing: %1").arg(smoothing(), 0, 'f', 2));
    });
    connect(m_logRank, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_log->clear();
        if (i >= 0 && i < m_logs.slotCount()) {
            m_log->setPlainText(m_logs.text(i));
            m_logs.clearPending(i);
            m_log->verticalScrollBar()->setValue(m_log->verticalScrollBar()->maximum());
        }
    });
    connect(m_table->widget(), &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        selectLogRank(row);
        m_tabs->setCurrentIndex(1);
    });
}

} // namespace ddpdesk::ui
