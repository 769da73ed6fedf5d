#include "setup_panel.h"

#include "icons.h"
#include "launch/config/command_format.h"

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

SetupPanel::SetupPanel(QWidget* parent) : QWidget(parent) {
    build();
    retranslate();
    setRunsFolder(QDir::homePath());
    revalidate();
}

void SetupPanel::retranslate() {
    m_workloadBox->setTitle(tr("Workload"));
    m_workload->setItemText(0, tr("Autoencoder (synthetic data)"));
    m_workload->setItemText(1, tr("Fashion-MNIST classifier"));
    m_workload->setItemText(2, tr("TorchScript model file"));
    m_workload->setItemText(3, tr("Your own script (torchrun environment)"));
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
    label(m_workloadForm, 0, tr("&Workload:"));
    label(m_workloadForm, 1, tr("Model file:"));
    label(m_workloadForm, 2, tr("Script:"));
    label(m_workloadForm, 3, tr("Script arguments:"));
    label(m_workloadForm, 4, tr("Working folder:"));
    label(m_workloadForm, 5, tr("Data folder:"));
    m_workDir->setPlaceholderText(tr("the script's folder"));
    m_workDir->setToolTip(
        tr("Where the script's ranks run, as torchrun runs them where it was started: files the "
           "script opens by relative path are read and written here."));
    m_dataDir->setPlaceholderText(tr("default (built-in dataset location)"));
    m_scriptArgs->setPlaceholderText(tr("--epochs 3 --lr 0.01"));
    m_devicesBox->setTitle(tr("Devices"));
    m_useCpu->setText(tr("CPU workers"));
    m_useGpu->setText(tr("GPUs"));
    label(m_devicesForm, 0, tr("Run on:"));
    label(m_devicesForm, 1, tr("&Processes per node:"));
    label(m_devicesForm, 2, tr("GPUs:"));
    label(m_devicesForm, 3, QString());
    label(m_devicesForm, 4, tr("Nodes:"));
    label(m_devicesForm, 5, tr("Node rank:"));
    label(m_devicesForm, 6, tr("Run secret:"));
    label(m_devicesForm, 7, tr("Backend:"));
    m_runSecret->setPlaceholderText(tr("node 0's run secret (in the run-secret file node 0's log names)"));
    m_runSecret->setToolTip(
        tr("Node 0 makes a secret for each multi-node run, saves it in a file only you can read and "
           "shows the command for the other nodes in its log. Ranks that cannot prove they know it are "
           "refused."));
    m_storeBox->setTitle(tr("Rendezvous store"));
    m_fileStore->setText(tr("FileStore (file or shared folder)"));
    m_tcpStore->setText(tr("TCPStore (host:port)"));
    label(m_storeForm, 0, tr("Store:"));
    label(m_storeForm, 1, tr("Store file:"));
    label(m_storeForm, 2, tr("Master host:"));
    label(m_storeForm, 3, tr("Port:"));
    m_storePath->setPlaceholderText(tr("default: a fresh file inside the run folder"));
    m_trainBox->setTitle(tr("Training"));
    m_lengthKind->setItemText(0, tr("steps"));
    m_lengthKind->setItemText(1, tr("epochs"));
    label(m_trainForm, 0, tr("Length:"));
    label(m_trainForm, 1, tr("&Batch size:"));
    label(m_trainForm, 2, tr("Accumulate steps:"));
    label(m_trainForm, 3, tr("Precision:"));
    label(m_trainForm, 4, tr("Gradient compression:"));
    label(m_trainForm, 5, tr("&Learning rate:"));
    label(m_trainForm, 6, tr("Checkpoint every (steps):"));
    label(m_trainForm, 7, QString());
    label(m_trainForm, 8, QString());
    label(m_trainForm, 9, tr("Max restarts:"));
    label(m_trainForm, 10, tr("Runs folder:"));
    m_precision->setItemText(0, tr("fp32"));
    m_precision->setItemText(1, tr("bf16 mixed precision"));
    m_precision->setItemText(2, tr("fp16 mixed precision (CUDA only)"));
    m_precision->setToolTip(
        tr("Autocast for the forward pass and the loss, as torch.autocast does; weights and optimizer state "
           "stay fp32. fp16 needs a GPU and adds dynamic loss scaling; bf16 also runs on the CPU."));
    m_compression->setItemText(0, tr("none (fp32)"));
    m_compression->setItemText(1, tr("fp16 (half the bytes)"));
    m_compression->setItemText(2, tr("bf16 (half the bytes)"));
    m_compression->setToolTip(
        tr("Gradient buckets travel in 16 bits and are cast back after the exchange, as PyTorch's "
           "compression hooks do: half the traffic between ranks, every rank still identical."));
    m_accumulate->setSpecialValueText(tr("off"));
    m_accumulate->setToolTip(
        tr("Micro-batches of the batch size per optimizer step: gradients add up and are exchanged once per "
           "step (DDP's no_sync), so a step sees this many times the batch at the memory cost of one."));
    m_checkpointEvery->setSpecialValueText(tr("never"));
    m_batch->setSpecialValueText(tr("default"));
    m_lr->setSpecialValueText(tr("default"));
    m_resume->setText(tr("Resume from the last checkpoint"));
    m_tensorboard->setText(tr("Write TensorBoard files"));
    m_tensorboard->setToolTip(tr(
        "Scalars for TensorBoard in the run folder's tensorboard/ subfolder; point TensorBoard at the runs "
        "folder to compare runs."));
    for (QPushButton* b :
         {m_modelBrowse, m_scriptBrowse, m_workDirBrowse, m_dataBrowse, m_storeBrowse, m_runsBrowse})
        b->setToolTip(tr("Browse..."));
    m_start->setText(tr("&Start"));
    m_start->setToolTip(tr("Start the run (F5)"));
    m_demo->setText(tr("Run &demo"));
    m_demo->setToolTip(tr("Fashion-MNIST on every GPU, or on 2 CPU workers when there is none"));
    m_copyAs->setText(tr("Copy as command"));
    QMenu* menu = m_copyAs->menu();
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
    m_saveProfile->setText(tr("Save profile..."));
    m_loadProfile->setText(tr("Load profile..."));
    m_gpuNote->setText(m_gpuList->count() ? QString()
                                          : tr("No NVIDIA GPU detected: the run uses CPU workers."));
    revalidate();
}

void SetupPanel::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(e);
}

void SetupPanel::updateEnabled() {
    const QString w = m_workload->currentData().toString();
    m_modelFile->setEnabled(w == QLatin1String("torchscript"));
    m_modelBrowse->setEnabled(m_modelFile->isEnabled());
    const bool script = w == QLatin1String(kScriptWorkload);
    m_scriptFile->setEnabled(script);
    m_scriptBrowse->setEnabled(script);
    m_scriptArgs->setEnabled(script);
    m_workDir->setEnabled(script);
    m_workDirBrowse->setEnabled(script);
    m_useGpu->setEnabled(m_gpuList->count() > 0);
    const bool gpu = m_useGpu->isChecked() && m_useGpu->isEnabled();
    m_nproc->setEnabled(!gpu);
    m_gpuList->setEnabled(gpu);
    m_runSecret->setEnabled(m_nnodes->value() > 1 && m_nodeRank->value() > 0);
    const bool tcp = m_tcpStore->isChecked();
    m_storePath->setEnabled(!tcp);
    m_storeBrowse->setEnabled(!tcp);
    m_tcpHost->setEnabled(tcp);
    m_tcpPort->setEnabled(tcp);
    m_start->setEnabled(canStart());
}

launch::RunConfig SetupPanel::config() const {
    launch::RunConfig c;
    const QString w = m_workload->currentData().toString();
    if (w == QLatin1String(kScriptWorkload)) {
        c.scriptFile = m_scriptFile->text().trimmed();
        c.scriptArgs = QProcess::splitCommand(m_scriptArgs->text());
        if (c.scriptFile.isEmpty())
            c.scriptFile = QStringLiteral(" "); // still script mode, so validate() names the missing script
        c.workDir = m_workDir->text().trimmed();
        if (c.workDir.isEmpty() && !c.scriptFile.trimmed().isEmpty())
            c.workDir = QFileInfo(c.scriptFile).absolutePath(); // a sibling import and relative files work
    } else {
        c.workload = w;
    }
    c.modelFile = m_modelFile->isEnabled() ? m_modelFile->text().trimmed() : QString();
    c.dataDir = m_dataDir->text().trimmed();
    if (m_useGpu->isChecked() && m_useGpu->isEnabled()) {
        QStringList ids;
        for (int i = 0; i < m_gpuList->count(); ++i)
            if (m_gpuList->item(i)->checkState() == Qt::Checked)
                ids << m_gpuList->item(i)->data(Qt::UserRole).toString();
        c.devices = ids.isEmpty() ? QStringLiteral("") : ids.join(QLatin1Char(','));
        c.nproc = ids.size();
    } else {
        c.devices = QStringLiteral("cpu");
        c.nproc = m_nproc->value();
    }
    c.nnodes = m_nnodes->value();
    c.nodeRank = m_nodeRank->value();
    if (m_runSecret->isEnabled()) c.runSecret = m_runSecret->text().trimmed();
    if (m_tcpStore->isChecked())
        c.store = QStringLiteral("tcp://%1:%2").arg(m_tcpHost->text().trimmed()).arg(m_tcpPort->value());
    else if (!m_storePath->text().trimmed().isEmpty())
        c.store = QStringLiteral("file:") + m_storePath->text().trimmed();
    protocol::WorkerSettings& t = c.training;
    if (m_lengthKind->currentData().toString() == QLatin1String("epochs"))
        t.epochs = m_length->value();
    else
        t.steps = m_length->value();
    // 0 in these boxes reads "the workload's default": nothing is passed on.
    if (m_batch->value() > 0) t.batchSize = m_batch->value();
    t.accumulate = m_accumulate->value();
    t.precision = m_precision->currentData().toString().toStdString();
    t.gradCompression = m_compression->currentData().toString().toStdString();
    if (m_lr->value() > 0) t.lr = m_lr->value();
    t.checkpointEvery = m_checkpointEvery->value();
    t.resume = m_resume->isChecked();
    c.tensorboard = m_tensorboard->isChecked();
    c.maxRestarts = m_maxRestarts->value();
    const QString runs = runsFolder();
    if (!runs.isEmpty())
        c.outDir = QDir(runs).filePath(QStringLiteral("run-") + QDateTime::currentDateTime().toString(
                                                                    QStringLiteral("yyyyMMdd-HHmmss")));
    return c;
}

void SetupPanel::setConfig(const launch::RunConfig& c) {
    const QSignalBlocker block(this);
    const QString w = c.isScript() ? QString::fromLatin1(kScriptWorkload) : c.workload;
    const int wi = m_workload->findData(w);
    m_workload->setCurrentIndex(wi < 0 ? 0 : wi);
    m_modelFile->setText(c.modelFile);
    m_scriptFile->setText(c.scriptFile.trimmed());
    m_scriptArgs->setText(c.scriptArgs.join(QLatin1Char(' ')));
    // The script's own folder is the default; only another folder is shown.
    m_workDir->setText(c.workDir == QFileInfo(c.scriptFile.trimmed()).absolutePath() ? QString() : c.workDir);
    m_dataDir->setText(c.dataDir);
    if (c.usesGpus() && m_gpuList->count() > 0) {
        m_useGpu->setChecked(true);
        const QVector<int> ids = c.gpuList();
        for (int i = 0; i < m_gpuList->count(); ++i)
            m_gpuList->item(i)->setCheckState(
                ids.contains(m_gpuList->item(i)->data(Qt::UserRole).toInt()) ? Qt::Checked : Qt::Unchecked);
    } else {
        m_useCpu->setChecked(true);
        m_nproc->setValue(c.nproc);
    }
    m_nnodes->setValue(c.nnodes);
    m_nodeRank->setValue(c.nodeRank);
    if (c.storeIsTcp()) {
        m_tcpStore->setChecked(true);
        m_tcpHost->setText(c.storeHost());
        m_tcpPort->setValue(c.storePort());
    } else {
        m_fileStore->setChecked(true);
        m_storePath->setText(c.store.isEmpty() ? QString() : c.storeFilePath());
    }
    const protocol::WorkerSettings& t = c.training;
    const bool byEpochs = t.epochs && !t.steps;
    m_lengthKind->setCurrentIndex(byEpochs ? 1 : 0);
    m_length->setValue(int(byEpochs ? *t.epochs : t.steps.value_or(m_length->value())));
    m_batch->setValue(int(t.batchSize.value_or(0)));
    m_accumulate->setValue(int(t.accumulate));
    const int pi = m_precision->findData(QString::fromStdString(t.precision));
    m_precision->setCurrentIndex(pi < 0 ? 0 : pi);
    const int ci = m_compression->findData(QString::fromStdString(t.gradCompression));
    m_compression->setCurrentIndex(ci < 0 ? 0 : ci);
    m_lr->setValue(t.lr.value_or(0.0));
    m_checkpointEvery->setValue(int(t.checkpointEvery));
    m_resume->setChecked(t.resume);
    m_tensorboard->setChecked(c.tensorboard);
    m_maxRestarts->setValue(c.maxRestarts);
    updateEnabled();
    revalidate();
}

QString SetupPanel::runsFolder() const {
    return m_runsFolder->text().trimmed();
}

void SetupPanel::setRunsFolder(const QString& folder) {
    m_runsFolder->setText(QDir::toNativeSeparators(folder));
}

void SetupPanel::setGpus(const QVector<GpuChoice>& gpus) {
    const QSignalBlocker block(m_gpuList);
    QHash<int, Qt::CheckState> ticks;
    for (int i = 0; i < m_gpuList->count(); ++i)
        ticks[m_gpuList->item(i)->data(Qt::UserRole).toInt()] = m_gpuList->item(i)->checkState();
    const bool first = m_gpuList->count() == 0;
    m_gpuList->clear();
    for (const GpuChoice& g : gpus) {
        QString text = tr("GPU %1: %2").arg(g.index).arg(g.name);
        if (g.utilPercent >= 0) text += tr("  \u2014 %1% busy").arg(g.utilPercent, 0, 'f', 0);
        if (g.memTotalMiB > 0)
            text += tr(", %1 / %2 MiB").arg(g.memUsedMiB, 0, 'f', 0).arg(g.memTotalMiB, 0, 'f', 0);
        auto* item = new QListWidgetItem(text, m_gpuList);
        item->setData(Qt::UserRole, g.index);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(ticks.value(g.index, Qt::Checked));
    }
    if (first && !gpus.isEmpty()) m_useGpu->setChecked(true);
    m_gpuNote->setText(gpus.isEmpty() ? tr("No NVIDIA GPU detected: the run uses CPU workers.") : QString());
    // An empty GPU checklist is only noise; the note says why there is none.
    m_devicesForm->setRowVisible(m_gpuList, !gpus.isEmpty());
    m_devicesForm->setRowVisible(m_gpuNote, gpus.isEmpty());
    updateEnabled();
    m_validateTimer->start();
}

void SetupPanel::setTcpPort(int port) {
    m_tcpStore->setChecked(true);
    m_tcpPort->setValue(port);
    revalidate();
}

void SetupPanel::setRunning(bool running) {
    m_running = running;
    updateEnabled();
    revalidate();
}

QString SetupPanel::problemText() const {
    return m_reason->text();
}

void SetupPanel::revalidate() {
    const launch::RunConfig c = config();
    m_problems = c.validate();
    const int iconSize = style()->pixelMetric(QStyle::PM_SmallIconSize);
    if (m_running) {
        m_reasonIcon->setPixmap(icon(IconId::Info).pixmap(iconSize, iconSize));
        m_reason->setText(tr("A run is in progress. Stop it on the Run page to start another."));
    } else if (m_problems.isEmpty()) {
        m_reasonIcon->setPixmap(icon(IconId::Ok).pixmap(iconSize, iconSize));
        m_reason->setText(tr("Ready: %n worker(s), world size %1, store %2.", nullptr, c.nproc)
                              .arg(c.worldSize())
                              .arg(c.store.isEmpty() ? tr("FileStore in the run folder") : c.store));
    } else {
        m_reasonIcon->setPixmap(icon(IconId::Error).pixmap(iconSize, iconSize));
        QStringList lines;
        for (const auto& p : m_problems)
            lines << (p.field.isEmpty() ? p.message : QStringLiteral("--%1: %2").arg(p.field, p.message));
        m_reason->setText(tr("Cannot start yet: %1").arg(lines.join(QStringLiteral("; "))));
    }
    markProblemFields();
    m_start->setEnabled(canStart());
    m_start->setToolTip(canStart() ? tr("Start the run (F5)") : m_reason->text());
}

void SetupPanel::markProblemFields() {
    if (m_fieldWidgets.isEmpty()) {
        m_fieldWidgets = {{QStringLiteral("nproc"), m_nproc},
                          {QStringLiteral("devices"), m_gpuList},
                          {QStringLiteral("nnodes"), m_nnodes},
                          {QStringLiteral("node-rank"), m_nodeRank},
                          {QStringLiteral("store"), m_storePath},
                          {QStringLiteral("port"), m_tcpPort},
                          {QStringLiteral("model"), m_modelFile},
                          {QStringLiteral("script"), m_scriptFile},
                          {QStringLiteral("data"), m_dataDir},
                          {QStringLiteral("out"), m_runsFolder},
                          {QStringLiteral("steps"), m_length},
                          {QStringLiteral("epochs"), m_length},
                          {QStringLiteral("batch-size"), m_batch},
                          {QStringLiteral("accumulate"), m_accumulate},
                          {QStringLiteral("precision"), m_precision},
                          {QStringLiteral("grad-compression"), m_compression},
                          {QStringLiteral("lr"), m_lr},
                          {QStringLiteral("max-restarts"), m_maxRestarts},
                          {QStringLiteral("checkpoint-every"), m_checkpointEvery},
                          {QStringLiteral("workdir"), m_workDir},
                          {QStringLiteral("run-secret"), m_runSecret}};
    }
    QSet<QWidget*> bad;
    // A TCPStore problem names the whole store; tint what is actually wrong (the message may be translated).
    const bool badPort = m_tcpPort->value() < 1 || m_tcpPort->value() > 65535;
    for (const auto& p : m_problems) {
        QWidget* w = m_fieldWidgets.value(p.field);
        if (p.field == QLatin1String("store") && m_tcpStore->isChecked()) {
            w = nullptr;
            if (badPort) bad.insert(m_tcpPort);
            if (!badPort || m_tcpHost->text().trimmed().isEmpty()) bad.insert(m_tcpHost);
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
    if (m_tcpHost->property("problem").toBool() != bad.contains(m_tcpHost)) {
        m_tcpHost->setProperty("problem", bad.contains(m_tcpHost));
        m_tcpHost->setStyleSheet(bad.contains(m_tcpHost) ? QStringLiteral("background-color: #fde7e9;")
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

} // namespace ddpdesk::ui
