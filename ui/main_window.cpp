// MainWindow: builds the navigation, the pages and the status bar, wires the pages, WindowMenus, RunControl
// and GpuPoller to each other, and restores and saves WindowSettings.
#include "main_window.h"

#include "compare_panel.h"
#include "doctor_panel.h"
#include "gpu_poller.h"
#include "history_panel.h"
#include "icons.h"
#include "language.h"
#include "run_control.h"
#include "run_panel.h"
#include "setup_panel.h"
#include "window_menus.h"
#include "window_settings.h"

#include <QCloseEvent>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QStackedWidget>
#include <QStatusBar>

namespace ddpdesk::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowIcon(icon(IconId::App));
    setObjectName(QStringLiteral("MainWindow"));
    buildPages();
    m_menus = new WindowMenus(*this, *m_setup);
    m_runs = new RunControl(*m_setup, *m_run, *m_doctor, *m_compare, this);
    m_gpus = new GpuPoller(this);
    connectParts();
    retranslate();
    restoreSettings();
    m_gpus->start();
}

MainWindow::~MainWindow() {
    m_runs->shutdown();
}

QString MainWindow::defaultRunsFolder() {
    return WindowSettings::defaultRunsFolder();
}

launch::Supervisor* MainWindow::supervisor() const {
    return m_runs->supervisor();
}

launch::RunConfig MainWindow::demoConfig() const {
    // Every GPU the Setup page lists (NVML's, lost ones left out): what the user sees is what trains.
    return RunControl::demoConfig(m_setup->gpuIndices(), m_setup->runsFolder());
}

void MainWindow::setPreflightEnabled(bool on) {
    m_runs->setPreflightEnabled(on);
}

launch::WarmWorkers* MainWindow::warmWorkers() const {
    return m_runs->warmWorkers();
}

void MainWindow::setWarmWorkersEnabled(bool on) {
    m_runs->setWarmWorkersEnabled(on);
}

void MainWindow::buildPages() {
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
}

void MainWindow::connectParts() {
    const auto status = [this](const QString& t) { statusBar()->showMessage(t, kStatusMs); };
    // The pages.
    connect(m_setup, &SetupPanel::startRequested, this, &MainWindow::startRun);
    connect(m_setup, &SetupPanel::demoRequested, this, &MainWindow::startDemo);
    connect(m_setup, &SetupPanel::message, this, status);
    connect(m_setup, &SetupPanel::configChanged, this,
            [this] { m_run->setStartEnabled(m_setup->canStart(), m_setup->problemText()); });
    connect(m_run, &RunPanel::startRequested, this, [this] { startFromSetup(false); });
    connect(m_run, &RunPanel::stopRequested, this, &MainWindow::stopRun);
    connect(m_run, &RunPanel::diagnoseRequested, this, &MainWindow::diagnose);
    connect(m_doctor, &DoctorPanel::portChosen, m_setup, &SetupPanel::setTcpPort);
    connect(m_doctor, &DoctorPanel::message, this, status);
    m_compare->setConfigProvider([this] { return m_setup->config(); });
    m_compare->setWarmWorkersProvider([this] { return m_runs->enabledWarmWorkers(); });
    connect(m_compare, &ComparePanel::sweepStarted, m_runs, &RunControl::follow);
    connect(m_compare, &ComparePanel::sweepFinished, this, [this] { m_history->refresh(); });
    connect(m_compare, &ComparePanel::message, this, status);
    connect(m_history, &HistoryPanel::showRunRequested, m_runs, &RunControl::showRecordedRun);

    // Runs.
    connect(m_runs, &RunControl::runningChanged, m_setup, &SetupPanel::setRunning);
    connect(m_runs, &RunControl::runningChanged, m_menus, &WindowMenus::setRunning);
    connect(m_runs, &RunControl::stateTextChanged, m_statusRun, &QLabel::setText);
    connect(m_runs, &RunControl::message, this,
            [this](const QString& t, bool timed) { statusBar()->showMessage(t, timed ? kStatusMs : 0); });
    connect(m_runs, &RunControl::messageCleared, statusBar(), &QStatusBar::clearMessage);
    connect(m_runs, &RunControl::pageRequested, this, &MainWindow::showPage);
    connect(m_runs, &RunControl::reopenFailed, this,
            [this](const QString& error) { QMessageBox::warning(this, tr("Cannot reopen run"), error); });
    connect(m_runs, &RunControl::runStarted, this, &MainWindow::runStarted);
    connect(m_runs, &RunControl::runFinished, this, [this] { m_history->refresh(); });
    connect(m_runs, &RunControl::runFinished, this, &MainWindow::runFinished);
    connect(m_runs, &RunControl::warmWorkersEnabledChanged, m_menus, &WindowMenus::setWarmWorkersChecked);

    // Menus.
    connect(m_menus, &WindowMenus::startRequested, this, [this] { startFromSetup(true); });
    connect(m_menus, &WindowMenus::stopRequested, this, &MainWindow::stopRun);
    connect(m_menus, &WindowMenus::demoRequested, this, &MainWindow::startDemo);
    connect(m_menus, &WindowMenus::diagnoseRequested, this, &MainWindow::diagnose);
    connect(m_menus, &WindowMenus::pageRequested, this, &MainWindow::showPage);
    connect(m_menus, &WindowMenus::languageRequested, this, &MainWindow::setLanguage);
    connect(m_menus, &WindowMenus::runsFolderChosen, this, &MainWindow::setRunsFolder);
    connect(m_menus, &WindowMenus::runFolderChosen, this, [this](const QString& f) { openRunFolder(f); });
    connect(m_menus, &WindowMenus::warmWorkersToggled, m_runs, &RunControl::setWarmWorkersEnabled);

    // GPUs.
    connect(m_gpus, &GpuPoller::polled, m_setup, &SetupPanel::setGpus);
    connect(m_gpus, &GpuPoller::polled, this, &MainWindow::showGpuStatus);
    m_nav->setCurrentRow(SetupPage);
}

MainWindow::Page MainWindow::currentPage() const {
    return Page(m_stack->currentIndex());
}

void MainWindow::showPage(int page) {
    if (page >= 0 && page < PageCount) m_nav->setCurrentRow(page);
}

bool MainWindow::startRun(const launch::RunConfig& config) {
    return m_runs->start(config);
}

void MainWindow::startFromSetup(bool explain) {
    m_setup->revalidate();
    if (m_setup->canStart()) {
        startRun(m_setup->config());
        return;
    }
    showPage(SetupPage);
    if (explain) statusBar()->showMessage(m_setup->problemText(), kStatusMs);
}

void MainWindow::startDemo() {
    const launch::RunConfig c = demoConfig();
    m_setup->setConfig(c); // the user sees (and can reuse) what the demo runs
    startRun(c);
}

bool MainWindow::openRunFolder(const QString& folder, QString* why) {
    showPage(HistoryPage);
    QString error;
    if (m_history->openRun(folder, &error)) return true;
    statusBar()->showMessage(error); // stays: the user asked for this folder and should read why not
    if (why) *why = error;
    return false;
}

void MainWindow::stopRun() {
    m_runs->stop();
}

void MainWindow::diagnose() {
    m_runs->diagnose();
}

void MainWindow::setRunsFolder(const QString& folder) {
    m_setup->setRunsFolder(folder);
    m_history->setRunsFolder(folder);
}

void MainWindow::showGpuStatus() {
    const monitor::NvmlStatus& st = m_gpus->status();
    m_statusGpu->setText(st.available ? tr("%n GPU(s), driver %1", nullptr, st.deviceCount)
                                            .arg(QString::fromStdString(st.driverVersion))
                                      : tr("No GPU: CPU workers"));
    m_statusGpu->setToolTip(QString::fromStdString(st.reason));
}

void MainWindow::setLanguage(const QString& code) {
    if (!applyLanguage(code))
        statusBar()->showMessage(tr("The %1 translation is missing; staying in English.").arg(code),
                                 kStatusMs);
    WindowSettings::saveLanguage(currentLanguage());
    m_menus->syncLanguage();
}

void MainWindow::retranslate() {
    setWindowTitle(tr("DDP Desk"));
    const QStringList pages = {tr("Setup"), tr("Run"), tr("Doctor"), tr("Compare"), tr("History")};
    for (int i = 0; i < PageCount; ++i)
        m_nav->item(i)->setText(pages[i]);
    m_menus->setPageNames(pages);
    m_menus->retranslate();
    m_runs->retranslate();
    showGpuStatus();
}

void MainWindow::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) retranslate();
    QMainWindow::changeEvent(e);
}

void MainWindow::restoreSettings() {
    const WindowSettings s = WindowSettings::load();
    setRunsFolder(s.runsFolder);
    if (s.lastConfig) m_setup->setConfig(*s.lastConfig);
    if (!restoreGeometry(s.geometry)) resize(1280, 820);
    restoreState(s.dockState);
    showPage(s.page);
    m_runs->setWarmWorkersEnabled(s.warmWorkers);
}

void MainWindow::saveSettings() const {
    WindowSettings s;
    s.geometry = saveGeometry();
    s.dockState = saveState();
    s.page = m_stack->currentIndex();
    s.runsFolder = m_setup->runsFolder();
    s.warmWorkers = m_runs->warmWorkersEnabled();
    s.lastConfig = m_setup->config();
    s.save();
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (m_runs->isRunning()) {
        const auto answer = QMessageBox::question(this, tr("Stop the run?"),
                                                  tr("A run is in progress. Stop every worker and exit?"));
        if (answer != QMessageBox::Yes) {
            e->ignore();
            return;
        }
        m_runs->stopForExit();
    }
    saveSettings();
    QMainWindow::closeEvent(e);
}

} // namespace ddpdesk::ui
