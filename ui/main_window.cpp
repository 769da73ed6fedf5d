#include "main_window.h"

#include "compare_panel.h"
#include "doctor_panel.h"
#include "history_panel.h"
#include "icons.h"
#include "language.h"
#include "launch/run_replay.h"
#include "launch/supervisor.h"
#include "monitor/gpu_reader.h"
#include "run_panel.h"
#include "setup_panel.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>

namespace ddpdesk::ui {

namespace {
constexpr int kGpuPollMs = 2000;
constexpr int kStatusMs = 6000;
} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setWindowIcon(icon(IconId::App));
    setObjectName(QStringLiteral("MainWindow"));
    buildUi();
    buildMenus();
    retranslate();
    restoreSettings();

    m_gpus = std::make_unique<monitor::GpuReader>();
    m_gpuTimer = new QTimer(this);
    m_gpuTimer->setInterval(kGpuPollMs);
    connect(m_gpuTimer, &QTimer::timeout, this, &MainWindow::pollGpus);
    pollGpus();
    if (m_gpus->deviceCount() > 0)
        m_gpuTimer->start(); // without a driver there is nothing to refresh
}

MainWindow::~MainWindow()
{
    if (m_supervisor)
        m_supervisor->stop(QStringLiteral("the application closed"));
    // m_replay goes before the child widgets do; the Run page must not be left pointing at it.
    if (m_replay && m_run->model() == m_replay.get())
        m_run->showModel(nullptr, QString());
}

QString MainWindow::defaultRunsFolder()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(QStringLiteral("runs"));
}

void MainWindow::buildUi()
{
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
    connect(m_setup, &SetupPanel::message, this, [this](const QString& t) { statusBar()->showMessage(t, kStatusMs); });
    connect(m_setup, &SetupPanel::configChanged, this, [this] {
        m_run->setStartEnabled(m_setup->canStart(), m_setup->problemText());
    });
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
    connect(m_doctor, &DoctorPanel::message, this, [this](const QString& t) { statusBar()->showMessage(t, kStatusMs); });
    connect(m_doctor, &DoctorPanel::diagnosed, this, [this](int errors, int) {
        if (!m_preflightPending)
            return;
        m_preflightPending = false;
        if (errors > 0) {
            showPage(DoctorPage);
            statusBar()->showMessage(tr("The run was not started: the doctor found a problem."), kStatusMs);
            return;
        }
        launchNow(m_pendingConfig);
    });
    m_compare->setConfigProvider([this] { return m_setup->config(); });
    connect(m_compare, &ComparePanel::sweepStarted, this, &MainWindow::followRun);
    connect(m_compare, &ComparePanel::sweepFinished, this, [this] { m_history->refresh(); });
    connect(m_history, &HistoryPanel::showRunRequested, this, &MainWindow::showRecordedRun);
    connect(m_compare, &ComparePanel::message, this, [this](const QString& t) { statusBar()->showMessage(t, kStatusMs); });
    m_nav->setCurrentRow(SetupPage);
}

void MainWindow::buildMenus()
{
    m_fileMenu = menuBar()->addMenu(QString());
    m_openProfile = m_fileMenu->addAction(QString(), this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Load profile"), m_setup->runsFolder(),
                                                       tr("DDP Desk profiles (*.json)"));
        QString err;
        if (!f.isEmpty() && !m_setup->loadProfile(f, &err))
            QMessageBox::warning(this, tr("Load profile"), err);
    });
    m_openProfile->setShortcut(QKeySequence::Open);
    m_saveProfile = m_fileMenu->addAction(QString(), this, [this] {
        const QString f = QFileDialog::getSaveFileName(this, tr("Save profile"), m_setup->runsFolder(),
                                                       tr("DDP Desk profiles (*.json)"));
        QString err;
        if (!f.isEmpty() && !m_setup->saveProfile(f, &err))
            QMessageBox::warning(this, tr("Save profile"), err);
    });
    m_saveProfile->setShortcut(QKeySequence::Save);
    m_fileMenu->addSeparator();
    m_quit = m_fileMenu->addAction(QString(), this, &QWidget::close);
    m_quit->setShortcuts({QKeySequence(Qt::ALT | Qt::Key_F4), QKeySequence(Qt::CTRL | Qt::Key_Q)});

    m_runMenu = menuBar()->addMenu(QString());
    m_startAct = m_runMenu->addAction(icon(IconId::Start), QString(), this, [this] {
        m_setup->revalidate();
        if (m_setup->canStart())
            startRun(m_setup->config());
        else {
            showPage(SetupPage);
            statusBar()->showMessage(m_setup->problemText(), kStatusMs);
        }
    });
    m_startAct->setShortcut(Qt::Key_F5);
    m_stopAct = m_runMenu->addAction(icon(IconId::Stop), QString(), this, &MainWindow::stopRun);
    m_stopAct->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
    m_stopAct->setEnabled(false);
    m_demoAct = m_runMenu->addAction(icon(IconId::Demo), QString(), this, &MainWindow::startDemo);
    m_demoAct->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    m_runMenu->addSeparator();
    m_diagnoseAct = m_runMenu->addAction(icon(IconId::Doctor), QString(), this, [this] { diagnose(); });
    m_diagnoseAct->setShortcut(Qt::Key_F7);

    m_viewMenu = menuBar()->addMenu(QString());
    const IconId icons[] = {IconId::Setup, IconId::Run, IconId::Doctor, IconId::Compare, IconId::History};
    for (int i = 0; i < PageCount; ++i) {
        QAction* a = m_viewMenu->addAction(icon(icons[i]), QString(), this, [this, i] { showPage(i); });
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
        m_pageActs << a;
    }

    m_settingsMenu = menuBar()->addMenu(QString());
    m_languageMenu = m_settingsMenu->addMenu(QString());
    m_languageGroup = new QActionGroup(this);
    for (const QString& code : availableLanguages()) {
        QAction* a = m_languageMenu->addAction(languageDisplayName(code), this, [this, code] { setLanguage(code); });
        a->setCheckable(true);
        a->setData(code);
        m_languageGroup->addAction(a);
    }
    m_runsFolderAct = m_settingsMenu->addAction(QString(), this, &MainWindow::chooseRunsFolder);

    m_helpMenu = menuBar()->addMenu(QString());
    m_aboutAct = m_helpMenu->addAction(icon(IconId::App), QString(), this, [this] {
        QMessageBox::about(this, tr("About DDP Desk"),
                           tr("<h3>DDP Desk %1</h3><p>Point-and-click Distributed Data Parallel training: pick "
                              "workers or GPUs, press Start, watch every rank train, and let the doctor explain "
                              "rendezvous problems.</p><p>Built with Qt %2.</p>")
                               .arg(QApplication::applicationVersion(), QString::fromLatin1(qVersion())));
    });
    m_aboutQtAct = m_helpMenu->addAction(QString(), qApp, &QApplication::aboutQt);
}

void MainWindow::retranslate()
{
    setWindowTitle(tr("DDP Desk"));
    const QStringList pages = {tr("Setup"), tr("Run"), tr("Doctor"), tr("Compare"), tr("History")};
    for (int i = 0; i < PageCount; ++i) {
        m_nav->item(i)->setText(pages[i]);
        m_pageActs[i]->setText(pages[i]);
    }
    m_fileMenu->setTitle(tr("&File"));
    m_openProfile->setText(tr("&Open profile..."));
    m_saveProfile->setText(tr("&Save profile..."));
    m_quit->setText(tr("E&xit"));
    m_runMenu->setTitle(tr("&Run"));
    m_startAct->setText(tr("&Start"));
    m_stopAct->setText(tr("S&top"));
    m_demoAct->setText(tr("Run &demo"));
    m_diagnoseAct->setText(tr("&Diagnose"));
    m_viewMenu->setTitle(tr("&View"));
    m_settingsMenu->setTitle(tr("&Settings"));
    m_languageMenu->setTitle(tr("&Language"));
    m_runsFolderAct->setText(tr("&Runs folder..."));
    m_helpMenu->setTitle(tr("&Help"));
    m_aboutAct->setText(tr("&About DDP Desk"));
    m_aboutQtAct->setText(tr("About &Qt"));
    for (QAction* a : m_languageGroup->actions())
        a->setChecked(a->data().toString() == currentLanguage());
    setRunning(m_supervisor && m_supervisor->isRunning());
    if (m_gpus) {
        const auto& st = m_gpus->status();
        m_statusGpu->setText(st.available ? tr("%n GPU(s), driver %1", nullptr, st.deviceCount)
                                                .arg(QString::fromStdString(st.driverVersion))
                                          : tr("No GPU: CPU workers"));
        m_statusGpu->setToolTip(QString::fromStdString(st.reason));
    }
}

void MainWindow::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        retranslate();
    QMainWindow::changeEvent(e);
}

void MainWindow::setLanguage(const QString& code)
{
    if (!applyLanguage(code))
        statusBar()->showMessage(tr("The %1 translation is missing; staying in English.").arg(code), kStatusMs);
    QSettings().setValue(QStringLiteral("language"), currentLanguage());
    for (QAction* a : m_languageGroup->actions())
        a->setChecked(a->data().toString() == currentLanguage());
}

MainWindow::Page MainWindow::currentPage() const { return Page(m_stack->currentIndex()); }

void MainWindow::showRecordedRun(const QString& folder, const QString& name)
{
    // The Run page belongs to a live run while one is going; reopening must not hide it.
    if (m_supervisor && m_supervisor->isRunning()) {
        statusBar()->showMessage(tr("A run is in progress; reopen %1 when it has finished.").arg(name), kStatusMs);
        return;
    }
    auto model = std::make_unique<launch::RunModel>();
    QString error;
    if (!launch::replayRecordedRun(folder, model.get(), &error)) {
        QMessageBox::warning(this, tr("Cannot reopen run"), error);
        return;
    }
    m_run->showModel(model.get(), name);
    m_replay = std::move(model); // after showModel, so the panel never holds the old model once it is freed
    showPage(RunPage);
}

void MainWindow::showPage(int page)
{
    if (page >= 0 && page < PageCount)
        m_nav->setCurrentRow(page);
}

void MainWindow::restoreSettings()
{
    QSettings s;
    const QString runs = s.value(QStringLiteral("runsFolder"), defaultRunsFolder()).toString();
    QDir().mkpath(runs);
    m_setup->setRunsFolder(runs);
    m_history->setRunsFolder(runs);
    const QByteArray cfg = s.value(QStringLiteral("lastConfig")).toByteArray();
    if (!cfg.isEmpty()) {
        const QJsonDocument doc = QJsonDocument::fromJson(cfg);
        if (doc.isObject())
            m_setup->setConfig(launch::RunConfig::fromJson(doc.object()));
    }
    if (!restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(1280, 820);
    restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    showPage(s.value(QStringLiteral("window/page"), int(SetupPage)).toInt());
}

void MainWindow::saveSettings() const
{
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
    s.setValue(QStringLiteral("window/page"), m_stack->currentIndex());
    s.setValue(QStringLiteral("runsFolder"), m_setup->runsFolder());
    s.setValue(QStringLiteral("language"), currentLanguage());
    s.setValue(QStringLiteral("lastConfig"), QJsonDocument(m_setup->config().toJson()).toJson(QJsonDocument::Compact));
}

void MainWindow::closeEvent(QCloseEvent* e)
{
    if (m_supervisor && m_supervisor->isRunning()) {
        const auto answer = QMessageBox::question(this, tr("Stop the run?"),
                                                  tr("A run is in progress. Stop every worker and exit?"));
        if (answer != QMessageBox::Yes) {
            e->ignore();
            return;
        }
        m_supervisor->stop(QStringLiteral("the application closed"));
    }
    saveSettings();
    QMainWindow::closeEvent(e);
}

void MainWindow::chooseRunsFolder()
{
    const QString f = QFileDialog::getExistingDirectory(this, tr("Runs folder"), m_setup->runsFolder());
    if (f.isEmpty())
        return;
    m_setup->setRunsFolder(f);
    m_history->setRunsFolder(f);
}

void MainWindow::pollGpus()
{
    QVector<GpuChoice> gpus;
    for (const monitor::GpuSample& s : m_gpus->sample()) {
        if (s.lost)
            continue;
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

launch::RunConfig MainWindow::demoConfig() const
{
    launch::RunConfig c;
    c.workload = QStringLiteral("fashion-mnist");
    const int gpus = m_gpus ? m_gpus->deviceCount() : 0;
    if (gpus > 0) {
        QStringList ids;
        for (int i = 0; i < gpus; ++i)
            ids << QString::number(i);
        c.devices = ids.join(QLatin1Char(','));
        c.nproc = gpus;
    } else {
        c.devices = QStringLiteral("cpu");
        c.nproc = 2;
    }
    c.epochs = 1;
    c.batchSize = 64; // learning rate: the workload's own default, tuned by the engine
    c.outDir = QDir(m_setup->runsFolder())
                   .filePath(QStringLiteral("demo-") + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
    return c;
}

void MainWindow::startDemo()
{
    const launch::RunConfig c = demoConfig();
    m_setup->setConfig(c); // the user sees (and can reuse) what the demo runs
    startRun(c);
}

bool MainWindow::startRun(const launch::RunConfig& config)
{
    if ((m_supervisor && m_supervisor->isRunning()) || m_preflightPending)
        return false;
    const QVector<launch::ConfigProblem> problems = config.validate();
    if (!problems.isEmpty()) {
        showPage(SetupPage);
        statusBar()->showMessage(launch::RunConfig::problemsText(problems), kStatusMs);
        return false;
    }
    if (!m_preflight || m_doctor->isBusy())
        return launchNow(config);
    // The doctor looks at the store first: a stale FileStore or a taken port fails in seconds here instead of
    // hanging for the 30-minute Gloo timeout.
    doctor::DoctorRequest r;
    r.store = config.effectiveStore().toStdString();
    r.worldSize = config.worldSize();
    r.nodeRank = config.nodeRank;
    r.probeTimeoutSec = 1.0;
    m_pendingConfig = config;
    m_preflightPending = true;
    m_statusRun->setText(tr("Checking the store..."));
    m_doctor->diagnose(r);
    return true;
}

bool MainWindow::launchNow(const launch::RunConfig& config)
{
    auto* sup = new launch::Supervisor(this);
    QVector<launch::ConfigProblem> problems;
    followRun(sup);
    if (!sup->start(config, &problems)) {
        statusBar()->showMessage(tr("Cannot start: %1").arg(launch::RunConfig::problemsText(problems)), kStatusMs);
        sup->deleteLater();
        setRunning(false);
        return false;
    }
    setRunning(true);
    emit runStarted(sup);
    return true;
}

void MainWindow::followRun(launch::Supervisor* run)
{
    // Only runs this window started are its to delete; a sweep's runs belong to the SweepRunner.
    if (m_supervisor && m_supervisor != run && m_supervisor->parent() == this && !m_supervisor->isRunning())
        m_supervisor->deleteLater();
    m_supervisor = run;
    m_run->attach(run);
    connect(run, &launch::Supervisor::started, this, [this] { setRunning(true); });
    connect(run, &launch::Supervisor::finished, this, [this, run](bool ok) {
        if (run == m_supervisor)
            setRunning(false);
        m_history->refresh();
        statusBar()->showMessage(ok ? tr("The run finished.") : tr("The run failed or was stopped."), kStatusMs);
        emit runFinished(ok);
    });
    connect(run, &launch::Supervisor::stallDetected, this, [this, run](const QString&) {
        // The run looks stuck: show the doctor's view of the live store.
        doctor::DoctorRequest r;
        r.store = run->config().effectiveStore().toStdString();
        r.worldSize = run->config().worldSize();
        r.nodeRank = run->config().nodeRank;
        r.jobRunning = true;
        m_doctor->diagnose(r);
        statusBar()->showMessage(tr("A rank stopped making progress; see the Doctor page."), kStatusMs);
    });
    showPage(RunPage);
}

void MainWindow::setRunning(bool running)
{
    m_setup->setRunning(running);
    m_stopAct->setEnabled(running);
    m_startAct->setEnabled(!running);
    m_demoAct->setEnabled(!running);
    m_statusRun->setText(running ? tr("Running") : tr("Idle"));
}

void MainWindow::stopRun()
{
    if (m_compare->isRunning())
        m_compare->stopSweep();
    if (m_supervisor && m_supervisor->isRunning()) {
        m_supervisor->stop();
        statusBar()->showMessage(tr("Stopping every worker..."), kStatusMs);
    }
}

void MainWindow::diagnose()
{
    const launch::RunConfig c = m_supervisor ? m_supervisor->config() : m_setup->config();
    doctor::DoctorRequest r;
    r.store = c.effectiveStore().toStdString();
    r.worldSize = c.worldSize();
    r.nodeRank = c.nodeRank;
    r.jobRunning = m_supervisor && m_supervisor->isRunning();
    showPage(DoctorPage);
    m_doctor->diagnose(r);
}

} // namespace ddpdesk::ui
