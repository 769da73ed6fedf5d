// The Run page's widgets and wiring (run_panel.cpp holds how a RunModel is rendered into them).

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

void RunPanel::build()
{
    m_start = new QPushButton(icon(IconId::Start), QString());
    m_stop = new QPushButton(icon(IconId::Stop), QString());
    m_stop->setEnabled(false);
    m_status = new QLabel;
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress = new QProgressBar;
    m_progress->setRange(0, 1000);
    m_progress->setMinimumWidth(260);
    m_progress->setAlignment(Qt::AlignCenter); // the percentage and ETA inside the bar, not beside it
    auto* top = new QHBoxLayout;
    top->addWidget(m_start);
    top->addWidget(m_stop);
    top->addWidget(m_status, 1);
    top->addWidget(m_progress);

    m_banner = new QFrame;
    m_banner->setObjectName(QStringLiteral("failureBanner"));
    m_banner->setStyleSheet(QStringLiteral("#failureBanner { background: #fde7e9; border: 1px solid #c42b1c;"
                                           " border-radius: 4px; } QLabel { color: #5c0f08; }"));
    auto* bannerIcon = new QLabel;
    bannerIcon->setPixmap(icon(IconId::Error).pixmap(32, 32));
    m_bannerText = new QLabel;
    m_bannerText->setWordWrap(true);
    m_bannerText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_diagnose = new QPushButton(icon(IconId::Doctor), QString());
    m_showLog = new QPushButton;
    auto* bh = new QHBoxLayout(m_banner);
    bh->addWidget(bannerIcon, 0, Qt::AlignTop);
    bh->addWidget(m_bannerText, 1);
    bh->addWidget(m_showLog, 0, Qt::AlignTop);
    bh->addWidget(m_diagnose, 0, Qt::AlignTop);
    m_banner->hide();

    m_table = new QTableWidget(0, ColCount);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    // "killed by signal 15 (SIGTERM) (stopped by the launcher)" must be readable, not elided.
    m_table->horizontalHeader()->setSectionResizeMode(ColExit, QHeaderView::ResizeToContents);
    m_table->setAlternatingRowColors(true);

    m_lossChart = createLineChart(this);
    m_rateChart = createLineChart(this);
    m_utilChart = createLineChart(this);
    m_memChart = createLineChart(this);
    m_utilChart->setYRange(0, 100);
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
    grid->addWidget(m_lossChart->widget(), 1, 0);
    grid->addWidget(m_rateChart->widget(), 1, 1);
    grid->addWidget(m_utilChart->widget(), 2, 0);
    grid->addWidget(m_memChart->widget(), 2, 1);

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
    split->addWidget(m_table);
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
    connect(m_diagnose, &QPushButton::clicked, this, [this] { emit diagnoseRequested(m_failedRank); });
    connect(m_showLog, &QPushButton::clicked, this, [this] {
        if (m_model) {
            const int idx = m_model->indexOfRank(m_failedRank);
            if (idx >= 0)
                selectLogRank(idx);
        }
        m_tabs->setCurrentIndex(1);
    });
    connect(m_smoothing, &QSlider::valueChanged, this, [this] {
        m_dirtyChart[0] = true;
        m_smoothingLabel->setText(tr("Loss smoothing: %1").arg(m_smoothing->value() / 100.0, 0, 'f', 2));
    });
    connect(m_logRank, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_log->clear();
        if (i >= 0 && i < m_logs.size()) {
            m_log->setPlainText(m_logs[i].join(QLatin1Char('\n')));
            m_pending[i].clear();
            m_log->verticalScrollBar()->setValue(m_log->verticalScrollBar()->maximum());
        }
    });
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        selectLogRank(row);
        m_tabs->setCurrentIndex(1);
    });
}

} // namespace ddpdesk::ui
