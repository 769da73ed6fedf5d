// RunControl: the demo configuration, the doctor's pre-flight before Start, following a live run, Stop,
// Diagnose, the warm workers between runs, and reopening a recorded run on the Run page.
#include "run_control.h"

#include "compare_panel.h"
#include "doctor_panel.h"
#include "launch/model/run_model.h"
#include "main_window.h"
#include "run_loader.h"
#include "run_panel.h"
#include "setup_panel.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QTimer>

namespace ddpdesk::ui {

namespace {
constexpr int kRunControlWarmDelayMs = 1500; // after the window is up
constexpr int kDemoEpochs = 2;               // the README's and installer/demo.sh's default
} // namespace

RunControl::RunControl(SetupPanel& setup, RunPanel& run, DoctorPanel& doctor, ComparePanel& compare,
                       QObject* parent)
    : QObject(parent), m_setup(setup), m_run(run), m_doctor(doctor), m_compare(compare) {
    m_warm = new launch::WarmWorkers(this);
    m_loader = new RunLoader(this);
    connect(m_loader, &RunLoader::loaded, this, &RunControl::showReplay);
    connect(m_loader, &RunLoader::notice, this, [this](const QString& t) { emit message(t, true); });
    connect(m_loader, &RunLoader::failed, this, [this](const QString&, const QString& error) {
        emit messageCleared();
        emit reopenFailed(error);
    });
    connect(&m_doctor, &DoctorPanel::diagnosed, this, [this](int errors, int) {
        if (!m_preflightPending) return;
        m_preflightPending = false;
        if (errors > 0) {
            emit pageRequested(MainWindow::DoctorPage);
            emit message(tr("The run was not started: the doctor found a problem."), true);
            return;
        }
        launchNow(m_pendingConfig);
    });
    // Once the window is up, workers for the next Start load beside the user's first look at it.
    QTimer::singleShot(kRunControlWarmDelayMs, this, [this] {
        m_warmArmed = true;
        refillWarmWorkers();
        connect(&m_setup, &SetupPanel::configChanged, this, &RunControl::refillWarmWorkers);
    });
}

void RunControl::shutdown() {
    if (m_supervisor) m_supervisor->stop(tr("the application closed"));
    // m_replay goes after the Run page does, but the page must not point at it meanwhile.
    if (m_replay && m_run.model() == m_replay.get()) m_run.showModel(nullptr, QString());
}

launch::RunConfig RunControl::demoConfig(int gpuCount, const QString& runsFolder) {
    QVector<int> gpus;
    for (int i = 0; i < gpuCount; ++i)
        gpus << i;
    return demoConfig(gpus, runsFolder);
}

launch::RunConfig RunControl::demoConfig(const QVector<int>& gpus, const QString& runsFolder) {
    launch::RunConfig c;
    c.workload = QStringLiteral("fashion-mnist");
    if (!gpus.isEmpty()) {
        QStringList ids;
        for (int i : gpus)
            ids << QString::number(i);
        c.devices = ids.join(QLatin1Char(','));
        c.nproc = int(gpus.size());
    } else {
        c.devices = QStringLiteral("cpu");
        c.nproc = 2;
    }
    // As installer/demo.sh and the README say: 2 epochs, or $DDPDESK_DEMO_EPOCHS. A value that is no count
    // of 1 or more keeps the 2 (0 would mean the worker's own default, not what the user asked for).
    bool ok = false;
    const int epochs = qEnvironmentVariableIntValue("DDPDESK_DEMO_EPOCHS", &ok);
    c.training.epochs = ok && epochs >= 1 ? epochs : kDemoEpochs;
    c.training.batchSize = 64; // learning rate: the workload's own default, tuned by the engine
    c.outDir = QDir(runsFolder)
                   .filePath(QStringLiteral("demo-") +
                             QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
    return c;
}

bool RunControl::start(const launch::RunConfig& config) {
    if (isRunning() || m_preflightPending) return false;
    const QVector<launch::ConfigProblem> problems = config.validate();
    if (!problems.isEmpty()) {
        emit pageRequested(MainWindow::SetupPage);
        emit message(launch::RunConfig::problemsText(problems), true);
        return false;
    }
    // A default store whose folder the run is still to make holds nothing stale to look at.
    const bool freshStore = config.store.isEmpty() && config.nnodes == 1 &&
                            !QFileInfo::exists(QFileInfo(config.storeFilePath()).absolutePath());
    if (!m_preflight || m_doctor.isBusy() || freshStore) return launchNow(config);
    // The doctor looks at the store first: a stale FileStore or a taken port fails in seconds here instead of
    // hanging for the 30-minute Gloo timeout.
    doctor::DoctorRequest r;
    r.store = config.effectiveStore().toStdString();
    r.worldSize = config.worldSize();
    r.nodeRank = config.nodeRank;
    r.probeTimeoutSec = 1.0;
    m_pendingConfig = config;
    m_preflightPending = true;
    emit stateTextChanged(tr("Checking the store..."));
    m_doctor.diagnose(r);
    return true;
}

bool RunControl::launchNow(const launch::RunConfig& config) {
    auto* sup = new launch::Supervisor(this);
    sup->setWarmWorkers(enabledWarmWorkers());
    QVector<launch::ConfigProblem> problems;
    follow(sup);
    if (!sup->start(config, &problems)) {
        emit message(tr("Cannot start: %1").arg(launch::RunConfig::problemsText(problems)), true);
        sup->deleteLater();
        setRunning(false);
        return false;
    }
    setRunning(true);
    emit runStarted(sup);
    return true;
}

void RunControl::follow(launch::Supervisor* run) {
    // Only runs started here are ours to delete; a sweep's runs belong to the SweepRunner.
    if (m_supervisor && m_supervisor != run && m_supervisor->parent() == this && !m_supervisor->isRunning())
        m_supervisor->deleteLater();
    m_supervisor = run;
    m_run.attach(run);
    // The status bar speaks of the run on screen: what it said of the previous one ("The run failed or was
    // stopped.") must not stay up while this one trains.
    emit messageCleared();
    connect(run, &launch::Supervisor::started, this, [this] { setRunning(true); });
    connect(run, &launch::Supervisor::finished, this, [this, run](bool ok) {
        if (run == m_supervisor) setRunning(false);
        refillWarmWorkers();
        // Only of the run on the Run page: one that was replaced meanwhile ends without a word there.
        if (run == m_supervisor)
            emit message(ok ? tr("The run finished.") : tr("The run failed or was stopped."), true);
        emit runFinished(ok);
    });
    connect(run, &launch::Supervisor::stallDetected, this, [this, run](const QString&) {
        // The run looks stuck: show the doctor's view of the live store (and of the other nodes).
        doctor::DoctorRequest r = run->diagnosisRequest();
        r.jobRunning = true;
        m_doctor.diagnose(r);
        emit message(tr("A rank stopped making progress; see the Doctor page."), true);
    });
    emit pageRequested(MainWindow::RunPage);
}

void RunControl::setRunning(bool running) {
    emit runningChanged(running);
    emit stateTextChanged(running ? tr("Running") : tr("Idle"));
}

void RunControl::retranslate() {
    setRunning(isRunning());
}

void RunControl::stop() {
    if (m_compare.isRunning()) m_compare.stopSweep();
    if (isRunning()) {
        m_supervisor->stop(tr("stopped by the user"));
        emit message(tr("Stopping every worker..."), true);
    }
}

void RunControl::stopForExit() {
    if (isRunning()) m_supervisor->stop(tr("the application closed"));
}

void RunControl::diagnose() {
    doctor::DoctorRequest r;
    if (m_supervisor) { // the run shown: its store, and on node 0 what the other nodes' launchers report
        r = m_supervisor->diagnosisRequest();
    } else {
        const launch::RunConfig c = m_setup.config();
        r.store = c.effectiveStore().toStdString();
        r.worldSize = c.worldSize();
        r.nodeRank = c.nodeRank;
    }
    r.jobRunning = isRunning();
    emit pageRequested(MainWindow::DoctorPage);
    m_doctor.diagnose(r);
}

void RunControl::showRecordedRun(const QString& folder, const QString& name) {
    // The Run page belongs to a live run while one is going; reopening must not hide it.
    if (isRunning()) {
        emit message(tr("A run is in progress; reopen %1 when it has finished.").arg(name), true);
        return;
    }
    if (m_loader->isLoading()) {
        emit message(tr("Still opening the previous run; try %1 again in a moment.").arg(name), true);
        return;
    }
    emit message(tr("Opening %1...").arg(name), false);
    m_loader->load(folder, name);
}

void RunControl::showReplay(std::shared_ptr<launch::RunModel> model, const QString& name) {
    emit messageCleared();
    if (isRunning()) return; // a run started while the recording was read: its page wins
    m_run.showModel(model.get(), name);
    m_replay = std::move(model); // after showModel, so the panel never holds the old model once it is freed
    emit pageRequested(MainWindow::RunPage);
}

void RunControl::setWarmWorkersEnabled(bool on) {
    if (on != m_warmEnabled) {
        m_warmEnabled = on;
        emit warmWorkersEnabledChanged(on);
    }
    if (on)
        refillWarmWorkers();
    else
        m_warm->clear();
}

// Keeps the Setup page's worker count waiting, between runs only: loading LibTorch takes CPU a run would
// miss.
void RunControl::refillWarmWorkers() {
    if (!m_warmArmed || !m_warmEnabled) return;
    if (isRunning() || m_compare.isRunning()) return;
    const launch::RunConfig config = m_setup.config();
    if (config.isScript()) return;
    QString why;
    const QString worker = launch::Supervisor::findWorker(&why);
    if (!worker.isEmpty()) m_warm->fill(worker, config.nproc);
}

} // namespace ddpdesk::ui
