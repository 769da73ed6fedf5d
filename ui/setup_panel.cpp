#include "setup_panel.h"

#include "icons.h"
#include "launch/config/command_format.h"
#include "launch/config/launcher_flags.h"
#include "protocol/store_spec.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace ddpdesk::ui {

SetupPanel::SetupPanel(QWidget* parent) : QWidget(parent), m_ui(layOutSetupPanel(*this)) {
    m_validateTimer = new QTimer(this);
    m_validateTimer->setSingleShot(true);
    m_validateTimer->setInterval(150); // validate() touches the file system; coalesce keystrokes
    connect(m_validateTimer, &QTimer::timeout, this, &SetupPanel::revalidate);
    onEveryEdit(m_ui, this, [this] {
        updateEnabled();
        m_validateTimer->start();
        emit configChanged();
    });
    connectButtons();
    updateEnabled();
    retranslate();
    setRunsFolder(QDir::homePath());
    revalidate();
}

void SetupPanel::retranslate() {
    m_ui.workloadBox->setTitle(tr("Workload"));
    m_ui.workload->setItemText(0, tr("Autoencoder (synthetic data)"));
    m_ui.workload->setItemText(1, tr("Fashion-MNIST classifier"));
    m_ui.workload->setItemText(2, tr("TorchScript model file"));
    m_ui.workload->setItemText(3, tr("Your own script (torchrun environment)"));
    auto label = [](QFormLayout* f, int row, const QString& text) {
        if (auto* item = f->itemAt(row, QFormLayout::LabelRole)) {
            static_cast<QLabel*>(item->widget())->setText(text);
            return;
        }
        auto* l = new QLabel(text);
        // A buddy turns "&Batch size:" into an Alt+B mnemonic instead of a literal ampersand.
        if (auto* field = f->itemAt(row, QFormLayout::FieldRole)) l->setBuddy(field->widget());
        f->setWidget(row, QFormLayout::LabelRole, l);
    };
    label(m_ui.workloadForm, 0, tr("&Workload:"));
    label(m_ui.workloadForm, 1, tr("Model file:"));
    label(m_ui.workloadForm, 2, tr("Script:"));
    label(m_ui.workloadForm, 3, tr("Script arguments:"));
    label(m_ui.workloadForm, 4, tr("Working folder:"));
    label(m_ui.workloadForm, 5, tr("Data folder:"));
    m_ui.workDir->setPlaceholderText(tr("the script's folder"));
    m_ui.workDir->setToolTip(
        tr("Where the script's ranks run, as torchrun runs them where it was started: files the "
           "script opens by relative path are read and written here."));
    m_ui.dataDir->setPlaceholderText(tr("default (built-in dataset location)"));
    m_ui.scriptArgs->setPlaceholderText(tr("--epochs 3 --lr 0.01"));
    m_ui.devicesBox->setTitle(tr("Devices"));
    m_ui.useCpu->setText(tr("CPU workers"));
    m_ui.useGpu->setText(tr("GPUs"));
    label(m_ui.devicesForm, 0, tr("Run on:"));
    label(m_ui.devicesForm, 1, tr("&Processes per node:"));
    label(m_ui.devicesForm, 2, tr("GPUs:"));
    label(m_ui.devicesForm, 3, QString());
    label(m_ui.devicesForm, 4, tr("Nodes:"));
    label(m_ui.devicesForm, 5, tr("Node rank:"));
    label(m_ui.devicesForm, 6, tr("Run secret:"));
    label(m_ui.devicesForm, 7, QString());
    label(m_ui.devicesForm, 8, tr("Backend:"));
    m_ui.nodeLink->setText(tr("Every node's ranks on node 0 (node link)"));
    m_ui.nodeLink->setToolTip(tr(
        "The other nodes' launchers send their ranks' progress to node 0's, which shows, records and stops "
        "them all: over node 0's port next to a TCPStore (the store's port + 1), or through a folder next to "
        "a FileStore on a shared folder. Only launchers that know the run secret are heard."));
    m_ui.runSecret->setPlaceholderText(tr("node 0's run secret (in the run-secret file node 0's log names)"));
    m_ui.runSecret->setToolTip(
        tr("Node 0 makes a secret for each multi-node run, saves it in a file only you can read and "
           "shows the command for the other nodes in its log. Ranks that cannot prove they know it are "
           "refused."));
    m_ui.storeBox->setTitle(tr("Rendezvous store"));
    m_ui.fileStore->setText(tr("FileStore (file or shared folder)"));
    m_ui.tcpStore->setText(tr("TCPStore (host:port)"));
    label(m_ui.storeForm, 0, tr("Store:"));
    label(m_ui.storeForm, 1, tr("Store file:"));
    label(m_ui.storeForm, 2, tr("Master host:"));
    label(m_ui.storeForm, 3, tr("Port:"));
    m_ui.storePath->setPlaceholderText(tr("default: a fresh file inside the run folder"));
    m_ui.trainBox->setTitle(tr("Training"));
    m_ui.lengthKind->setItemText(0, tr("steps"));
    m_ui.lengthKind->setItemText(1, tr("epochs"));
    label(m_ui.trainForm, 0, tr("Length:"));
    label(m_ui.trainForm, 1, tr("&Batch size:"));
    label(m_ui.trainForm, 2, tr("Accumulate steps:"));
    label(m_ui.trainForm, 3, tr("Precision:"));
    label(m_ui.trainForm, 4, tr("Gradient compression:"));
    label(m_ui.trainForm, 5, tr("&Learning rate:"));
    label(m_ui.trainForm, 6, tr("Checkpoint every (steps):"));
    label(m_ui.trainForm, 7, QString());
    label(m_ui.trainForm, 8, QString());
    label(m_ui.trainForm, 9, tr("Max restarts:"));
    label(m_ui.trainForm, 10, tr("Runs folder:"));
    m_ui.precision->setItemText(0, tr("fp32"));
    m_ui.precision->setItemText(1, tr("bf16 mixed precision"));
    m_ui.precision->setItemText(2, tr("fp16 mixed precision (CUDA only)"));
    m_ui.precision->setToolTip(
        tr("Autocast for the forward pass and the loss, as torch.autocast does; weights and optimizer state "
           "stay fp32. fp16 needs a GPU and adds dynamic loss scaling; bf16 also runs on the CPU."));
    m_ui.compression->setItemText(0, tr("none (fp32)"));
    m_ui.compression->setItemText(1, tr("fp16 (half the bytes)"));
    m_ui.compression->setItemText(2, tr("bf16 (half the bytes)"));
    m_ui.compression->setToolTip(
        tr("Gradient buckets travel in 16 bits and are cast back after the exchange, as PyTorch's "
           "compression hooks do: half the traffic between ranks, every rank still identical."));
    m_ui.accumulate->setSpecialValueText(tr("off"));
    m_ui.accumulate->setToolTip(
        tr("Micro-batches of the batch size per optimizer step: gradients add up and are exchanged once per "
           "step (DDP's no_sync), so a step sees this many times the batch at the memory cost of one."));
    m_ui.checkpointEvery->setSpecialValueText(tr("never"));
    m_ui.batch->setSpecialValueText(tr("default"));
    m_ui.lr->setSpecialValueText(tr("default"));
    m_ui.resume->setText(tr("Resume from the last checkpoint"));
    m_ui.tensorboard->setText(tr("Write TensorBoard files"));
    m_ui.tensorboard->setToolTip(tr(
        "Scalars for TensorBoard in the run folder's tensorboard/ subfolder; point TensorBoard at the runs "
        "folder to compare runs."));
    for (QPushButton* b : {m_ui.modelBrowse, m_ui.scriptBrowse, m_ui.workDirBrowse, m_ui.dataBrowse,
                           m_ui.storeBrowse, m_ui.runsBrowse})
        b->setToolTip(tr("Browse..."));
    m_ui.start->setText(tr("&Start"));
    m_ui.start->setToolTip(tr("Start the run (F5)"));
    m_ui.demo->setText(tr("Run &demo"));
    m_ui.demo->setToolTip(tr("Fashion-MNIST on every GPU, or on 2 CPU workers when there is none"));
    m_ui.copyAs->setText(tr("Copy as command"));
    QMenu* menu = m_ui.copyAs->menu();
    menu->clear();
    const QList<QPair<QString, QString>> formats = {
        {QStringLiteral("torchrun"), tr("Copy as torchrun command")},
        {QStringLiteral("mpirun"), tr("Copy as mpirun command")},
        {QStringLiteral("slurm"), tr("Copy as Slurm script")},
        {QStringLiteral("hpcpack"), tr("Copy as HPC Pack command")}};
    for (const auto& f : formats) {
        const QString name = f.first;
        menu->addAction(f.second, this, [this, name] { copyCommand(name); });
    }
    m_ui.saveProfile->setText(tr("Save profile..."));
    m_ui.loadProfile->setText(tr("Load profile..."));
    m_ui.gpuNote->setText(m_ui.gpuList->count() ? QString()
                                                : tr("No NVIDIA GPU detected: the run uses CPU workers."));
    revalidate();
}

void SetupPanel::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(e);
}

void SetupPanel::updateEnabled() {
    const QString w = m_ui.workload->currentData().toString();
    m_ui.modelFile->setEnabled(w == QLatin1String("torchscript"));
    m_ui.modelBrowse->setEnabled(m_ui.modelFile->isEnabled());
    const bool script = w == QLatin1String(kScriptWorkload);
    m_ui.scriptFile->setEnabled(script);
    m_ui.scriptBrowse->setEnabled(script);
    m_ui.scriptArgs->setEnabled(script);
    m_ui.workDir->setEnabled(script);
    m_ui.workDirBrowse->setEnabled(script);
    for (QWidget* workerOnly :
         std::initializer_list<QWidget*>{m_ui.batch, m_ui.accumulate, m_ui.precision, m_ui.compression,
                                         m_ui.lr, m_ui.checkpointEvery, m_ui.resume})
        workerOnly->setEnabled(!script);
    m_ui.useGpu->setEnabled(m_ui.gpuList->count() > 0);
    const bool gpu = m_ui.useGpu->isChecked() && m_ui.useGpu->isEnabled();
    m_ui.nproc->setEnabled(!gpu);
    m_ui.gpuList->setEnabled(gpu);
    m_ui.runSecret->setEnabled(m_ui.nnodes->value() > 1 && m_ui.nodeRank->value() > 0);
    m_ui.nodeLink->setEnabled(m_ui.nnodes->value() > 1);
    const bool tcp = m_ui.tcpStore->isChecked();
    m_ui.storePath->setEnabled(!tcp);
    m_ui.storeBrowse->setEnabled(!tcp);
    m_ui.tcpHost->setEnabled(tcp);
    m_ui.tcpPort->setEnabled(tcp);
    m_ui.start->setEnabled(canStart());
}

launch::RunConfig SetupPanel::config() const {
    launch::RunConfig c;
    const QString w = m_ui.workload->currentData().toString();
    if (w == QLatin1String(kScriptWorkload)) {
        c.scriptFile = m_ui.scriptFile->text().trimmed();
        c.scriptArgs = QProcess::splitCommand(m_ui.scriptArgs->text());
        if (c.scriptFile.isEmpty())
            c.scriptFile = QStringLiteral(" "); // still script mode, so validate() names the missing script
        c.workDir = m_ui.workDir->text().trimmed();
        if (c.workDir.isEmpty() && !c.scriptFile.trimmed().isEmpty())
            c.workDir = QFileInfo(c.scriptFile).absolutePath(); // a sibling import and relative files work
    } else {
        c.workload = w;
    }
    c.modelFile = m_ui.modelFile->isEnabled() ? m_ui.modelFile->text().trimmed() : QString();
    c.dataDir = m_ui.dataDir->text().trimmed();
    if (m_ui.useGpu->isChecked() && m_ui.useGpu->isEnabled()) {
        QStringList ids;
        for (int i = 0; i < m_ui.gpuList->count(); ++i)
            if (m_ui.gpuList->item(i)->checkState() == Qt::Checked)
                ids << m_ui.gpuList->item(i)->data(Qt::UserRole).toString();
        c.devices = ids.isEmpty() ? QStringLiteral("") : ids.join(QLatin1Char(','));
        c.nproc = ids.size();
    } else {
        c.devices = QStringLiteral("cpu");
        c.nproc = m_ui.nproc->value();
    }
    c.nnodes = m_ui.nnodes->value();
    c.nodeRank = m_ui.nodeRank->value();
    if (m_ui.runSecret->isEnabled()) c.runSecret = m_ui.runSecret->text().trimmed();
    c.nodeLink = m_ui.nodeLink->isChecked();
    if (m_ui.tcpStore->isChecked())
        // protocol's one builder: an IPv6 host gets its brackets (tcp://[::1]:29500).
        c.store = QString::fromStdString(
            protocol::tcpStoreSpec(m_ui.tcpHost->text().trimmed().toStdString(), m_ui.tcpPort->value()));
    else if (!m_ui.storePath->text().trimmed().isEmpty())
        c.store = QStringLiteral("file:") + m_ui.storePath->text().trimmed();
    protocol::WorkerSettings& t = c.training;
    if (m_ui.lengthKind->currentData().toString() == QLatin1String("epochs"))
        t.epochs = m_ui.length->value();
    else
        t.steps = m_ui.length->value();
    // 0 in these boxes reads "the workload's default": nothing is passed on. A script trains as it is
    // written: the worker's settings would change nothing there (RunConfig::validate refuses them), so they
    // stay unset.
    if (!c.isScript()) {
        if (m_ui.batch->value() > 0) t.batchSize = m_ui.batch->value();
        t.accumulate = m_ui.accumulate->value();
        t.precision = m_ui.precision->currentData().toString().toStdString();
        t.gradCompression = m_ui.compression->currentData().toString().toStdString();
        if (m_ui.lr->value() > 0) t.lr = m_ui.lr->value();
        t.checkpointEvery = m_ui.checkpointEvery->value();
        t.resume = m_ui.resume->isChecked();
    }
    c.tensorboard = m_ui.tensorboard->isChecked();
    c.maxRestarts = m_ui.maxRestarts->value();
    const QString runs = runsFolder();
    if (!runs.isEmpty())
        c.outDir = QDir(runs).filePath(QStringLiteral("run-") + QDateTime::currentDateTime().toString(
                                                                    QStringLiteral("yyyyMMdd-HHmmss")));
    return c;
}

void SetupPanel::setConfig(const launch::RunConfig& c) {
    const QSignalBlocker block(this);
    const QString w = c.isScript() ? QString::fromLatin1(kScriptWorkload) : c.workload;
    const int wi = m_ui.workload->findData(w);
    m_ui.workload->setCurrentIndex(wi < 0 ? 0 : wi);
    m_ui.modelFile->setText(c.modelFile);
    m_ui.scriptFile->setText(c.scriptFile.trimmed());
    m_ui.scriptArgs->setText(c.scriptArgs.join(QLatin1Char(' ')));
    // The script's own folder is the default; only another folder is shown.
    m_ui.workDir->setText(c.workDir == QFileInfo(c.scriptFile.trimmed()).absolutePath() ? QString()
                                                                                        : c.workDir);
    m_ui.dataDir->setText(c.dataDir);
    m_wantedGpus = m_ui.gpuList->count() == 0 && c.usesGpus() ? c.gpuList() : QVector<int>();
    if (c.usesGpus() && m_ui.gpuList->count() > 0) {
        m_ui.useGpu->setChecked(true);
        const QVector<int> ids = c.gpuList();
        for (int i = 0; i < m_ui.gpuList->count(); ++i)
            m_ui.gpuList->item(i)->setCheckState(
                ids.contains(m_ui.gpuList->item(i)->data(Qt::UserRole).toInt()) ? Qt::Checked
                                                                                : Qt::Unchecked);
    } else {
        m_ui.useCpu->setChecked(true);
        m_ui.nproc->setValue(c.nproc);
    }
    m_ui.nnodes->setValue(c.nnodes);
    m_ui.nodeRank->setValue(c.nodeRank);
    m_ui.nodeLink->setChecked(c.nodeLink);
    if (c.storeIsTcp()) {
        m_ui.tcpStore->setChecked(true);
        m_ui.tcpHost->setText(c.storeHost());
        m_ui.tcpPort->setValue(c.storePort());
    } else {
        m_ui.fileStore->setChecked(true);
        m_ui.storePath->setText(c.store.isEmpty() ? QString() : c.storeFilePath());
    }
    const protocol::WorkerSettings& t = c.training;
    const bool byEpochs = t.epochs && !t.steps;
    m_ui.lengthKind->setCurrentIndex(byEpochs ? 1 : 0);
    m_ui.length->setValue(int(byEpochs ? *t.epochs : t.steps.value_or(m_ui.length->value())));
    m_ui.batch->setValue(int(t.batchSize.value_or(0)));
    m_ui.accumulate->setValue(int(t.accumulate));
    const int pi = m_ui.precision->findData(QString::fromStdString(t.precision));
    m_ui.precision->setCurrentIndex(pi < 0 ? 0 : pi);
    const int ci = m_ui.compression->findData(QString::fromStdString(t.gradCompression));
    m_ui.compression->setCurrentIndex(ci < 0 ? 0 : ci);
    m_ui.lr->setValue(t.lr.value_or(0.0));
    m_ui.checkpointEvery->setValue(int(t.checkpointEvery));
    m_ui.resume->setChecked(t.resume);
    m_ui.tensorboard->setChecked(c.tensorboard);
    m_ui.maxRestarts->setValue(c.maxRestarts);
    updateEnabled();
    revalidate();
}

QString SetupPanel::runsFolder() const {
    return m_ui.runsFolder->text().trimmed();
}

void SetupPanel::setRunsFolder(const QString& folder) {
    m_ui.runsFolder->setText(QDir::toNativeSeparators(folder));
}

void SetupPanel::setGpus(const QVector<GpuChoice>& gpus) {
    const QSignalBlocker block(m_ui.gpuList);
    QHash<int, Qt::CheckState> ticks;
    for (int i = 0; i < m_ui.gpuList->count(); ++i)
        ticks[m_ui.gpuList->item(i)->data(Qt::UserRole).toInt()] = m_ui.gpuList->item(i)->checkState();
    const bool first = m_ui.gpuList->count() == 0;
    m_ui.gpuList->clear();
    for (const GpuChoice& g : gpus) {
        QString text = tr("GPU %1: %2").arg(g.index).arg(g.name);
        if (g.utilPercent >= 0) text += tr("  \u2014 %1% busy").arg(g.utilPercent, 0, 'f', 0);
        if (g.memTotalMiB > 0)
            text += tr(", %1 / %2 MiB").arg(g.memUsedMiB, 0, 'f', 0).arg(g.memTotalMiB, 0, 'f', 0);
        auto* item = new QListWidgetItem(text, m_ui.gpuList);
        item->setData(Qt::UserRole, g.index);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        const bool wanted = m_wantedGpus.isEmpty() || m_wantedGpus.contains(g.index);
        item->setCheckState(ticks.value(g.index, wanted ? Qt::Checked : Qt::Unchecked));
    }
    if (first && !gpus.isEmpty()) {
        m_ui.useGpu->setChecked(true);
        m_wantedGpus.clear();
    }
    m_ui.gpuNote->setText(gpus.isEmpty() ? tr("No NVIDIA GPU detected: the run uses CPU workers.")
                                         : QString());
    // An empty GPU checklist is only noise; the note says why there is none.
    m_ui.devicesForm->setRowVisible(m_ui.gpuList, !gpus.isEmpty());
    m_ui.devicesForm->setRowVisible(m_ui.gpuNote, gpus.isEmpty());
    updateEnabled();
    m_validateTimer->start();
}

QVector<int> SetupPanel::gpuIndices() const {
    QVector<int> out;
    for (int i = 0; i < m_ui.gpuList->count(); ++i)
        out << m_ui.gpuList->item(i)->data(Qt::UserRole).toInt();
    return out;
}

void SetupPanel::setTcpPort(int port) {
    m_ui.tcpStore->setChecked(true);
    m_ui.tcpPort->setValue(port);
    revalidate();
}

void SetupPanel::setRunning(bool running) {
    m_running = running;
    updateEnabled();
    revalidate();
}

QString SetupPanel::problemText() const {
    return m_ui.reason->text();
}

void SetupPanel::revalidate() {
    const launch::RunConfig c = config();
    m_problems = c.validate();
    const int iconSize = style()->pixelMetric(QStyle::PM_SmallIconSize);
    if (m_running) {
        m_ui.reasonIcon->setPixmap(icon(IconId::Info).pixmap(iconSize, iconSize));
        m_ui.reason->setText(tr("A run is in progress. Stop it on the Run page to start another."));
    } else if (m_problems.isEmpty()) {
        m_ui.reasonIcon->setPixmap(icon(IconId::Ok).pixmap(iconSize, iconSize));
        m_ui.reason->setText(tr("Ready: %n worker(s), world size %1, store %2.", nullptr, c.nproc)
                                 .arg(c.worldSize())
                                 .arg(c.store.isEmpty() ? tr("FileStore in the run folder") : c.store));
    } else {
        m_ui.reasonIcon->setPixmap(icon(IconId::Error).pixmap(iconSize, iconSize));
        QStringList lines;
        for (const auto& p : m_problems)
            lines << (p.field.isEmpty() ? p.message : QStringLiteral("--%1: %2").arg(p.field, p.message));
        m_ui.reason->setText(tr("Cannot start yet: %1").arg(lines.join(QStringLiteral("; "))));
    }
    markProblemFields();
    m_ui.start->setEnabled(canStart());
    m_ui.start->setToolTip(canStart() ? tr("Start the run (F5)") : m_ui.reason->text());
}

// The form's widget for each flag a problem may name. The names come from the flag tables (launcher_flags.h,
// protocol/worker_settings.h) through the field each widget edits, so a renamed flag keeps its tint; the TCP
// port and the run secret have no row of their own.
QHash<QString, QWidget*> SetupPanel::problemFieldWidgets() const {
    const launch::RunConfig probe;
    const protocol::WorkerSettings& t = probe.training;
    const QHash<const void*, QWidget*> editors = {{&probe.nproc, m_ui.nproc},
                                                  {&probe.devices, m_ui.gpuList},
                                                  {&probe.nnodes, m_ui.nnodes},
                                                  {&probe.nodeRank, m_ui.nodeRank},
                                                  {&probe.store, m_ui.storePath},
                                                  {&probe.modelFile, m_ui.modelFile},
                                                  {&probe.scriptFile, m_ui.scriptFile},
                                                  {&probe.dataDir, m_ui.dataDir},
                                                  {&probe.outDir, m_ui.runsFolder},
                                                  {&probe.maxRestarts, m_ui.maxRestarts},
                                                  {&probe.workDir, m_ui.workDir},
                                                  {&t.steps, m_ui.length},
                                                  {&t.epochs, m_ui.length},
                                                  {&t.batchSize, m_ui.batch},
                                                  {&t.accumulate, m_ui.accumulate},
                                                  {&t.precision, m_ui.precision},
                                                  {&t.gradCompression, m_ui.compression},
                                                  {&t.lr, m_ui.lr},
                                                  {&t.checkpointEvery, m_ui.checkpointEvery}};
    QHash<QString, QWidget*> widgets{{QStringLiteral("port"), m_ui.tcpPort},
                                     {QStringLiteral("run-secret"), m_ui.runSecret}};
    launch::visitLauncherFlags(probe, [&](const launch::LauncherFlag& f, const auto& field) {
        if (QWidget* w = editors.value(&field)) widgets.insert(QString::fromLatin1(f.flag + 2), w);
    });
    protocol::visitSettings(t, [&](const protocol::SettingInfo& info, const auto& field) {
        if (QWidget* w = editors.value(&field)) widgets.insert(QString::fromStdString(info.field()), w);
    });
    return widgets;
}

void SetupPanel::markProblemFields() {
    if (m_fieldWidgets.isEmpty()) m_fieldWidgets = problemFieldWidgets();
    QSet<QWidget*> bad;
    // A TCPStore problem names the whole store; tint what is actually wrong (the message may be translated).
    const bool badPort = m_ui.tcpPort->value() < 1 || m_ui.tcpPort->value() > 65535;
    for (const auto& p : m_problems) {
        QWidget* w = m_fieldWidgets.value(p.field);
        if (p.field == QLatin1String("store") && m_ui.tcpStore->isChecked()) {
            w = nullptr;
            if (badPort) bad.insert(m_ui.tcpPort);
            if (!badPort || m_ui.tcpHost->text().trimmed().isEmpty()) bad.insert(m_ui.tcpHost);
        }
        if (w) bad.insert(w);
    }
    for (QWidget* w : m_fieldWidgets) {
        // A dynamic property + stylesheet keeps the native look and only tints the field.
        const bool isBad = bad.contains(w);
        if (w->property("problem").toBool() != isBad) {
            w->setProperty("problem", isBad);
            w->setStyleSheet(isBad ? QStringLiteral("background-color: #fde7e9;") : QString());
        }
    }
    if (m_ui.tcpHost->property("problem").toBool() != bad.contains(m_ui.tcpHost)) {
        m_ui.tcpHost->setProperty("problem", bad.contains(m_ui.tcpHost));
        m_ui.tcpHost->setStyleSheet(bad.contains(m_ui.tcpHost) ? QStringLiteral("background-color: #fde7e9;")
                                                               : QString());
    }
}

void SetupPanel::browseInto(QLineEdit* edit, bool folder, const QString& filter) {
    const QString start = edit->text().isEmpty() ? runsFolder() : edit->text();
    const QString f = folder ? QFileDialog::getExistingDirectory(this, tr("Choose a folder"), start)
                             : QFileDialog::getOpenFileName(this, tr("Choose a file"), start, filter);
    if (!f.isEmpty()) edit->setText(QDir::toNativeSeparators(f));
}

QString SetupPanel::commandText(const QString& formatName) const {
    const auto format = launch::parseCommandFormat(formatName);
    if (!format) return QString();
    return launch::formatCommand(config(), *format);
}

void SetupPanel::copyCommand(const QString& formatName) {
    const QString text = commandText(formatName);
    QApplication::clipboard()->setText(text);
    emit message(tr("Copied the %1 command to the clipboard.").arg(formatName));
}

bool SetupPanel::saveProfile(const QString& path, QString* error) const {
    return config().saveProfile(path, error);
}

bool SetupPanel::loadProfile(const QString& path, QString* error) {
    launch::RunConfig c;
    if (!launch::RunConfig::loadProfile(path, &c, error)) return false;
    setConfig(c);
    return true;
}

void SetupPanel::connectButtons() {
    connect(m_ui.modelBrowse, &QPushButton::clicked, this, [this] {
        browseInto(m_ui.modelFile, false, tr("TorchScript models (*.pt *.pth);;All files (*)"));
    });
    connect(m_ui.scriptBrowse, &QPushButton::clicked, this,
            [this] { browseInto(m_ui.scriptFile, false, tr("Python scripts (*.py);;All files (*)")); });
    connect(m_ui.dataBrowse, &QPushButton::clicked, this, [this] { browseInto(m_ui.dataDir, true); });
    connect(m_ui.workDirBrowse, &QPushButton::clicked, this, [this] { browseInto(m_ui.workDir, true); });
    connect(m_ui.storeBrowse, &QPushButton::clicked, this, [this] {
        // A FileStore is a file that need not exist yet; pick where it goes.
        const QString f = QFileDialog::getSaveFileName(this, tr("FileStore location"), m_ui.storePath->text(),
                                                       QString(), nullptr, QFileDialog::DontConfirmOverwrite);
        if (!f.isEmpty()) m_ui.storePath->setText(QDir::toNativeSeparators(f));
    });
    connect(m_ui.runsBrowse, &QPushButton::clicked, this, [this] { browseInto(m_ui.runsFolder, true); });
    connect(m_ui.start, &QPushButton::clicked, this, [this] {
        revalidate();
        if (canStart()) emit startRequested(config());
    });
    connect(m_ui.demo, &QPushButton::clicked, this, &SetupPanel::demoRequested);
    connect(m_ui.saveProfile, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getSaveFileName(this, tr("Save profile"), runsFolder(),
                                                       tr("DDP Desk profiles (*.json)"));
        QString err;
        if (!f.isEmpty())
            emit message(saveProfile(f, &err) ? tr("Profile saved to %1").arg(QDir::toNativeSeparators(f))
                                              : err);
    });
    connect(m_ui.loadProfile, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Load profile"), runsFolder(),
                                                       tr("DDP Desk profiles (*.json)"));
        QString err;
        if (!f.isEmpty())
            emit message(loadProfile(f, &err) ? tr("Profile loaded from %1").arg(QDir::toNativeSeparators(f))
                                              : err);
    });
}

} // namespace ddpdesk::ui
