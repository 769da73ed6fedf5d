#pragma once

// The window's menu bar: owns every menu and action (with Windows-style shortcuts), their texts in the
// current language, the profile and runs-folder dialogs and About. It acts on nothing else: each command goes
// out as a signal for MainWindow to wire, and the run state and settings come in through the slots.

#include <QList>
#include <QObject>

class QAction;
class QActionGroup;
class QMainWindow;
class QMenu;

namespace ddpdesk::ui {

class SetupPanel;

class WindowMenus : public QObject {
    Q_OBJECT
public:
    // Fills window's menu bar; the profile dialogs load into and save from setup.
    WindowMenus(QMainWindow& window, SetupPanel& setup);

public slots:
    void retranslate();
    void setPageNames(const QStringList& names); // the View menu's entries, one per MainWindow::Page
    void setRunning(bool running);               // Start and Run demo off, Stop on
    void setWarmWorkersChecked(bool on);
    void syncLanguage(); // ticks the current language

signals:
    void startRequested();
    void stopRequested();
    void demoRequested();
    void diagnoseRequested();
    void pageRequested(int page);
    void languageRequested(const QString& code);
    void runsFolderChosen(const QString& folder);
    void
    runFolderChosen(const QString& folder); // File > Open run...: one run (or a sweep) to show in History
    void warmWorkersToggled(bool on);

private:
    QMainWindow& m_window;
    SetupPanel& m_setup;
    QMenu *m_fileMenu, *m_runMenu, *m_viewMenu, *m_settingsMenu, *m_languageMenu, *m_helpMenu;
    QAction *m_openRun, *m_openProfile, *m_saveProfile, *m_quit, *m_startAct, *m_stopAct, *m_demoAct,
        *m_diagnoseAct, *m_runsFolderAct, *m_warmAct, *m_aboutAct, *m_aboutQtAct;
    QList<QAction*> m_pageActs;
    QActionGroup* m_languageGroup;
};

} // namespace ddpdesk::ui
