// MainWindow itself: the navigation, the stacked pages, the status bar and the GPU poll (menus, settings and
// run control are in main_window_menus.cpp, main_window_settings.cpp and main_window_runs.cpp).
#include "main_window.h"

#include "compare_panel.h"
#include "doctor_panel.h"
#include "history_panel.h"
#include "icons.h"
#include "launch/run_model.h"
#include "launch/supervisor.h"
#include "monitor/gpu_reader.h"
#include "run_loader.h"
#include "run_panel.h"
#include "setup_panel.h"

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>

namespace ddpdesk::ui {

namespace {
constexpr int kGpuPollMs = 2000;
constexpr int kWarmDelayMs = 1500;
} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowIcon(icon(IconId::App));
    setObjectName(QStringLiteral("MainWindow"));
    m_loader = new RunLoader(this);
    m_warm = new launch::WarmWorkers(this);
    buildUi();
    buildMenus();
    retranslate();
    restoreSettings();
    // Once the window is up, workers for the next Start load beside the user's first look at it.
    QTimer::singleShot(kWarmDelayMs, this, [this] {
        m_warmArmed = true;
        refillWarmWorkers();
        connect(m_setup, &SetupPanel::configChanged, this, &MainWindow::refillWarmWorkers);
    });

    m_gpus = std::make_unique<monitor::GpuReader>();
    m_gpuTimer = new QTimer(this);
    m_gpuTimer->setInterval(kGpuPollMs);
    connect(m_gpuTimer, &QTimer::timeout, this, &MainWindow::pollGpus);
    pollGpus();
    if (m_gpus->deviceCount() > 0) m_gpuTimer->start(); // without a driver there is nothing to refresh
}

MainWindow::~MainWindow() {
    if (m_supervisor) m_supervisor->stop(tr("the application closed"));
    // m_replay goes before the child widgets do; the Run page must not be left pointing at it.
    if (m_replay && m_run->model() == m_replay.get()) m_run->showModel(nullptr, QString());
}

QString MainWindow::defaultRunsFolder() {
    // Qt appends organization and application name; DDP Desk uses the same name for both, and
    // ".../DDP Desk/DDP Desk/runs" reads like a mistake: one level is enough.
    QDir base(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation));
    const QString org = QCoreApplication::organizationName();
    if (!org.isEmpty() && org == QCoreApplication::applicationName() && base.dirName() == org)
        base.setPath(QFileInfo(base.path()).path());
    return base.filePath(QStringLiteral("runs"));
}

void MainWindow::buildUi() {
    m_nav = new QListWidget;
    m_nav->setObjectName(QStringLiteral("navigation"));
    m_nav->setIconSize(QSize(24, 24));
    m_nav->setFrameShape(QFrame::NoFrame);
    m_nav->setSpacing(2);
    m_nav->setFixedWidth(170);
    m_nav->setStyleSheet(QStringLiteral("#navigation { background: palette(window); font-size: 11pt; }"
                                        "#navigation::item { padding: 8px 6px; border-radius: 4px; }"
                                        "#navigation::item:selected { background: #cce4f7; color: black; }"));
    const IconId icons[] = {IconId::Setup, IconId::Run, IconId::Doctor, IconId::Compare, IconId::History};
    for (IconId id : icons)
        new QListWidgetItem(icon(id), QString(), m_nav);

    m_setup = new SetupPanel;
    m_run = new RunPanel;
    m_doctor = new DoctorPanel;
    m_compare = new ComparePanel;
    m_history = new HistoryPanel;
    m_stack = new QStackedWidget;
    for (QWidget* w : std::initializer_list<QWidget*>{m_setup, m_run, m_doctor, m_compare, m_history})
        m_stack->addWidget(w);

    auto* central = new QWidget;
    auto* h = new QHBoxLayout(central);
    h->setContentsMargins(0, 0, 0, 0);
    h->setSpacing(0);
    h->addWidget(m_nav);
    auto* line = new QFrame;
    line->setFrameShape(QFrame::VLine);
    line->setFrameShadow(QFrame::Sunken);
    h->addWidget(line);
    h->addWidget(m_stack, 1);
    setCentralWidget(central);

    m_statusRun = new QLabel;
    m_statusGpu = new QLabel;
    statusBar()->addPermanentWidget(m_statusRun);
    statusBar()->addPermanentWidget(m_statusGpu);

    connect(m_nav, &QListWidget::currentRowChanged, m_stack, &QStackedWidget::setCurrentIndex);
    connect(m_setup, &SetupPanel::startRequested, this, &MainWindow::startRun);
    connect(m_setup, &SetupPanel::demoRequested, this, &MainWindow::startDemo);
    connect(m_setup, &SetupPanel::message, this,
            [this](const QString& t) { statusBar()->showMessage(t, kStatusMs); });
    connect(m_setup, &SetupPanel::configChanged, this,
            [this] { m_run->setStartEnabled(m_setup->canStart(), m_setup->problemText()); });
    connect(m_run, &RunPanel::startRequested, this, [this] {
        m_setup->revalidate();
        if (m_setup->canStart())
            startRun(m_setup->config());
        else
            showPage(SetupPage);
    });
    connect(m_run, &RunPanel::stopRequested, this, &MainWindow::stopRun);
    connect(m_run, &RunPanel::diagnoseRequested, this, &MainWindow::diagnose);
    connect(m_doctor, &DoctorPanel::portChosen, m_setup, &SetupPanel::setTcpPort);
    connect(m_doctor, &DoctorPanel::message, this,
            [this](const QString& t) { statusBar()->showMessage(t, kStatusMs); });
    connect(m_doctor, &DoctorPanel::diagnosed, this, [this](int errors, int) {
        if (!m_preflightPending) return;
        m_preflightPending = false;
        if (errors > 0) {
            showPage(DoctorPage);
            statusBar()->showMessage(tr("The run was not started: the doctor found a problem."), kStatusMs);
            return;
        }
        launchNow(m_pendingConfig);
    });
    m_compare->setConfigProvider([this] { return m_setup->config(); });
    m_compare->setWarmWorkersProvider([this] { return m_warmAct->isChecked() ? m_warm : nullptr; });
    connect(m_compare, &ComparePanel::sweepStarted, this, &MainWindow::followRun);
    connect(m_compare, &ComparePanel::sweepFinished, this, [this] { m_history->refresh(); });
    connect(m_history, &HistoryPanel::showRunRequested, this, &MainWindow::showRecordedRun);
    connect(m_loader, &RunLoader::loaded, this, &MainWindow::showReplay);
    connect(m_loader, &RunLoader::notice, this,
            [this](const QString& t) { statusBar()->showMessage(t, kStatusMs); });
    connect(m_loader, &RunLoader::failed, this, [this](const QString&, const QString& error) {
        statusBar()->clearMessage();
        QMessageBox::warning(this, tr("Cannot reopen run"), error);
    });
    connect(m_compare, &ComparePanel::message, this,
            [this](const QString& t) { statusBar()->showMessage(t, kStatusMs); });
    m_nav->setCurrentRow(SetupPage);
}

MainWindow::Page MainWindow::currentPage() const {
    return Page(m_stack->currentIndex());
}

void MainWindow::showRecordedRun(const QString& folder, const QString& name) {
    // The Run page belongs to a live run while one is going; reopening must not hide it.
    if (m_supervisor && m_supervisor->isRunning()) {
        statusBar()->showMessage(tr("A run is in progress; reopen %1 when it has finished.").arg(name),
                                 kStatusMs);
        return;
    }
    if (m_loader->isLoading()) {
        statusBar()->showMessage(tr("Still opening the previous run; try %1 again in a moment.").arg(name),
                                 kStatusMs);
        return;
    }
    statusBar()->showMessage(tr("Opening %1...").arg(name));
    m_loader->load(folder, name);
}

void MainWindow::showReplay(std::shared_ptr<launch::RunModel> model, const QString& name) {
    statusBar()->clearMessage();
    if (m_supervisor && m_supervisor->isRunning())
        return; // a run started while the recording was read: its page wins
    m_run->showModel(model.get(), name);
    m_replay = std::move(model); // after showModel, so the panel never holds the old model once it is freed
    showPage(RunPage);
}

void MainWindow::showPage(int page) {
    if (page >= 0 && page < PageCount) m_nav->setCurrentRow(page);
}

void MainWindow::pollGpus() {
    QVector<GpuChoice> gpus;
    for (const monitor::GpuSample& s : m_gpus->sample()) {
        if (s.lost) continue;
        GpuChoice g;
        g.index = s.index;
        g.name = QString::fromStdString(s.name);
        g.utilPercent = s.gpuUtilPercent ? double(*s.gpuUtilPercent) : -1.0;
        g.memUsedMiB = s.memUsedBytes ? double(*s.memUsedBytes) / (1024.0 * 1024.0) : -1.0;
        g.memTotalMiB = s.memTotalBytes ? double(*s.memTotalBytes) / (1024.0 * 1024.0) : -1.0;
        gpus << g;
    }
    m_setup->setGpus(gpus);
    const auto& st = m_gpus->status();
    m_statusGpu->setText(st.available ? tr("%n GPU(s), driver %1", nullptr, st.deviceCount)
                                            .arg(QString::fromStdString(st.driverVersion))
                                      : tr("No GPU: CPU workers"));
    m_statusGpu->setToolTip(QString::fromStdString(st.reason));
}

} // namespace ddpdesk::ui
