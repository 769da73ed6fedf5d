#include "setup_panel_layout.h"

#include "icons.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace ddpdesk::ui {

namespace {

QWidget* withBrowse(QLineEdit* edit, QPushButton** button) {
    auto* w = new QWidget;
    auto* h = new QHBoxLayout(w);
    h->setContentsMargins(0, 0, 0, 0);
    h->addWidget(edit, 1);
    w->setFocusProxy(edit); // the row's label mnemonic lands in the text field
    *button = new QPushButton(icon(IconId::Folder), QString());
    h->addWidget(*button);
    return w;
}

void buildWorkloadBox(SetupPanelWidgets& w) {
    w.workloadBox = new QGroupBox;
    w.workloadForm = new QFormLayout(w.workloadBox);
    w.workload = new QComboBox;
    for (const char* workload : {"autoencoder", "fashion-mnist", "torchscript", kScriptWorkload})
        w.workload->addItem(QString(), QString::fromLatin1(workload));
    w.modelFile = new QLineEdit;
    w.scriptFile = new QLineEdit;
    w.scriptArgs = new QLineEdit;
    w.workDir = new QLineEdit;
    w.dataDir = new QLineEdit;
    w.workloadForm->addRow(QString(), w.workload);
    w.workloadForm->addRow(QString(), withBrowse(w.modelFile, &w.modelBrowse));
    w.workloadForm->addRow(QString(), withBrowse(w.scriptFile, &w.scriptBrowse));
    w.workloadForm->addRow(QString(), w.scriptArgs);
    w.workloadForm->addRow(QString(), withBrowse(w.workDir, &w.workDirBrowse));
    w.workloadForm->addRow(QString(), withBrowse(w.dataDir, &w.dataBrowse));
}

void buildDevicesBox(SetupPanelWidgets& w) {
    w.devicesBox = new QGroupBox;
    w.devicesForm = new QFormLayout(w.devicesBox);
    w.useCpu = new QRadioButton;
    w.useGpu = new QRadioButton;
    w.useCpu->setChecked(true);
    auto* kind = new QWidget;
    auto* kh = new QHBoxLayout(kind);
    kh->setContentsMargins(0, 0, 0, 0);
    kh->addWidget(w.useCpu);
    kh->addWidget(w.useGpu);
    kh->addStretch();
    w.nproc = new QSpinBox;
    w.nproc->setRange(0, 256);
    w.nproc->setValue(2);
    w.gpuList = new QListWidget;
    w.gpuList->setMaximumHeight(110);
    w.gpuNote = new QLabel;
    w.gpuNote->setWordWrap(true);
    w.nnodes = new QSpinBox;
    w.nnodes->setRange(1, 1024);
    w.nodeRank = new QSpinBox;
    w.nodeRank->setRange(0, 4096); // validate() reports a rank beyond the node count
    w.backend = new QComboBox;
    w.backend->addItem(QStringLiteral("Gloo"));
    w.devicesForm->addRow(QString(), kind);
    w.devicesForm->addRow(QString(), w.nproc);
    w.devicesForm->addRow(QString(), w.gpuList);
    w.devicesForm->addRow(QString(), w.gpuNote);
    w.devicesForm->addRow(QString(), w.nnodes);
    w.devicesForm->addRow(QString(), w.nodeRank);
    w.runSecret = new QLineEdit;
    w.runSecret->setEchoMode(QLineEdit::PasswordEchoOnEdit);
    w.devicesForm->addRow(QString(), w.runSecret);
    w.nodeLink = new QCheckBox;
    w.nodeLink->setChecked(true);
    w.devicesForm->addRow(QString(), w.nodeLink);
    w.devicesForm->addRow(QString(), w.backend);
    w.devicesForm->setRowVisible(w.gpuList, false); // until setGpus() finds one
}

void buildStoreBox(SetupPanelWidgets& w) {
    w.storeBox = new QGroupBox;
    w.storeForm = new QFormLayout(w.storeBox);
    w.fileStore = new QRadioButton;
    w.tcpStore = new QRadioButton;
    w.fileStore->setChecked(true);
    auto* skind = new QWidget;
    auto* sh = new QHBoxLayout(skind);
    sh->setContentsMargins(0, 0, 0, 0);
    sh->addWidget(w.fileStore);
    sh->addWidget(w.tcpStore);
    sh->addStretch();
    w.storePath = new QLineEdit;
    w.tcpHost = new QLineEdit(QStringLiteral("127.0.0.1"));
    w.tcpPort = new QSpinBox;
    w.tcpPort->setRange(0, 70000); // out-of-range values are shown as a problem, not silently clamped
    w.tcpPort->setValue(29500);
    w.storeForm->addRow(QString(), skind);
    w.storeForm->addRow(QString(), withBrowse(w.storePath, &w.storeBrowse));
    w.storeForm->addRow(QString(), w.tcpHost);
    w.storeForm->addRow(QString(), w.tcpPort);
}

void buildTrainingBox(SetupPanelWidgets& w) {
    w.trainBox = new QGroupBox;
    w.trainForm = new QFormLayout(w.trainBox);
    w.lengthKind = new QComboBox;
    w.lengthKind->addItem(QString(), QStringLiteral("steps"));
    w.lengthKind->addItem(QString(), QStringLiteral("epochs"));
    w.length = new QSpinBox;
    w.length->setRange(1, 10000000);
    w.length->setValue(200);
    auto* len = new QWidget;
    auto* lh = new QHBoxLayout(len);
    lh->setContentsMargins(0, 0, 0, 0);
    lh->addWidget(w.length, 1);
    lh->addWidget(w.lengthKind);
    w.batch = new QSpinBox;
    w.batch->setRange(0, 65536);
    w.batch->setValue(64);
    w.accumulate = new QSpinBox;
    w.accumulate->setRange(1, 4096);
    w.precision = new QComboBox;
    for (const char* type : {"fp32", "bf16", "fp16"})
        w.precision->addItem(QString(), QString::fromLatin1(type));
    w.compression = new QComboBox;
    for (const char* wire : {"none", "fp16", "bf16"})
        w.compression->addItem(QString(), QString::fromLatin1(wire));
    w.lr = new QDoubleSpinBox;
    w.lr->setDecimals(5);
    w.lr->setRange(0, 10);
    w.lr->setSingleStep(0.001);
    w.lr->setValue(0.01);
    w.checkpointEvery = new QSpinBox;
    w.checkpointEvery->setRange(0, 10000000);
    w.resume = new QCheckBox;
    w.tensorboard = new QCheckBox;
    w.tensorboard->setChecked(true);
    w.maxRestarts = new QSpinBox;
    w.maxRestarts->setRange(0, 100);
    w.runsFolder = new QLineEdit;
    w.trainForm->addRow(QString(), len);
    w.trainForm->addRow(QString(), w.batch);
    w.trainForm->addRow(QString(), w.accumulate);
    w.trainForm->addRow(QString(), w.precision);
    w.trainForm->addRow(QString(), w.compression);
    w.trainForm->addRow(QString(), w.lr);
    w.trainForm->addRow(QString(), w.checkpointEvery);
    w.trainForm->addRow(QString(), w.resume);
    w.trainForm->addRow(QString(), w.tensorboard);
    w.trainForm->addRow(QString(), w.maxRestarts);
    w.trainForm->addRow(QString(), withBrowse(w.runsFolder, &w.runsBrowse));
}

void buildActionWidgets(SetupPanelWidgets& w) {
    w.reasonIcon = new QLabel;
    w.reason = new QLabel;
    w.reason->setWordWrap(true);
    w.reason->setTextInteractionFlags(Qt::TextSelectableByMouse);
    w.start = new QPushButton(icon(IconId::Start), QString());
    w.start->setDefault(true);
    w.start->setMinimumHeight(32);
    w.demo = new QPushButton(icon(IconId::Demo), QString());
    w.demo->setMinimumHeight(32);
    w.copyAs = new QToolButton;
    w.copyAs->setPopupMode(QToolButton::InstantPopup);
    w.copyAs->setToolButtonStyle(Qt::ToolButtonTextOnly);
    w.copyAs->setMinimumHeight(32);
    w.copyAs->setMenu(new QMenu(w.copyAs));
    w.saveProfile = new QPushButton;
    w.loadProfile = new QPushButton;
}

void arrangePage(QWidget& panel, const SetupPanelWidgets& w) {
    auto* columns = new QHBoxLayout;
    auto* left = new QVBoxLayout;
    left->addWidget(w.workloadBox);
    left->addWidget(w.devicesBox);
    left->addStretch();
    auto* right = new QVBoxLayout;
    right->addWidget(w.storeBox);
    right->addWidget(w.trainBox);
    right->addStretch();
    columns->addLayout(left, 1);
    columns->addLayout(right, 1);

    auto* reasonRow = new QHBoxLayout;
    reasonRow->addWidget(w.reasonIcon, 0, Qt::AlignTop);
    reasonRow->addWidget(w.reason, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(w.loadProfile);
    buttons->addWidget(w.saveProfile);
    buttons->addWidget(w.copyAs);
    buttons->addStretch();
    buttons->addWidget(w.demo);
    buttons->addWidget(w.start);

    auto* content = new QWidget;
    auto* v = new QVBoxLayout(content);
    v->addLayout(columns);
    auto* scroll = new QScrollArea;
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    auto* outer = new QVBoxLayout(&panel);
    outer->addWidget(scroll, 1);
    outer->addLayout(reasonRow);
    outer->addLayout(buttons);
}

} // namespace

SetupPanelWidgets layOutSetupPanel(QWidget& panel) {
    // The order widgets join the page is its default tab order.
    SetupPanelWidgets w;
    buildWorkloadBox(w);
    buildDevicesBox(w);
    buildStoreBox(w);
    buildTrainingBox(w);
    buildActionWidgets(w);
    arrangePage(panel, w);
    return w;
}

void onEveryEdit(const SetupPanelWidgets& w, QObject* context, const std::function<void()>& changed) {
    for (QLineEdit* e : {w.modelFile, w.scriptFile, w.scriptArgs, w.workDir, w.dataDir, w.storePath,
                         w.tcpHost, w.runsFolder, w.runSecret})
        QObject::connect(e, &QLineEdit::textChanged, context, changed);
    for (QSpinBox* s : {w.nproc, w.nnodes, w.nodeRank, w.tcpPort, w.length, w.batch, w.accumulate,
                        w.checkpointEvery, w.maxRestarts})
        QObject::connect(s, &QSpinBox::valueChanged, context, changed);
    QObject::connect(w.lr, &QDoubleSpinBox::valueChanged, context, changed);
    for (QComboBox* c : {w.workload, w.lengthKind, w.precision, w.compression})
        QObject::connect(c, &QComboBox::currentIndexChanged, context, changed);
    for (QRadioButton* r : {w.useCpu, w.useGpu, w.fileStore, w.tcpStore})
        QObject::connect(r, &QRadioButton::toggled, context, changed);
    for (QCheckBox* b : {w.resume, w.tensorboard, w.nodeLink})
        QObject::connect(b, &QCheckBox::toggled, context, changed);
    QObject::connect(w.gpuList, &QListWidget::itemChanged, context, changed);
}

} // namespace ddpdesk::ui
