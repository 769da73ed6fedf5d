// MainWindow's menus and actions (with Windows-style shortcuts) and the texts they show in the current
// language.
#include "main_window.h"

#include "icons.h"
#include "language.h"
#include "monitor/gpu_reader.h"
#include "setup_panel.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QEvent>
#include <QFileDialog>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>

namespace ddpdesk::ui {

void MainWindow::buildMenus() {
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
        QAction* a =
            m_languageMenu->addAction(languageDisplayName(code), this, [this, code] { setLanguage(code); });
        a->setCheckable(true);
        a->setData(code);
        m_languageGroup->addAction(a);
    }
    m_runsFolderAct = m_settingsMenu->addAction(QString(), this, &MainWindow::chooseRunsFolder);
    m_warmAct = m_settingsMenu->addAction(QString());
    m_warmAct->setCheckable(true);
    m_warmAct->setChecked(true);
    connect(m_warmAct, &QAction::toggled, this, &MainWindow::setWarmWorkersEnabled);

    m_helpMenu = menuBar()->addMenu(QString());
    m_aboutAct = m_helpMenu->addAction(icon(IconId::App), QString(), this, [this] {
        QMessageBox::about(
            this, tr("About DDP Desk"),
            tr("<h3>DDP Desk %1</h3><p>Point-and-click Distributed Data Parallel training: pick "
               "workers or GPUs, press Start, watch every rank train, and let the doctor explain "
               "rendezvous problems.</p><p>Built with Qt %2.</p>")
                .arg(QApplication::applicationVersion(), QString::fromLatin1(qVersion())));
    });
    m_aboutQtAct = m_helpMenu->addAction(QString(), qApp, &QApplication::aboutQt);
}

void MainWindow::retranslate() {
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
    m_warmAct->setText(tr("Keep &workers ready"));
    m_warmAct->setStatusTip(tr("Starts the next run's worker processes ahead, with LibTorch loaded, so Start "
                               "begins at once; each waiting worker holds some memory."));
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

void MainWindow::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) retranslate();
    QMainWindow::changeEvent(e);
}

} // namespace ddpdesk::ui
