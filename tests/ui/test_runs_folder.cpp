// The GUI's default runs folder: the application's data folder plus "runs", with the organization and
// application name (both "DDP Desk" in the real app) appearing once - ".../DDP Desk/DDP Desk/runs" was the
// bug - and a fresh window's Setup page pointing there. Runs outside it, and a sweep's sizes inside it, reach
// History too (issue 43): `ddpdesk RUN_DIR`, File > Open run..., and the sizes listed as sweep/n1, sweep/n2.
#include "history_panel.h"
#include "main_window.h"
#include "setup_panel.h"
#include "ui_test_util.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QMenuBar>
#include <QProcess>
#include <QPushButton>
#include <QStatusBar>
#include <QTableWidget>
#include <QtTest>

using namespace ddpdesk::ui;

class TestRunsFolder : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    // A finished run as the supervisor leaves it, as far as History's list reads it.
    static void writeRun(const QString& folder, int worldSize) {
        QVERIFY(QDir().mkpath(folder));
        QFile f(QDir(folder).filePath(QStringLiteral("summary.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(QJsonObject{{"status", "ok"},
                                          {"world_size", worldSize},
                                          {"workload", "autoencoder"},
                                          {"steps", 10},
                                          {"final_loss", 0.25}})
                    .toJson());
    }

    static QStringList names(const HistoryPanel& h) {
        QStringList out;
        for (const RunRecord& r : h.runs())
            out << r.name;
        out.sort();
        return out;
    }

    static QStringList selectedNames(const HistoryPanel& h) {
        QStringList out;
        for (const QModelIndex& i : h.table()->selectionModel()->selectedRows())
            out << h.runs()[i.row()].name;
        out.sort();
        return out;
    }

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

    // A run kept outside the runs folder opens in History, selected, and stays listed after a refresh.
    void runOutsideTheRunsFolderOpens() {
        writeRun(m_dir.filePath("runs/inside"), 2);
        writeRun(m_dir.filePath("elsewhere/my-run"), 4);
        MainWindow w;
        w.historyPanel()->setRunsFolder(m_dir.filePath("runs"));
        QCOMPARE(names(*w.historyPanel()), QStringList{"inside"});
        QVERIFY(w.openRunFolder(m_dir.filePath("elsewhere/my-run")));
        QCOMPARE(w.currentPage(), MainWindow::HistoryPage);
        QCOMPARE(names(*w.historyPanel()), (QStringList{"inside", "my-run"}));
        QCOMPARE(selectedNames(*w.historyPanel()), QStringList{"my-run"});
        QVERIFY2(w.historyPanel()->detailsText().contains("world size 4"),
                 qPrintable(w.historyPanel()->detailsText()));
        QVERIFY(w.historyPanel()->showInRunButton()->isEnabled());
        w.historyPanel()->refresh();
        QCOMPARE(names(*w.historyPanel()), (QStringList{"inside", "my-run"}));
        // Opened twice, or a run that is in the runs folder anyway: listed once.
        QVERIFY(w.openRunFolder(m_dir.filePath("elsewhere/my-run/")));
        QVERIFY(w.openRunFolder(m_dir.filePath("runs/inside")));
        QCOMPARE(names(*w.historyPanel()), (QStringList{"inside", "my-run"}));
        QCOMPARE(selectedNames(*w.historyPanel()), QStringList{"inside"});
    }

    // A sweep keeps each size's run in a folder of its own: History lists them inside the runs folder, and
    // opening a sweep folder from elsewhere lists and selects all its sizes.
    void sweepSizesAreListed() {
        writeRun(m_dir.filePath("runs2/sweep/n1"), 1);
        writeRun(m_dir.filePath("runs2/sweep/n2"), 2);
        writeRun(m_dir.filePath("other/sweep-b/n4"), 4);
        MainWindow w;
        w.historyPanel()->setRunsFolder(m_dir.filePath("runs2"));
        QCOMPARE(names(*w.historyPanel()), (QStringList{"sweep/n1", "sweep/n2"}));
        QVERIFY(w.openRunFolder(m_dir.filePath("other/sweep-b")));
        QCOMPARE(selectedNames(*w.historyPanel()), QStringList{"sweep-b/n4"});
        QVERIFY(w.openRunFolder(m_dir.filePath("runs2/sweep/n2"))); // one size on its own
        QCOMPARE(selectedNames(*w.historyPanel()), QStringList{"sweep/n2"});
        QCOMPARE(w.historyPanel()->runs().size(), 3);
    }

    // A folder that is no run, or no folder at all: said in History and the status bar, nothing listed.
    void notARunFolderIsExplained() {
        QVERIFY(QDir().mkpath(m_dir.filePath("empty/store")));
        MainWindow w;
        w.historyPanel()->setRunsFolder(m_dir.filePath("runs3"));
        QString why;
        QVERIFY(!w.openRunFolder(m_dir.filePath("empty"), &why));
        QVERIFY2(why.contains("is not a run folder") && why.contains("summary.json"), qPrintable(why));
        QVERIFY2(w.historyPanel()->detailsText().contains("is not a run folder"),
                 qPrintable(w.historyPanel()->detailsText()));
        QCOMPARE(w.statusBar()->currentMessage(), why);
        QVERIFY(w.historyPanel()->runs().isEmpty());
        QVERIFY(!w.openRunFolder(m_dir.filePath("no-such-folder"), &why));
        QVERIFY2(why.contains("is not a folder"), qPrintable(why));
    }

    // File > Open run... is there, next to the profiles.
    void fileMenuOpensARun() {
        MainWindow w;
        QMenu* file = w.menuBar()->actions().front()->menu();
        QVERIFY(file);
        QStringList texts;
        for (QAction* a : file->actions())
            texts << a->text();
        QVERIFY2(texts.contains("Open &run..."), qPrintable(texts.join(" | ")));
    }

    // `ddpdesk RUN_DIR`: the program opens the folder in History; a folder that is no run is explained on
    // stderr too (the window stays up, so the test ends it).
    void commandLineOpensARun() {
        const QString gui = qEnvironmentVariable("DDPDESK_GUI");
        if (gui.isEmpty()) QSKIP("DDPDESK_GUI (the ddpdesk program) is not set");
        QVERIFY(QDir().mkpath(m_dir.filePath("not-a-run")));
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_CONFIG_HOME", m_dir.filePath("xdg-config"));
        env.insert("XDG_DATA_HOME", m_dir.filePath("xdg-data"));
        p.setProcessEnvironment(env);
        p.start(gui, {"--lang", "en", m_dir.filePath("not-a-run")});
        QVERIFY(p.waitForStarted());
        QByteArray err;
        QTRY_VERIFY_WITH_TIMEOUT((err += p.readAllStandardError()).contains("is not a run folder"), 20000);
        p.kill();
        p.waitForFinished();
        QVERIFY2(err.contains(QDir::toNativeSeparators(m_dir.filePath("not-a-run")).toUtf8()),
                 err.constData());
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
