// WindowMenus: builds File, Run, View, Settings and Help, runs the dialogs they open, and gives every action
// its text in the current language.
#include "window_menus.h"

#include "icons.h"
#include "language.h"
#include "main_window.h"
#include "setup_panel.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QFileDialog>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>

namespace ddpdesk::ui {

WindowMenus::WindowMenus(QMainWindow& window, SetupPanel& setup)
    : QObject(&window), m_window(window), m_setup(setup) {
    QMenuBar* bar = window.menuBar();
    m_fileMenu = bar->addMenu(QString());
    // A run kept outside the runs folder, or a sweep's sizes: History lists and selects it.
    m_openRun = m_fileMenu->addAction(icon(IconId::Folder), QString(), this, [this] {
        const QString f =
            QFileDialog::getExistingDirectory(&m_window, tr("Open run folder"), m_setup.runsFolder());
        if (!f.isEmpty()) emit runFolderChosen(f);
    });
    m_openRun->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_fileMenu->addSeparator();
    m_openProfile = m_fileMenu->addAction(QString(), this, [this] {
        const QString f = QFileDialog::getOpenFileName(&m_window, tr("Load profile"), m_setup.runsFolder(),
                                                       tr("DDP Desk profiles (*.json)"));
        QString err;
        if (!f.isEmpty() && !m_setup.loadProfile(f, &err))
            QMessageBox::warning(&m_window, tr("Load profile"), err);
    });
    m_openProfile->setShortcut(QKeySequence::Open);
    m_saveProfile = m_fileMenu->addAction(QString(), this, [this] {
        const QString f = QFileDialog::getSaveFileName(&m_window, tr("Save profile"), m_setup.runsFolder(),
                                                       tr("DDP Desk profiles (*.json)"));
        QString err;
        if (!f.isEmpty() && !m_setup.saveProfile(f, &err))
            QMessageBox::warning(&m_window, tr("Save profile"), err);
    });
    m_saveProfile->setShortcut(QKeySequence::Save);
    m_fileMenu->addSeparator();
    m_quit = m_fileMenu->addAction(QString(), &m_window, &QWidget::close);
    m_quit->setShortcuts({QKeySequence(Qt::ALT | Qt::Key_F4), QKeySequence(Qt::CTRL | Qt::Key_Q)});

    m_runMenu = bar->addMenu(QString());
    m_startAct = m_runMenu->addAction(icon(IconId::Start), QString(), this, &WindowMenus::startRequested);
    m_startAct->setShortcut(Qt::Key_F5);
    m_stopAct = m_runMenu->addAction(icon(IconId::Stop), QString(), this, &WindowMenus::stopRequested);
    m_stopAct->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
    m_stopAct->setEnabled(false);
    m_demoAct = m_runMenu->addAction(icon(IconId::Demo), QString(), this, &WindowMenus::demoRequested);
    m_demoAct->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    m_runMenu->addSeparator();
    m_diagnoseAct =
        m_runMenu->addAction(icon(IconId::Doctor), QString(), this, &WindowMenus::diagnoseRequested);
    m_diagnoseAct->setShortcut(Qt::Key_F7);

    m_viewMenu = bar->addMenu(QString());
    const IconId icons[] = {IconId::Setup, IconId::Run, IconId::Doctor, IconId::Compare, IconId::History};
    for (int i = 0; i < MainWindow::PageCount; ++i) {
        QAction* a =
            m_viewMenu->addAction(icon(icons[i]), QString(), this, [this, i] { emit pageRequested(i); });
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
        m_pageActs << a;
    }

    m_settingsMenu = bar->addMenu(QString());
    m_languageMenu = m_settingsMenu->addMenu(QString());
    m_languageGroup = new QActionGroup(this);
    for (const QString& code : availableLanguages()) {
        QAction* a = m_languageMenu->addAction(languageDisplayName(code), this,
                                               [this, code] { emit languageRequested(code); });
        a->setCheckable(true);
        a->setData(code);
        m_languageGroup->addAction(a);
    }
    m_runsFolderAct = m_settingsMenu->addAction(QString(), this, [this] {
        const QString f =
            QFileDialog::getExistingDirectory(&m_window, tr("Runs folder"), m_setup.runsFolder());
        if (!f.isEmpty()) emit runsFolderChosen(f);
    });
    m_warmAct = m_settingsMenu->addAction(QString());
    m_warmAct->setCheckable(true);
    m_warmAct->setChecked(true);
    connect(m_warmAct, &QAction::toggled, this, &WindowMenus::warmWorkersToggled);

    m_helpMenu = bar->addMenu(QString());
    m_aboutAct = m_helpMenu->addAction(icon(IconId::App), QString(), this, [this] {
        QMessageBox::about(
            &m_window, tr("About DDP Desk"),
            tr("<h3>DDP Desk %1</h3><p>Point-and-click Distributed Data Parallel training: pick "
               "workers or GPUs, press Start, watch every rank train, and let the doctor explain "
               "rendezvous problems.</p><p>Built with Qt %2.</p>")
                .arg(QApplication::applicationVersion(), QString::fromLatin1(qVersion())));
    });
    m_aboutQtAct = m_helpMenu->addAction(QString(), qApp, &QApplication::aboutQt);
}

void WindowMenus::setWarmWorkersChecked(bool on) {
    m_warmAct->setChecked(on); // no signal when unchanged
}

void WindowMenus::setRunning(bool running) {
    m_stopAct->setEnabled(running);
    m_startAct->setEnabled(!running);
    m_demoAct->setEnabled(!running);
}

void WindowMenus::syncLanguage() {
    for (QAction* a : m_languageGroup->actions())
        a->setChecked(a->data().toString() == currentLanguage());
}

void WindowMenus::setPageNames(const QStringList& names) {
    for (int i = 0; i < m_pageActs.size() && i < names.size(); ++i)
        m_pageActs[i]->setText(names[i]);
}

void WindowMenus::retranslate() {
    m_fileMenu->setTitle(tr("&File"));
    m_openRun->setText(tr("Open &run..."));
    m_openRun->setStatusTip(tr("Shows a run folder kept anywhere, or a sweep's sizes, on the History page"));
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
    m_warmAct->setText(tr("Keep &workers ready"));
    m_warmAct->setStatusTip(tr("Starts the next run's worker processes ahead, with LibTorch loaded, so Start "
                               "begins at once; each waiting worker holds some memory."));
    m_helpMenu->setTitle(tr("&Help"));
    m_aboutAct->setText(tr("&About DDP Desk"));
    m_aboutQtAct->setText(tr("About &Qt"));
    syncLanguage();
}

} // namespace ddpdesk::ui
