// The Setup page's widgets and wiring (setup_panel.cpp holds its behaviour: config, validation, profiles).

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

QWidget* SetupPanel::withBrowse(QLineEdit* edit, QPushButton** button) {
    auto* w = new QWidget;
    auto* h = new QHBoxLayout(w);
    h->setContentsMargins(0, 0, 0, 0);
    h->addWidget(edit, 1);
    w->setFocusProxy(edit); // the row's label mnemonic lands in the text field
    *button = new QPushButton(icon(IconId::Folder), QString());
    h->addWidget(*button);
    return w;
}

void SetupPanel::build() {
    m_validateTimer = new QTimer(this);
    m_validateTimer->setSingleShot(true);
    m_validateTimer->setInterval(150); // validate() touches the file system; coalesce keystrokes
    connect(m_validateTimer, &QTimer::timeout, this, &SetupPanel::revalidate);

    buildWorkloadBox();
    buildDevicesBox();
    buildStoreBox();
    buildTrainingBox();
    buildActionWidgets();
    arrangePage();
    connectFieldChanges();
    connectButtons();
    updateEnabled();
}

void SetupPanel::buildWorkloadBox() {
    m_workloadBox = new QGroupBox;
    m_workloadForm = new QFormLayout(m_workloadBox);
    m_workload = new QComboBox;
    for (const char* w : {"autoencoder", "fashion-mnist", "torchscript", kScriptWorkload})
        m_workload->addItem(QString(), QString::fromLatin1(w));
    m_modelFile = new QLineEdit;
    m_scriptFile = new QLineEdit;
    m_scriptArgs = new QLineEdit;
    m_workDir = new QLineEdit;
    m_dataDir = new QLineEdit;
    m_workloadForm->addRow(QString(), m_workload);
    m_workloadForm->addRow(QString(), withBrowse(m_modelFile, &m_modelBrowse));
    m_workloadForm->addRow(QString(), withBrowse(m_scriptFile, &m_scriptBrowse));
    m_workloadForm->addRow(QString(), m_scriptArgs);
    m_workloadForm->addRow(QString(), withBrowse(m_workDir, &m_workDirBrowse));
    m_workloadForm->addRow(QString(), withBrowse(m_dataDir, &m_dataBrowse));
}

void SetupPanel::buildDevicesBox() {
    m_devicesBox = new QGroupBox;
    m_devicesForm = new QFormLayout(m_devicesBox);
    m_useCpu = new QRadioButton;
    m_useGpu = new QRadioButton;
    m_useCpu->setChecked(true);
    auto* kind = new QWidget;
    auto* kh = new QHBoxLayout(kind);
    kh->setContentsMargins(0, 0, 0, 0);
    kh->addWidget(m_useCpu);
    kh->addWidget(m_useGpu);
    kh->addStretch();
    m_nproc = new QSpinBox;
    m_nproc->setRange(0, 256);
    m_nproc->setValue(2);
    m_gpuList = new QListWidget;
    m_gpuList->setMaximumHeight(110);
    m_gpuNote = new QLabel;
    m_gpuNote->setWordWrap(true);
    m_nnodes = new QSpinBox;
    m_nnodes->setRange(1, 1024);
    m_nodeRank = new QSpinBox;
    m_nodeRank->setRange(0, 4096); // validate() reports a rank beyond the node count
    m_backend = new QComboBox;
    m_backend->addItem(QStringLiteral("Gloo"));
    m_devicesForm->addRow(QString(), kind);
    m_devicesForm->addRow(QString(), m_nproc);
    m_devicesForm->addRow(QString(), m_gpuList);
    m_devicesForm->addRow(QString(), m_gpuNote);
    m_devicesForm->addRow(QString(), m_nnodes);
    m_devicesForm->addRow(QString(), m_nodeRank);
    m_runSecret = new QLineEdit;
    m_runSecret->setEchoMode(QLineEdit::PasswordEchoOnEdit);
    m_devicesForm->addRow(QString(), m_runSecret);
    m_devicesForm->addRow(QString(), m_backend);
    m_devicesForm->setRowVisible(m_gpuList, false); // until setGpus() finds one
}

void SetupPanel::buildStoreBox() {
    m_storeBox = new QGroupBox;
    m_storeForm = new QFormLayout(m_storeBox);
    m_fileStore = new QRadioButton;
    m_tcpStore = new QRadioButton;
    m_fileStore->setChecked(true);
    auto* skind = new QWidget;
    auto* sh = new QHBoxLayout(skind);
    sh->setContentsMargins(0, 0, 0, 0);
    sh->addWidget(m_fileStore);
    sh->addWidget(m_tcpStore);
    sh->addStretch();
    m_storePath = new QLineEdit;
    m_tcpHost = new QLineEdit(QStringLiteral("127.0.0.1"));
    m_tcpPort = new QSpinBox;
    m_tcpPort->setRange(0, 70000); // out-of-range values are shown as a problem, not silently clamped
    m_tcpPort->setValue(29500);
    m_storeForm->addRow(QString(), skind);
    m_storeForm->addRow(QString(), withBrowse(m_storePath, &m_storeBrowse));
    m_storeForm->addRow(QString(), m_tcpHost);
    m_storeForm->addRow(QString(), m_tcpPort);
}

void SetupPanel::buildTrainingBox() {
    m_trainBox = new QGroupBox;
    m_trainForm = new QFormLayout(m_trainBox);
    m_lengthKind = new QComboBox;
    m_lengthKind->addItem(QString(), QStringLiteral("steps"));
    m_lengthKind->addItem(QString(), QStringLiteral("epochs"));
    m_length = new QSpinBox;
    m_length->setRange(1, 10000000);
    m_length->setValue(200);
    auto* len = new QWidget;
    auto* lh = new QHBoxLayout(len);
    lh->setContentsMargins(0, 0, 0, 0);
    lh->addWidget(m_length, 1);
    lh->addWidget(m_lengthKind);
    m_batch = new QSpinBox;
    m_batch->setRange(0, 65536);
    m_batch->setValue(64);
    m_accumulate = new QSpinBox;
    m_accumulate->setRange(1, 4096);
    m_precision = new QComboBox;
    for (const char* type : {"fp32", "bf16", "fp16"})
        m_precision->addItem(QString(), QString::fromLatin1(type));
    m_compression = new QComboBox;
    for (const char* wire : {"none", "fp16", "bf16"})
        m_compression->addItem(QString(), QString::fromLatin1(wire));
    m_lr = new QDoubleSpinBox;
    m_lr->setDecimals(5);
    m_lr->setRange(0, 10);
    m_lr->setSingleStep(0.001);
    m_lr->setValue(0.01);
    m_checkpointEvery = new QSpinBox;
    m_checkpointEvery->setRange(0, 10000000);
    m_resume = new QCheckBox;
    m_tensorboard = new QCheckBox;
    m_tensorboard->setChecked(true);
    m_maxRestarts = new QSpinBox;
    m_maxRestarts->setRange(0, 100);
    m_runsFolder = new QLineEdit;
    m_trainForm->addRow(QString(), len);
    m_trainForm->addRow(QString(), m_batch);
    m_trainForm->addRow(QString(), m_accumulate);
    m_trainForm->addRow(QString(), m_precision);
    m_trainForm->addRow(QString(), m_compression);
    m_trainForm->addRow(QString(), m_lr);
    m_trainForm->addRow(QString(), m_checkpointEvery);
    m_trainForm->addRow(QString(), m_resume);
    m_trainForm->addRow(QString(), m_tensorboard);
    m_trainForm->addRow(QString(), m_maxRestarts);
    m_trainForm->addRow(QString(), withBrowse(m_runsFolder, &m_runsBrowse));
}

void SetupPanel::buildActionWidgets() {
    m_reasonIcon = new QLabel;
    m_reason = new QLabel;
    m_reason->setWordWrap(true);
    m_reason->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_start = new QPushButton(icon(IconId::Start), QString());
    m_start->setDefault(true);
    m_start->setMinimumHeight(32);
    m_demo = new QPushButton(icon(IconId::Demo), QString());
    m_demo->setMinimumHeight(32);
    m_copyAs = new QToolButton;
    m_copyAs->setPopupMode(QToolButton::InstantPopup);
    m_copyAs->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_copyAs->setMinimumHeight(32);
    m_copyAs->setMenu(new QMenu(m_copyAs));
    m_saveProfile = new QPushButton;
    m_loadProfile = new QPushButton;
}

void SetupPanel::arrangePage() {
    auto* columns = new QHBoxLayout;
    auto* left = new QVBoxLayout;
    left->addWidget(m_workloadBox);
    left->addWidget(m_devicesBox);
    left->addStretch();
    auto* right = new QVBoxLayout;
    right->addWidget(m_storeBox);
    right->addWidget(m_trainBox);
    right->addStretch();
    columns->addLayout(left, 1);
    columns->addLayout(right, 1);

    auto* reasonRow = new QHBoxLayout;
    reasonRow->addWidget(m_reasonIcon, 0, Qt::AlignTop);
    reasonRow->addWidget(m_reason, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_loadProfile);
    buttons->addWidget(m_saveProfile);
    buttons->addWidget(m_copyAs);
    buttons->addStretch();
    buttons->addWidget(m_demo);
    buttons->addWidget(m_start);

    auto* content = new QWidget;
    auto* v = new QVBoxLayout(content);
    v->addLayout(columns);
    auto* scroll = new QScrollArea;
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    auto* outer = new QVBoxLayout(this);
    outer->addWidget(scroll, 1);
    outer->addLayout(reasonRow);
    outer->addLayout(buttons);
}

void SetupPanel::connectFieldChanges() {
    auto changed = [this] {
        updateEnabled();
        m_validateTimer->start();
        emit configChanged();
    };

    for (QLineEdit* e : {m_modelFile, m_scriptFile, m_scriptArgs, m_workDir, m_dataDir, m_storePath,
                         m_tcpHost, m_runsFolder, m_runSecret})
        connect(e, &QLineEdit::textChanged, this, changed);
    for (QSpinBox* s : {m_nproc, m_nnodes, m_nodeRank, m_tcpPort, m_length, m_batch, m_accumulate,
                        m_checkpointEvery, m_maxRestarts})
        connect(s, &QSpinBox::valueChanged, this, changed);
    connect(m_lr, &QDoubleSpinBox::valueChanged, this, changed);
    for (QComboBox* c : {m_workload, m_lengthKind, m_precision, m_compression})
        connect(c, &QComboBox::currentIndexChanged, this, changed);
    for (QRadioButton* r : {m_useCpu, m_useGpu, m_fileStore, m_tcpStore})
        connect(r, &QRadioButton::toggled, this, changed);
    for (QCheckBox* b : {m_resume, m_tensorboard})
        connect(b, &QCheckBox::toggled, this, changed);
    connect(m_gpuList, &QListWidget::itemChanged, this, changed);
}

void SetupPanel::connectButtons() {
    connect(m_modelBrowse, &QPushButton::clicked, this,
            [this] { browseInto(m_modelFile, false, tr("TorchScript models (*.pt *.pth);;All files (*)")); });
    connect(m_scriptBrowse, &QPushButton::clicked, this,
            [this] { browseInto(m_scriptFile, false, tr("Python scripts (*.py);;All files (*)")); });
    connect(m_dataBrowse, &QPushButton::clicked, this, [this] { browseInto(m_dataDir, true); });
    connect(m_workDirBrowse, &QPushButton::clicked, this, [this] { browseInto(m_workDir, true); });
    connect(m_storeBrowse, &QPushButton::clicked, this, [this] {
        // A FileStore is a file that need not exist yet; pick where it goes.
        const QString f = QFileDialog::getSaveFileName(this, tr("FileStore location"), m_storePath->text(),
                                                       QString(), nullptr, QFileDialog::DontConfirmOverwrite);
        if (!f.isEmpty()) m_storePath->setText(QDir::toNativeSeparators(f));
    });
    connect(m_runsBrowse, &QPushButton::clicked, this, [this] { browseInto(m_runsFolder, true); });
    connect(m_start, &QPushButton::clicked, this, [this] {
        revalidate();
        if (canStart()) emit startRequested(config());
    });
    connect(m_demo, &QPushButton::clicked, this, &SetupPanel::demoRequested);
    connect(m_saveProfile, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getSaveFileName(this, tr("Save profile"), runsFolder(),
                                                       tr("DDP Desk profiles (*.json)"));
        QString err;
        if (!f.isEmpty())
            emit message(saveProfile(f, &err) ? tr("Profile saved to %1").arg(QDir::toNativeSeparators(f))
                                              : err);
    });
    connect(m_loadProfile, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Load profile"), runsFolder(),
                                                       tr("DDP Desk profiles (*.json)"));
        QString err;
        if (!f.isEmpty())
            emit message(loadProfile(f, &err) ? tr("Profile loaded from %1").arg(QDir::toNativeSeparators(f))
                                              : err);
    });
}

} // namespace ddpdesk::ui
