#pragma once

// The application window: a left navigation (Setup, Run, Doctor, Compare, History) over stacked pages, menus
// with Windows-style shortcuts, a status bar, and everything that must survive a restart (geometry, dock
// state, language, runs folder, the last configuration) kept in QSettings.

#include "launch/run_config.h"
#include "launch/supervisor.h"
#include "launch/warm_workers.h"

#include <QMainWindow>
#include <QPointer>

#include <memory>

class QActionGroup;
class QLabel;
class QListWidget;
class QMenu;
class QStackedWidget;
class QTimer;

namespace ddpdesk::monitor {
class GpuReader;
}

namespace ddpdesk::ui {

class SetupPanel;
class RunPanel;
class DoctorPanel;
class ComparePanel;
class HistoryPanel;
class RunLoader;

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
    launch::Supervisor* supervisor() const { return m_supervisor; }
    Page currentPage() const;

    static QString defaultRunsFolder(); // <AppDataLocation>/runs, without a doubled "DDP Desk/DDP Desk"
    launch::RunConfig demoConfig() const;
    void setPreflightEnabled(bool on) { m_preflight = on; } // the doctor before every Start (on by default)
    // Worker processes for the next Start wait with LibTorch loaded (Settings menu; on by default).
    launch::WarmWorkers* warmWorkers() const { return m_warm; }
    void setWarmWorkersEnabled(bool on);

public slots:
    void showPage(int page);
    // Starts a run (after the doctor's pre-flight check). False when it cannot start; the reason is shown.
    bool startRun(const launch::RunConfig& config);
    void startDemo();
    void stopRun();
    void diagnose();
    void setLanguage(const QString& code);

signals:
    void runStarted(launch::Supervisor* run);
    void runFinished(bool ok);

protected:
    void closeEvent(QCloseEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    static constexpr int kStatusMs = 6000; // how long a status-bar message stays

    // main_window.cpp: pages and status bar; main_window_menus.cpp: menus, actions, texts;
    // main_window_settings.cpp: what survives a restart; main_window_runs.cpp: start, stop, diagnose.
    void buildUi();
    void buildMenus();
    void retranslate();
    void restoreSettings();
    void saveSettings() const;
    void pollGpus();
    bool launchNow(const launch::RunConfig& config);
    void followRun(launch::Supervisor* run);
    void setRunning(bool running);
    void chooseRunsFolder();
    void showRecordedRun(const QString& folder, const QString& name);
    void showReplay(std::shared_ptr<launch::RunModel> model, const QString& name);
    void refillWarmWorkers();

    QListWidget* m_nav;
    QStackedWidget* m_stack;
    SetupPanel* m_setup;
    RunPanel* m_run;
    DoctorPanel* m_doctor;
    ComparePanel* m_compare;
    HistoryPanel* m_history;
    QLabel* m_statusRun;
    QLabel* m_statusGpu;

    QMenu *m_fileMenu, *m_runMenu, *m_viewMenu, *m_settingsMenu, *m_languageMenu, *m_helpMenu;
    QAction *m_openProfile, *m_saveProfile, *m_quit, *m_startAct, *m_stopAct, *m_demoAct, *m_diagnoseAct,
        *m_runsFolderAct, *m_warmAct, *m_aboutAct, *m_aboutQtAct;
    QList<QAction*> m_pageActs;
    QActionGroup* m_languageGroup;

    QPointer<launch::Supervisor> m_supervisor;
    launch::WarmWorkers* m_warm;
    std::unique_ptr<monitor::GpuReader> m_gpus;
    std::shared_ptr<launch::RunModel> m_replay; // a finished run from History, shown on the Run page
    RunLoader* m_loader;
    QTimer* m_gpuTimer;
    launch::RunConfig m_pendingConfig; // waiting for the pre-flight doctor
    bool m_preflightPending = false;
    bool m_preflight = true;
    bool m_warmArmed = false; // the window is up: waiting workers may start
};

} // namespace ddpdesk::ui
