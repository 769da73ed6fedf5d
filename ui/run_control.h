#pragma once

// Everything around runs: owns the live run's Supervisor (and the ones it started), the doctor's pre-flight
// check before Start, Stop and Diagnose, the waiting warm workers, and the finished run reopened from
// History. It works the pages through their public API (references given at construction) and tells
// MainWindow what to show through signals: the page to open, status-bar messages, the run state for the
// status label.

#include "launch/config/run_config.h"
#include "launch/run/supervisor.h"
#include "launch/run/warm_workers.h"

#include <QObject>
#include <QPointer>

#include <memory>

namespace ddpdesk::ui {

class ComparePanel;
class DoctorPanel;
class RunLoader;
class RunPanel;
class SetupPanel;

class RunControl : public QObject {
    Q_OBJECT
public:
    RunControl(SetupPanel& setup, RunPanel& run, DoctorPanel& doctor, ComparePanel& compare,
               QObject* parent = nullptr);

    // The Fashion-MNIST demo: 2 epochs ($DDPDESK_DEMO_EPOCHS) on every GPU, or on 2 CPU workers without one.
    static launch::RunConfig demoConfig(int gpuCount, const QString& runsFolder);
    static launch::RunConfig demoConfig(const QVector<int>& gpus, const QString& runsFolder); // these GPUs

    launch::Supervisor* supervisor() const { return m_supervisor; }
    bool isRunning() const { return m_supervisor && m_supervisor->isRunning(); }
    void setPreflightEnabled(bool on) { m_preflight = on; }
    launch::WarmWorkers* warmWorkers() const { return m_warm; }
    bool warmWorkersEnabled() const { return m_warmEnabled; }
    launch::WarmWorkers* enabledWarmWorkers() const { return m_warmEnabled ? m_warm : nullptr; }
    // The window goes: stops the run and takes the reopened run off the Run page before it is freed.
    void shutdown();

public slots:
    // False when it cannot start; the reason goes out through message().
    bool start(const launch::RunConfig& config);
    void stop();
    void stopForExit(); // the user closes the window during a run
    void diagnose();
    void follow(launch::Supervisor* run); // a run started here or by a Compare sweep
    void showRecordedRun(const QString& folder, const QString& name);
    void setWarmWorkersEnabled(bool on);
    void retranslate(); // announces the run state again, in the current language

signals:
    void runStarted(launch::Supervisor* run);
    void runFinished(bool ok);
    void runningChanged(bool running);
    void stateTextChanged(const QString& text);    // Running, Idle, Checking the store...
    void message(const QString& text, bool timed); // for the status bar; timed: goes after a while
    void messageCleared();
    void pageRequested(int page); // a MainWindow::Page
    void reopenFailed(const QString& error);
    void warmWorkersEnabledChanged(bool on);

private:
    bool launchNow(const launch::RunConfig& config);
    void setRunning(bool running);
    void showReplay(std::shared_ptr<launch::RunModel> model, const QString& name);
    void refillWarmWorkers();

    SetupPanel& m_setup;
    RunPanel& m_run;
    DoctorPanel& m_doctor;
    ComparePanel& m_compare;

    QPointer<launch::Supervisor> m_supervisor;
    launch::WarmWorkers* m_warm;
    RunLoader* m_loader;
    std::shared_ptr<launch::RunModel> m_replay; // a finished run from History, shown on the Run page
    launch::RunConfig m_pendingConfig;          // waiting for the pre-flight doctor
    bool m_preflightPending = false;
    bool m_preflight = true;
    bool m_warmEnabled = true;
    bool m_warmArmed = false; // the window is up: waiting workers may start
};

} // namespace ddpdesk::ui
