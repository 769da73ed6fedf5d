#include "history_panel.h"

#include "icons.h"

#include <QDesktopServices>
#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSet>
#include <QSplitter>
#include <QTableWidget>
#include <QUrl>
#include <QVBoxLayout>

#include <cmath>

namespace ddpdesk::ui {

namespace {
// summary.json's status word ("ok", "failed", "stopped") in the UI language.
QString statusText(const QString& status) {
    if (status == QLatin1String("ok")) return HistoryPanel::tr("ok");
    if (status == QLatin1String("failed")) return HistoryPanel::tr("failed");
    if (status == QLatin1String("stopped")) return HistoryPanel::tr("stopped");
    return status;
}

// One spelling per folder, so a run opened from outside that is also in the runs folder is listed once.
QString folderKey(const QString& folder) {
    return QDir::cleanPath(QFileInfo(folder).absoluteFilePath());
}
} // namespace

HistoryPanel::HistoryPanel(QWidget* parent) : QWidget(parent) {
    build();
    retranslate();
}

HistoryPanel::~HistoryPanel() = default;

void HistoryPanel::build() {
    m_folderLabel = new QLabel;
    m_folderLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_refresh = new QPushButton;
    m_open = new QPushButton(icon(IconId::Folder), QString());
    m_showInRun = new QPushButton(icon(IconId::Run), QString());
    m_showInRun->setEnabled(false);
    auto* top = new QHBoxLayout;
    top->addWidget(m_folderLabel, 1);
    top->addWidget(m_showInRun);
    top->addWidget(m_open);
    top->addWidget(m_refresh);

    m_table = new QTableWidget(0, 8);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setAlternatingRowColors(true);
    m_details = new QLabel;
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_chart = createLineChart(this);
    m_curves = new CurveCache(this);
    connect(m_curves, &CurveCache::ready, this, [this] { showSelection(); });
    auto* lower = new QWidget;
    auto* lv = new QVBoxLayout(lower);
    lv->setContentsMargins(0, 0, 0, 0);
    lv->addWidget(m_details);
    lv->addWidget(m_chart->widget(), 1);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_table);
    split->addWidget(lower);
    split->setStretchFactor(1, 2);

    auto* v = new QVBoxLayout(this);
    v->addLayout(top);
    v->addWidget(split, 1);

    connect(m_refresh, &QPushButton::clicked, this, &HistoryPanel::refresh);
    connect(m_open, &QPushButton::clicked, this, [this] {
        const auto rows = m_table->selectionModel()->selectedRows();
        const QString path = rows.isEmpty() ? m_folder : m_runs.value(rows.front().row()).folder;
        QDesktopServices::openUrl(QUrl::fromLocalFile(path));
    });
    connect(m_showInRun, &QPushButton::clicked, this, [this] {
        const auto rows = m_table->selectionModel()->selectedRows();
        if (rows.size() == 1 && rows.front().row() < m_runs.size())
            emit showRunRequested(m_runs[rows.front().row()].folder, m_runs[rows.front().row()].name);
    });
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &HistoryPanel::showSelection);
}

void HistoryPanel::retranslate() {
    m_folderLabel->setText(tr("Runs folder: %1").arg(QDir::toNativeSeparators(m_folder)));
    m_refresh->setText(tr("&Refresh"));
    m_open->setText(tr("Open folder"));
    m_showInRun->setText(tr("Show in Run page"));
    m_table->setHorizontalHeaderLabels({tr("Run"), tr("Finished"), tr("Status"), tr("Workload"),
                                        tr("World size"), tr("Steps"), tr("Samples/s"), tr("Final loss")});
    m_chart->setTitle(tr("Loss vs wall time"));
    m_chart->setAxisTitles(tr("seconds"), tr("loss"));
    showSelection();
}

void HistoryPanel::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(e);
}

void HistoryPanel::setRunsFolder(const QString& folder) {
    m_folder = folder;
    m_folderLabel->setText(tr("Runs folder: %1").arg(QDir::toNativeSeparators(m_folder)));
    refresh();
}

void HistoryPanel::refresh() {
    m_runs = scanRuns(m_folder);
    QSet<QString> listed;
    for (const RunRecord& r : std::as_const(m_runs))
        listed.insert(folderKey(r.folder));
    for (const QString& folder : std::as_const(m_opened))
        for (const RunRecord& r : launch::recordedRunsAt(folder, nullptr))
            if (!listed.contains(folderKey(r.folder))) {
                listed.insert(folderKey(r.folder));
                m_runs << r;
            }
    std::stable_sort(m_runs.begin(), m_runs.end(),
                     [](const RunRecord& a, const RunRecord& b) { return a.finishedAt > b.finishedAt; });
    m_table->setRowCount(m_runs.size());
    for (int i = 0; i < m_runs.size(); ++i) {
        const RunRecord& r = m_runs[i];
        const launch::RunSummary& s = r.summary;
        const QStringList cells = {r.name,
                                   QLocale().toString(r.finishedAt, QLocale::ShortFormat),
                                   statusText(r.status()),
                                   s.workload,
                                   QString::number(s.worldSize),
                                   QString::number(s.steps),
                                   s.samplesPerS > 0 ? QString::number(s.samplesPerS, 'f', 0) : tr("n/a"),
                                   std::isfinite(s.finalLoss) ? QString::number(s.finalLoss, 'g', 4)
                                                              : QStringLiteral("\u2013")};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c == 2)
                item->setIcon(r.status() == QLatin1String("ok")       ? icon(IconId::Ok)
                              : r.status() == QLatin1String("failed") ? icon(IconId::Error)
                                                                      : icon(IconId::Warning));
            if (c == 0) item->setToolTip(QDir::toNativeSeparators(r.folder)); // where it is kept
            m_table->setItem(i, c, item);
        }
    }
    showSelection();
}

bool HistoryPanel::openRun(const QString& folder, QString* error) {
    QString why;
    const QVector<RunRecord> found = launch::recordedRunsAt(folder, &why);
    if (found.isEmpty()) {
        selectRuns({});
        m_details->setText(tr("Cannot open this folder in History: %1").arg(why).toHtmlEscaped());
        if (error) *error = why;
        return false;
    }
    if (!m_opened.contains(folderKey(folder))) m_opened << folderKey(folder);
    refresh();
    QSet<QString> wanted;
    for (const RunRecord& r : found)
        wanted.insert(folderKey(r.folder));
    QVector<int> rows;
    for (int i = 0; i < m_runs.size(); ++i)
        if (wanted.contains(folderKey(m_runs[i].folder))) rows << i;
    // One run: selected, ready for "Show in Run page"; a sweep's sizes: all of them, compared on one chart.
    selectRuns(rows);
    if (!rows.isEmpty()) m_table->scrollToItem(m_table->item(rows.front(), 0));
    return true;
}

void HistoryPanel::selectRuns(const QVector<int>& rows) {
    m_table->clearSelection();
    for (int r : rows)
        if (r >= 0 && r < m_table->rowCount())
            m_table->selectionModel()->select(m_table->model()->index(r, 0),
                                              QItemSelectionModel::Select | QItemSelectionModel::Rows);
    showSelection();
}

QString HistoryPanel::detailsText() const {
    return m_details->text();
}

void HistoryPanel::showSelection() {
    m_chart->removeAllSeries();
    m_reading = false;
    QVector<int> rows;
    if (m_table->selectionModel())
        for (const QModelIndex& i : m_table->selectionModel()->selectedRows())
            rows << i.row();
    std::sort(rows.begin(), rows.end());
    m_showInRun->setEnabled(rows.size() == 1);
    if (rows.isEmpty()) {
        m_details->setText(m_runs.isEmpty()
                               ? tr("No finished runs yet. Runs started from this app are kept here.")
                               : tr("Select a run to reopen it, or several to compare them."));
        return;
    }
    if (rows.size() == 1) {
        // One run: every rank's loss, like the Run page showed it.
        const RunRecord& r = m_runs[rows.front()];
        const launch::RunSummary& s = r.summary;
        QString text = tr("<b>%1</b>: %2, world size %3, %4 steps in %5 s, %6 samples/s.")
                           .arg(r.name.toHtmlEscaped(), statusText(r.status()))
                           .arg(s.worldSize)
                           .arg(s.steps)
                           .arg(s.wallS, 0, 'f', 1)
                           .arg(s.samplesPerS > 0 ? QString::number(s.samplesPerS, 'f', 0) : tr("n/a"));
        if (s.failedRank >= 0)
            text += QStringLiteral(" ") +
                    tr("Rank %1 failed: %2").arg(s.failedRank).arg(s.failureReason.toHtmlEscaped());
        const std::optional<RunCurves> c = m_curves->curves(r.folder);
        m_reading = !c;
        if (!c) text += QStringLiteral(" ") + tr("Reading the recording...");
        m_details->setText(text);
        if (!c) return; // drawn when CurveCache::ready arrives
        for (int i = 0; i < c->ranks.size(); ++i)
            m_chart->setPoints(m_chart->addSeries(tr("rank %1").arg(c->ranks[i]), seriesColor(i)),
                               c->lossByRank[i]);
        if (c->ranks.size() > 1)
            m_chart->setPoints(m_chart->addSeries(tr("mean"), QColor(0x20, 0x20, 0x20)), c->meanLoss);
        return;
    }
    // Several runs: their mean loss on one time axis.
    QString text = tr("Comparing %n run(s): mean loss over ranks against wall time.", nullptr, rows.size());
    int color = 0, reading = 0;
    for (int row : rows) {
        const RunRecord& r = m_runs[row];
        const std::optional<RunCurves> c = m_curves->curves(r.folder);
        const int thisColor = color++; // a run keeps its colour while the others are still being read
        if (!c) {
            ++reading;
            continue;
        }
        const QString name = tr("%1 (%2 ranks)").arg(r.name).arg(r.summary.worldSize);
        m_chart->setPoints(m_chart->addSeries(name, seriesColor(thisColor)), c->meanLoss);
    }
    m_reading = reading > 0;
    if (reading > 0) text += QStringLiteral(" ") + tr("Reading %n recording(s)...", nullptr, reading);
    m_details->setText(text);
}

} // namespace ddpdesk::ui
