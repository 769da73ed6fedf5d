// layOutRunPanel(): the Run page's widgets and where they sit (run_panel.cpp wires them and renders a
// RunModel into them).

#include "run_panel_layout.h"

#include "icons.h"
#include "run_chart_feed.h"
#include "run_failure_banner.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

namespace ddpdesk::ui {

RunPanelWidgets layOutRunPanel(QWidget& panel, QWidget* nodeTable, QWidget* rankTable,
                               const RunChartFeed& charts, int maxLogLines) {
    RunPanelWidgets w;
    w.start = new QPushButton(icon(IconId::Start), QString());
    w.stop = new QPushButton(icon(IconId::Stop), QString());
    w.stop->setEnabled(false);
    w.stacks = new QPushButton;
    w.stacks->setEnabled(false);
    w.status = new QLabel;
    w.status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    w.progress = new QProgressBar;
    w.progress->setRange(0, 1000);
    w.progress->setMinimumWidth(260);
    w.progress->setAlignment(Qt::AlignCenter); // the percentage and ETA inside the bar, not beside it
    auto* top = new QHBoxLayout;
    top->addWidget(w.start);
    top->addWidget(w.stop);
    top->addWidget(w.stacks);
    top->addWidget(w.status, 1);
    top->addWidget(w.progress);

    w.banner = new RunFailureBanner;
    w.smoothing = new QSlider(Qt::Horizontal);
    w.smoothing->setRange(0, 99);
    w.smoothing->setValue(60);
    w.smoothing->setMaximumWidth(200);
    w.smoothingLabel = new QLabel;
    auto* chartsPage = new QWidget;
    auto* grid = new QGridLayout(chartsPage);
    auto* smoothRow = new QHBoxLayout;
    smoothRow->addWidget(w.smoothingLabel);
    smoothRow->addWidget(w.smoothing);
    smoothRow->addStretch();
    grid->addLayout(smoothRow, 0, 0, 1, 2);
    grid->addWidget(charts.widget(RunChartFeed::Loss), 1, 0);
    grid->addWidget(charts.widget(RunChartFeed::Throughput), 1, 1);
    grid->addWidget(charts.widget(RunChartFeed::Utilization), 2, 0);
    grid->addWidget(charts.widget(RunChartFeed::Memory), 2, 1);

    auto* logPage = new QWidget;
    auto* lv = new QVBoxLayout(logPage);
    w.logRank = new QComboBox;
    w.log = new QPlainTextEdit;
    w.log->setReadOnly(true);
    w.log->setMaximumBlockCount(maxLogLines);
    w.log->setFont(QFont(QStringLiteral("Consolas"), 9));
    w.log->setLineWrapMode(QPlainTextEdit::NoWrap);
    lv->addWidget(w.logRank);
    lv->addWidget(w.log, 1);

    w.tabs = new QTabWidget;
    w.tabs->addTab(chartsPage, QString());
    w.tabs->addTab(logPage, QString());

    // A multi-node run's nodes above its ranks, together in the splitter's top part.
    auto* tables = new QWidget;
    auto* tv = new QVBoxLayout(tables);
    tv->setContentsMargins(0, 0, 0, 0);
    tv->addWidget(nodeTable);
    tv->addWidget(rankTable, 1);
    auto* split = new QSplitter(Qt::Vertical);
    w.split = split;
    split->addWidget(tables);
    split->addWidget(w.tabs);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);

    auto* v = new QVBoxLayout(&panel);
    v->addLayout(top);
    v->addWidget(w.banner);
    v->addWidget(split, 1);
    return w;
}

} // namespace ddpdesk::ui
