#include "compare_panel.h"

#include "icons.h"
#include "launch/run/supervisor.h"
#include "launch/run/sweep_trust.h"
#include "plot/sweep_plot.h"

#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace ddpdesk::ui {

namespace {

// A size under the efficiency floor for which no cause was found, or none could be measured.
bool noCause(const launch::SweepRow& r) {
    return r.notes.contains(QLatin1String(launch::sweep_note::NoCauseFound)) ||
           r.notes.contains(QLatin1String(launch::sweep_note::NoCauseMeasurable));
}

} // namespace

ComparePanel::ComparePanel(QWidget* parent) : QWidget(parent) {
    build();
    retranslate();
}

ComparePanel::~ComparePanel() {
    if (m_runner) m_runner->stop();
}

void ComparePanel::build() {
    m_sizesLabel = new QLabel;
    m_sizes = new QLineEdit(QStringLiteral("1,2"));
    m_sizes->setMaximumWidth(220);
    m_compareLabel = new QLabel;
    m_compare = new QComboBox;
    for (const char* spec : {"", "precision=fp32,bf16", "grad-compression=none,fp16,bf16", "accumulate=1,4"})
        m_compare->addItem(QString(), QString::fromLatin1(spec));
    m_run = new QPushButton(icon(IconId::Start), QString());
    m_stop = new QPushButton(icon(IconId::Stop), QString());
    m_csv = new QPushButton;
    m_png = new QPushButton;
    auto* top = new QHBoxLayout;
    top->addWidget(m_sizesLabel);
    top->addWidget(m_sizes);
    top->addWidget(m_compareLabel);
    top->addWidget(m_compare);
    top->addWidget(m_run);
    top->addWidget(m_stop);
    top->addStretch();
    top->addWidget(m_csv);
    top->addWidget(m_png);
    m_status = new QLabel;
    m_status->setWordWrap(true);

    m_table = new QTableWidget(0, 10);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_speedup = createLineChart(this);
    m_loss = createLineChart(this);
    auto* charts = new QWidget;
    auto* ch = new QHBoxLayout(charts);
    ch->setContentsMargins(0, 0, 0, 0);
    ch->addWidget(m_speedup->widget());
    ch->addWidget(m_loss->widget());
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_table);
    split->addWidget(charts);
    split->setStretchFactor(1, 2);

    auto* v = new QVBoxLayout(this);
    v->addLayout(top);
    v->addWidget(m_status);
    v->addWidget(split, 1);

    connect(m_run, &QPushButton::clicked, this,
            [this] { startSweep(m_sizes->text(), m_compare->currentData().toString()); });
    connect(m_stop, &QPushButton::clicked, this, &ComparePanel::stopSweep);
    connect(m_csv, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getSaveFileName(this, tr("Export CSV"), QStringLiteral("sweep.csv"),
                                                       tr("CSV files (*.csv)"));
        QString err;
        if (!f.isEmpty())
            emit message(exportCsv(f, &err) ? tr("Saved %1").arg(QDir::toNativeSeparators(f)) : err);
    });
    connect(m_png, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getSaveFileName(this, tr("Export PNG"), QStringLiteral("sweep.png"),
                                                       tr("PNG images (*.png)"));
        QString err;
        if (!f.isEmpty())
            emit message(exportPng(f, &err) ? tr("Saved %1").arg(QDir::toNativeSeparators(f)) : err);
    });
    updateButtons();
}

void ComparePanel::retranslate() {
    m_sizesLabel->setText(tr("Sizes (workers, or GPU sets like 0;0,1):"));
    m_compareLabel->setText(tr("Also compare:"));
    m_compare->setItemText(0, tr("nothing else"));
    m_compare->setItemText(1, tr("precision: fp32 vs bf16"));
    m_compare->setItemText(2, tr("gradient compression: none vs fp16 vs bf16"));
    m_compare->setItemText(3, tr("accumulate steps: 1 vs 4"));
    m_compare->setToolTip(tr("Runs every size once per value of this setting, so its effect on throughput, "
                             "loss and gradient bytes shows side by side."));
    m_run->setText(tr("Run &sweep"));
    m_stop->setText(tr("Stop"));
    m_csv->setText(tr("Export CSV..."));
    m_png->setText(tr("Export PNG..."));
    m_table->setHorizontalHeaderLabels({tr("Workers"), tr("Setting"), tr("Samples/s"), tr("Speedup"),
                                        tr("Efficiency"), tr("Time to target"), tr("Final loss"),
                                        tr("Comm wait"), tr("Gradients/step"), tr("Why not faster")});
    m_speedup->setTitle(tr("Speedup vs ideal"));
    m_speedup->setAxisTitles(tr("workers"), tr("speedup"));
    m_loss->setTitle(tr("Loss vs wall time"));
    m_loss->setAxisTitles(tr("seconds"), tr("mean loss"));
    if (m_status->text().isEmpty() || !isRunning())
        m_status->setText(m_rows.isEmpty()
                              ? tr("Runs the Setup configuration once per size, one after another, and "
                                   "compares throughput. Sizes: 1,2,4 or GPU sets 0;0,1;0,1,2,3.")
                              : tr("Sweep of %n size(s).", nullptr, m_rows.size()));
    showRows(m_rows);
}

void ComparePanel::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(e);
}

bool ComparePanel::isRunning() const {
    return m_sweeping;
}

QString ComparePanel::statusText() const {
    return m_status->text();
}

void ComparePanel::updateButtons() {
    const bool running = isRunning();
    m_run->setEnabled(!running);
    m_stop->setEnabled(running);
    m_csv->setEnabled(!m_rows.isEmpty());
    m_png->setEnabled(!m_rows.isEmpty());
}

void ComparePanel::setCompare(const QString& compare) {
    const int i = m_compare->findData(compare);
    m_compare->setCurrentIndex(i < 0 ? 0 : i);
}

bool ComparePanel::startSweep(const QString& sizesText, const QString& compare) {
    if (isRunning() || !m_provider) return false;
    QString err;
    const bool gpuSets = sizesText.contains(QLatin1Char(';'));
    QVector<launch::SweepSize> sizes =
        gpuSets ? launch::parseGpuSets(sizesText, &err) : launch::parseNprocList(sizesText, &err);
    if (!sizes.isEmpty() && !compare.isEmpty()) sizes = launch::compareSetting(sizes, compare, &err);
    if (sizes.isEmpty()) {
        m_status->setText(tr("Cannot start the sweep: %1").arg(err));
        return false;
    }
    launch::RunConfig base = m_provider();
    base.outDir.replace(QStringLiteral("run-"), QStringLiteral("sweep-"));
    m_runner = std::make_unique<launch::SweepRunner>(plot::drawSweepPng);
    launch::WarmWorkers* warm = m_warmProvider ? m_warmProvider() : nullptr;
    m_runner->setWarmWorkers(warm);
    m_runner->setWarmWorkersEnabled(!m_warmProvider || warm);
    connect(m_runner.get(), &launch::SweepRunner::sizeStarted, this,
            [this, sizes](int i, launch::Supervisor* run) {
                m_status->setText(sizes[i].setting.isEmpty() ? tr("Running size %1 of %2 (%3 workers)...")
                                                                   .arg(i + 1)
                                                                   .arg(sizes.size())
                                                                   .arg(sizes[i].nproc)
                                                             : tr("Running size %1 of %2 (%3 workers, %4)...")
                                                                   .arg(i + 1)
                                                                   .arg(sizes.size())
                                                                   .arg(sizes[i].nproc)
                                                                   .arg(sizes[i].variant()));
                updateButtons();
                emit sweepStarted(run);
            });
    connect(m_runner.get(), &launch::SweepRunner::sizeFinished, this,
            [this](int, bool) { showRows(m_runner->rows()); });
    connect(m_runner.get(), &launch::SweepRunner::finished, this, [this](bool ok) {
        m_sweeping = false;
        showRows(m_runner->rows());
        m_status->setText(
            ok ? tr("Sweep finished. Results: %1").arg(QDir::toNativeSeparators(m_runner->csvPath()))
               : tr("Sweep ended with a failed size; see the table and the Run page."));
        updateButtons();
        emit sweepFinished(ok);
    });
    QVector<launch::ConfigProblem> problems;
    if (!m_runner->start(base, sizes, &problems)) {
        m_status->setText(tr("Cannot start the sweep: %1").arg(launch::RunConfig::problemsText(problems)));
        m_runner.reset();
        return false;
    }
    m_sweeping = true;
    m_rows.clear();
    showRows(m_rows);
    updateButtons();
    return true;
}

void ComparePanel::stopSweep() {
    if (m_runner) m_runner->stop();
    updateButtons();
}

void ComparePanel::showRows(const QVector<launch::SweepRow>& rows) {
    m_rows = rows;
    m_table->setRowCount(rows.size());
    auto num = [](double v, int prec) {
        return std::isfinite(v) && v >= 0 ? QString::number(v, 'f', prec) : QStringLiteral("\u2013");
    };
    for (int i = 0; i < rows.size(); ++i) {
        const launch::SweepRow& r = rows[i];
        const QStringList cells = {
            QString::number(r.size.nproc) + (r.size.devices == QLatin1String("cpu")
                                                 ? QString()
                                                 : QStringLiteral(" (GPU %1)").arg(r.size.devices)),
            r.size.setting.isEmpty() ? QStringLiteral("\u2013") : r.size.variant(),
            num(r.samplesPerS, 0),
            r.ok ? QStringLiteral("%1\u00d7").arg(r.speedup, 0, 'f', 2) : r.status,
            r.ok ? QStringLiteral("%1 %").arg(r.efficiency * 100, 0, 'f', 0) : QString(),
            r.timeToTargetS >= 0 ? tr("%1 s").arg(r.timeToTargetS, 0, 'f', 1) : QStringLiteral("\u2013"),
            std::isfinite(r.finalLoss) ? QString::number(r.finalLoss, 'g', 4) : QStringLiteral("\u2013"),
            std::isfinite(r.commWaitShare) ? QStringLiteral("%1 %").arg(r.commWaitShare * 100, 0, 'f', 1)
                                           : QStringLiteral("n/a"),
            r.bytesPerStep > 0 ? QLocale().formattedDataSize(r.bytesPerStep) : QStringLiteral("\u2013"),
            !r.scaling.isEmpty() ? r.scaling.join(QStringLiteral(", "))
            : noCause(r)         ? tr("none found")
                                 : QStringLiteral("\u2013")};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(i, c, item);
        }
        // The causes in words, with their fixes (diagnose/scaling.h), where the codes are; a size's notes
        // (run/sweep_trust.h) where its speedup is, and why no cause was found under the causes' column.
        m_table->item(i, cells.size() - 1)
            ->setToolTip(
                (r.scalingText + (noCause(r) ? r.notesText : QStringList())).join(QStringLiteral("\n\n")));
        // A size whose figures cannot be trusted: a warning sign beside its speedup, the notes as its
        // tooltip.
        if (!r.notesText.isEmpty()) {
            m_table->item(i, 3)->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
            m_table->item(i, 3)->setToolTip(r.notesText.join(QStringLiteral("\n\n")));
        }
    }
    m_speedup->removeAllSeries();
    m_loss->removeAllSeries();
    if (rows.isEmpty()) {
        updateButtons();
        return;
    }
    // One measured line per compared value; the ideal line once, over the first value's sizes.
    QStringList variants;
    for (const launch::SweepRow& r : rows)
        if (!variants.contains(r.size.variant())) variants << r.size.variant();
    QVector<QPointF> ideal;
    const double base = rows.front().size.nproc;
    for (const launch::SweepRow& r : rows)
        if (r.size.variant() == variants.front()) ideal << QPointF(r.size.nproc, r.size.nproc / base);
    m_speedup->setPoints(m_speedup->addSeries(tr("ideal"), QColor(0x80, 0x80, 0x80), true), ideal);
    for (int v = 0; v < variants.size(); ++v) {
        QVector<QPointF> measured;
        for (const launch::SweepRow& r : rows)
            if (r.ok && r.size.variant() == variants[v]) measured << QPointF(r.size.nproc, r.speedup);
        const QString name = variants[v].isEmpty() ? tr("measured") : tr("measured, %1").arg(variants[v]);
        m_speedup->setPoints(m_speedup->addSeries(name, seriesColor(v)), measured);
    }
    for (int i = 0; i < rows.size(); ++i) {
        QString name = tr("%n worker(s)", nullptr, rows[i].size.nproc);
        if (!rows[i].size.setting.isEmpty())
            name += QStringLiteral(", ") + rows[i].size.value; // legends are short
        m_loss->setPoints(m_loss->addSeries(name, seriesColor(i)), rows[i].lossVsWall);
    }
    updateButtons();
}

bool ComparePanel::exportCsv(const QString& path, QString* error) const {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Text)) {
        if (error) *error = tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), f.errorString());
        return false;
    }
    f.write(launch::sweepCsv(m_rows).toUtf8());
    if (!f.commit()) {
        if (error) *error = tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), f.errorString());
        return false;
    }
    return true;
}

bool ComparePanel::exportPng(const QString& path, QString* error) const {
    return plot::drawSweepPng(m_rows, path, error);
}

} // namespace ddpdesk::ui
