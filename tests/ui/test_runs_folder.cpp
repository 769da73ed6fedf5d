// The GUI's default runs folder: the application's data folder plus "runs", with the organization and
// application name (both "DDP Desk" in the real app) appearing once - ".../DDP Desk/DDP Desk/runs" was the
// bug - and a fresh window's Setup page pointing there.
#include "main_window.h"
#include "setup_panel.h"
#include "ui_test_util.h"

#include <QtTest>

using namespace ddpdesk::ui;

class TestRunsFolder : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase() { test::isolateSettings(m_dir); }

    void nameAppearsOnce() {
        QApplication::setOrganizationName(QStringLiteral("DDP Desk"));
        QApplication::setApplicationName(QStringLiteral("DDP Desk"));
        const QString data = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
        QVERIFY2(data.endsWith(QLatin1String("/DDP Desk/DDP Desk")), qPrintable(data)); // what Qt gives
        const QString runs = MainWindow::defaultRunsFolder();
        QCOMPARE(runs, QFileInfo(data).path() + QStringLiteral("/runs"));
        QVERIFY2(runs.endsWith(QLatin1String("/DDP Desk/runs")), qPrintable(runs));
        QVERIFY2(!runs.contains(QLatin1String("DDP Desk/DDP Desk")), qPrintable(runs));

        MainWindow w;
        QCOMPARE(w.setupPanel()->runsFolder(), runs);
    }

    void differentNamesKeepBothLevels() {
        QApplication::setOrganizationName(QStringLiteral("Lab"));
        QApplication::setApplicationName(QStringLiteral("DDP Desk"));
        const QString runs = MainWindow::defaultRunsFolder();
        QVERIFY2(runs.endsWith(QLatin1String("/Lab/DDP Desk/runs")), qPrintable(runs));
    }
};

QTEST_MAIN(TestRunsFolder)
#include "test_runs_folder.moc"
