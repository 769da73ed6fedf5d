#pragma once

// The application window: owns the left navigation (Setup, Run, Doctor, Compare, History) over the stacked
// pages and the status bar, and composes the parts that do the rest: WindowMenus (menus and actions),
// RunControl (starting, following and stopping runs, the pre-flight doctor, warm workers, reopened runs),
// GpuPoller (the GPUs for Setup and the status bar) and WindowSettings (what survives a restart).

#include "launch/config/run_config.h"
#include "launch/run/supervisor.h"
#include "launch/run/warm_workers.h"

#include <QMainWindow>

class QLabel;
class QListWidget;
class QStackedWidget;

namespace ddpdesk::ui {

class SetupPanel;
class RunPanel;
class DoctorPanel;
class ComparePanel;
class HistoryPanel;
class GpuPoller;
class RunControl;
class WindowMenus;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    enum Page { SetupPage, RunPage, DoctorPage, ComparePage, HistoryPage, PageCount };

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    SetupPanel* setupPanel() const { return m_setup; }
    RunPanel* runPanel() const { return m_run; }
    DoctorPanel* doctorPanel() const { return m_doctor; }
    ComparePanel* comparePanel() const { return m_compare; }
    HistoryPanel* historyPanel() const { return m_history; }
    launch::Supervisor* supervisor() const;
    Page currentPage() const;

    static QString defaultRunsFolder(); // <AppDataLocation>/runs, without a doubled "DDP Desk/DDP Desk"
    launch::RunConfig demoConfig() const;
    void setPreflightEnabled(bool on); // the doctor before every Start (on by default)
    // Worker processes for the next Start wait with LibTorch loaded (Settings menu; on by default).
    launch::WarmWorkers* warmWorkers() const;
    void setWarmWorkersEnabled(bool on);

public slots:
    void showPage(int page);
    // Starts a run (after the doctor's pre-flight check). False when it cannot start; the reason is shown.
    bool startRun(const launch::RunConfig& config);
    void startDemo();
    void stopRun();
    void diagnose();
    void setLanguage(const QString& code);
    // A run folder kept anywhere, or a sweep's folder (its sizes): listed and selected on the History page
    // (`ddpdesk RUN_DIR`, File > Open run...). False when it is no run folder; History and the status bar
    // say why (and *why too).
    bool openRunFolder(const QString& folder, QString* why = nullptr);

signals:
    void runStarted(launch::Supervisor* run);
    void runFinished(bool ok);

protected:
    void closeEvent(QCloseEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    static constexpr int kStatusMs = 6000; // how long a status-bar message stays

    void buildPages();
    void connectParts();
    void retranslate();
    void restoreSettings();
    void saveSettings() const;
    void startFromSetup(bool explain); // Start as pressed: the Setup form's configuration, or why not
    void setRunsFolder(const QString& folder);
    void showGpuStatus();

    QListWidget* m_nav;
    QStackedWidget* m_stack;
    SetupPanel* m_setup;
    RunPanel* m_run;
    DoctorPanel* m_doctor;
    ComparePanel* m_compare;
    HistoryPanel* m_history;
    QLabel* m_statusRun;
    QLabel* m_statusGpu;

    WindowMenus* m_menus;
    RunControl* m_runs; // created after the pages, so it goes after them
    GpuPoller* m_gpus;
};

} // namespace ddpdesk::ui
