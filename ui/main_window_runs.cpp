// MainWindow's run control: the demo configuration, the doctor's pre-flight before Start, following a live
// run, Stop, and Diagnose.
#include "main_window.h"

#include "compare_panel.h"
#include "doctor_panel.h"
#include "history_panel.h"
#include "monitor/gpu_reader.h"
#include "run_panel.h"
#include "setup_panel.h"

#include <QAction>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QStatusBar>

namespace ddpdesk::ui {

launch::RunConfig MainWindow::demoConfig() const {
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
    c.training.epochs = 1;
    c.training.batchSize = 64; // learning rate: the workload's own default, tuned by the engine
    c.outDir = QDir(m_setup->runsFolder())
                   .filePath(QStringLiteral("demo-") +
                             QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
    return c;
}

void MainWindow::startDemo() {
    const launch::RunConfig c = demoConfig();
    m_setup->setConfig(c); // the user sees (and can reuse) what the demo runs
    startRun(c);
}

bool MainWindow::startRun(const launch::RunConfig& config) {
    if ((m_supervisor && m_supervisor->isRunning()) || m_preflightPending) return false;
    const QVector<launch::ConfigProblem> problems = config.validate();
    if (!problems.isEmpty()) {
        showPage(SetupPage);
        statusBar()->showMessage(launch::RunConfig::problemsText(problems), kStatusMs);
        return false;
    }
    // A default store whose folder the run is still to make holds nothing stale to look at.
    const bool freshStore = config.store.isEmpty() && config.nnodes == 1 &&
                            !QFileInfo::exists(QFileInfo(config.storeFilePath()).absolutePath());
    if (!m_preflight || m_doctor->isBusy() || freshStore) return launchNow(config);
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

bool MainWindow::launchNow(const launch::RunConfig& config) {
    auto* sup = new launch::Supervisor(this);
    sup->setWarmWorkers(m_warmAct->isChecked() ? m_warm : nullptr);
    QVector<launch::ConfigProblem> problems;
    followRun(sup);
    if (!sup->start(config, &problems)) {
        statusBar()->showMessage(tr("Cannot start: %1").arg(launch::RunConfig::problemsText(problems)),
                                 kStatusMs);
        sup->deleteLater();
        setRunning(false);
        return false;
    }
    setRunning(true);
    emit runStarted(sup);
    return true;
}

void MainWindow::followRun(launch::Supervisor* run) {
    // Only runs this window started are its to delete; a sweep's runs belong to the SweepRunner.
    if (m_supervisor && m_supervisor != run && m_supervisor->parent() == this && !m_supervisor->isRunning())
        m_supervisor->deleteLater();
    m_supervisor = run;
    m_run->attach(run);
    connect(run, &launch::Supervisor::started, this, [this] { setRunning(true); });
    connect(run, &launch::Supervisor::finished, this, [this, run](bool ok) {
        if (run == m_supervisor) setRunning(false);
        refillWarmWorkers();
        m_history->refresh();
        statusBar()->showMessage(ok ? tr("The run finished.") : tr("The run failed or was stopped."),
                                 kStatusMs);
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

void MainWindow::setRunning(bool running) {
    m_setup->setRunning(running);
    m_stopAct->setEnabled(running);
    m_startAct->setEnabled(!running);
    m_demoAct->setEnabled(!running);
    m_statusRun->setText(running ? tr("Running") : tr("Idle"));
}

void MainWindow::stopRun() {
    if (m_compare->isRunning()) m_compare->stopSweep();
    if (m_supervisor && m_supervisor->isRunning()) {
        m_supervisor->stop(tr("stopped by the user"));
        statusBar()->showMessage(tr("Stopping every worker..."), kStatusMs);
    }
}

void MainWindow::diagnose() {
    const launch::RunConfig c = m_supervisor ? m_supervisor->config() : m_setup->config();
    doctor::DoctorRequest r;
    r.store = c.effectiveStore().toStdString();
    r.worldSize = c.worldSize();
    r.nodeRank = c.nodeRank;
    r.jobRunning = m_supervisor && m_supervisor->isRunning();
    showPage(DoctorPage);
    m_doctor->diagnose(r);
}

void MainWindow::setWarmWorkersEnabled(bool on) {
    m_warmAct->setChecked(on); // no signal when unchanged
    if (on)
        refillWarmWorkers();
    else
        m_warm->clear();
}

// Keeps the Setup page's worker count waiting, between runs only: loading LibTorch takes CPU a run would
// miss.
void MainWindow::refillWarmWorkers() {
    if (!m_warmArmed || !m_warmAct->isChecked()) return;
    if ((m_supervisor && m_supervisor->isRunning()) || m_compare->isRunning()) return;
    const launch::RunConfig config = m_setup->config();
    if (config.isScript()) return;
    QString why;
    const QString worker = launch::Supervisor::findWorker(&why);
    if (!worker.isEmpty()) m_warm->fill(worker, config.nproc);
}

} // namespace ddpdesk::ui
