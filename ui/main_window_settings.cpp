// What MainWindow keeps between sessions (QSettings): window layout, page, runs folder, language and the last
// configuration; restored at start-up, saved on close.
#include "main_window.h"

#include "history_panel.h"
#include "language.h"
#include "setup_panel.h"

#include <QAction>
#include <QActionGroup>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QJsonDocument>
#include <QMessageBox>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>

namespace ddpdesk::ui {

void MainWindow::setLanguage(const QString& code) {
    if (!applyLanguage(code))
        statusBar()->showMessage(tr("The %1 translation is missing; staying in English.").arg(code),
                                 kStatusMs);
    QSettings().setValue(QStringLiteral("language"), currentLanguage());
    for (QAction* a : m_languageGroup->actions())
        a->setChecked(a->data().toString() == currentLanguage());
}

void MainWindow::restoreSettings() {
    QSettings s;
    const QString runs = s.value(QStringLiteral("runsFolder"), defaultRunsFolder()).toString();
    QDir().mkpath(runs);
    m_setup->setRunsFolder(runs);
    m_history->setRunsFolder(runs);
    const QByteArray cfg = s.value(QStringLiteral("lastConfig")).toByteArray();
    if (!cfg.isEmpty()) {
        const QJsonDocument doc = QJsonDocument::fromJson(cfg);
        if (doc.isObject()) m_setup->setConfig(launch::RunConfig::fromJson(doc.object()));
    }
    if (!restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray())) resize(1280, 820);
    restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    showPage(s.value(QStringLiteral("window/page"), int(SetupPage)).toInt());
    m_warmAct->setChecked(s.value(QStringLiteral("warmWorkers"), true).toBool());
}

void MainWindow::saveSettings() const {
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
    s.setValue(QStringLiteral("window/page"), m_stack->currentIndex());
    s.setValue(QStringLiteral("runsFolder"), m_setup->runsFolder());
    s.setValue(QStringLiteral("language"), currentLanguage());
    s.setValue(QStringLiteral("warmWorkers"), m_warmAct->isChecked());
    s.setValue(QStringLiteral("lastConfig"),
               QJsonDocument(m_setup->config().toJson()).toJson(QJsonDocument::Compact));
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (m_supervisor && m_supervisor->isRunning()) {
        const auto answer = QMessageBox::question(this, tr("Stop the run?"),
                                                  tr("A run is in progress. Stop every worker and exit?"));
        if (answer != QMessageBox::Yes) {
            e->ignore();
            return;
        }
        m_supervisor->stop(tr("the application closed"));
    }
    saveSettings();
    QMainWindow::closeEvent(e);
}

void MainWindow::chooseRunsFolder() {
    const QString f = QFileDialog::getExistingDirectory(this, tr("Runs folder"), m_setup->runsFolder());
    if (f.isEmpty()) return;
    m_setup->setRunsFolder(f);
    m_history->setRunsFolder(f);
}

} // namespace ddpdesk::ui
