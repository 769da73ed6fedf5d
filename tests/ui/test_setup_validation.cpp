// The Setup page validates while editing: Start is disabled and the reason names the field; a valid form
// enables Start; profiles round-trip; "Copy as command" produces the scheduler's text.

#include "main_window.h"
#include "run_control.h"
#include "setup_panel.h"
#include "ui_test_util.h"

#include <QApplication>
#include <QClipboard>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QToolButton>
#include <QtTest>

using namespace ddpdesk;
using namespace ddpdesk::ui;

class TestSetupValidation : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    QPushButton* startButton(SetupPanel& p) {
        for (QPushButton* b : p.findChildren<QPushButton*>())
            if (b->text().contains(QLatin1String("Start"))) return b;
        return nullptr;
    }

    launch::RunConfig valid() {
        launch::RunConfig c;
        c.workload = QStringLiteral("autoencoder");
        c.nproc = 2;
        c.training.steps = 20;
        return c;
    }

private slots:
    void initTestCase() { test::isolateSettings(m_dir); }

    void validConfigEnablesStart() {
        SetupPanel p;
        p.setRunsFolder(m_dir.filePath(QStringLiteral("runs")));
        p.setConfig(valid());
        QVERIFY2(p.canStart(), qPrintable(p.problemText()));
        QPushButton* start = startButton(p);
        QVERIFY(start);
        QVERIFY(start->isEnabled());
        QSignalSpy spy(&p, &SetupPanel::startRequested);
        start->click();
        QCOMPARE(spy.count(), 1);
        const auto c = spy.front().front().value<launch::RunConfig>();
        QCOMPARE(c.nproc, 2);
        QVERIFY(c.outDir.startsWith(m_dir.filePath(QStringLiteral("runs"))));
    }

    // The demo trains what the README and installer/demo.sh say: 2 epochs, or $DDPDESK_DEMO_EPOCHS (issue 43:
    // the GUI demo trained 1 and ignored the variable). The Setup page shows the same number.
    void demoTrainsTheReadmesEpochs() {
        const QString runs = m_dir.filePath(QStringLiteral("runs"));
        const auto epochs = [&runs] { return RunControl::demoConfig(0, runs).training.epochs.value_or(-1); };
        qunsetenv("DDPDESK_DEMO_EPOCHS");
        QCOMPARE(epochs(), 2);
        qputenv("DDPDESK_DEMO_EPOCHS", "3");
        QCOMPARE(epochs(), 3);
        SetupPanel p;
        p.setRunsFolder(runs);
        p.setConfig(RunControl::demoConfig(0, runs));
        QCOMPARE(p.config().training.epochs.value_or(-1), 3);
        for (const char* bad : {"0", "-1", "two", ""}) { // not a count: the README's 2, never the worker's 1
            qputenv("DDPDESK_DEMO_EPOCHS", bad);
            QCOMPARE(epochs(), 2);
        }
        qunsetenv("DDPDESK_DEMO_EPOCHS");
    }

    // The page checks the configuration as it is edited; checking makes no run folder (each check would
    // otherwise leave an empty run-<time>/store/ behind in the runs folder).
    // Issue 40: Setup selects the GPUs when there are any, so Run demo trains on every one of them. NVML
    // finds none on a test machine: the list the GPU poller hands over is given by hand.
    void setupSelectsTheGpus() {
        const QVector<GpuChoice> gpus = {{0, QStringLiteral("NVIDIA H200"), 3, 615, 143771},
                                         {1, QStringLiteral("NVIDIA H200"), 0, 600, 143771}};
        {
            MainWindow w;
            w.setupPanel()->setConfig(valid()); // CPU workers, as a profile restored from the last session
            w.setupPanel()->setGpus(gpus);      // then the GPUs arrive
            const launch::RunConfig c = w.setupPanel()->config();
            QCOMPARE(c.devices, QStringLiteral("0,1"));
            QCOMPARE(c.nproc, 2);
            const launch::RunConfig demo = w.demoConfig(); // every GPU the Setup page lists
            QCOMPARE(demo.devices, QStringLiteral("0,1"));
            QCOMPARE(demo.nproc, 2);
        }
        // A GPU choice restored before the list arrived is kept: GPU 1 only, also across refreshes.
        SetupPanel p;
        launch::RunConfig one = valid();
        one.devices = QStringLiteral("1");
        one.nproc = 1;
        p.setConfig(one);
        p.setGpus(gpus);
        QCOMPARE(p.config().devices, QStringLiteral("1"));
        QCOMPARE(p.config().nproc, 1);
        p.setGpus(gpus);
        QCOMPARE(p.config().devices, QStringLiteral("1"));
        // Without a GPU the demo keeps its 2 CPU workers.
        SetupPanel none;
        none.setGpus({});
        QCOMPARE(none.config().devices, QStringLiteral("cpu"));
    }

    void checkingMakesNoFolder() {
        SetupPanel p;
        const QString runs = m_dir.filePath(QStringLiteral("untouched-runs"));
        p.setRunsFolder(runs);
        p.setConfig(valid());
        QVERIFY2(p.canStart(), qPrintable(p.problemText()));
        launch::RunConfig c = p.config();
        c.nproc = 3;
        p.setConfig(c);
        QVERIFY2(p.canStart(), qPrintable(p.problemText()));
        QVERIFY2(!QFileInfo::exists(runs), qPrintable(QDir(runs).entryList().join(QLatin1Char(' '))));
    }

    void badFieldsDisableStartWithReason_data() {
        QTest::addColumn<int>("nproc");
        QTest::addColumn<int>("nnodes");
        QTest::addColumn<int>("nodeRank");
        QTest::addColumn<QString>("store");
        QTest::addColumn<QString>("field");
        QTest::newRow("no workers") << 0 << 1 << 0 << QString() << "nproc";
        QTest::newRow("node rank >= nodes") << 2 << 2 << 2 << QString() << "node-rank";
        QTest::newRow("port out of range")
            << 2 << 1 << 0 << QStringLiteral("tcp://127.0.0.1:70000") << "store";
    }

    void badFieldsDisableStartWithReason() {
        QFETCH(int, nproc);
        QFETCH(int, nnodes);
        QFETCH(int, nodeRank);
        QFETCH(QString, store);
        QFETCH(QString, field);
        SetupPanel p;
        p.setRunsFolder(m_dir.filePath(QStringLiteral("runs")));
        launch::RunConfig c = valid();
        c.nproc = nproc;
        c.nnodes = nnodes;
        c.nodeRank = nodeRank;
        c.store = store;
        p.setConfig(c);
        QVERIFY(!p.canStart());
        QVERIFY(!startButton(p)->isEnabled());
        QVERIFY2(p.problemText().contains(QLatin1String("--") + field), qPrintable(p.problemText()));
        // The same rule book as the CLI: RunConfig::validate names that field too.
        bool named = false;
        for (const auto& pr : p.problems())
            named = named || pr.field == field;
        QVERIFY(named);
        // and the form tints the field's widget (a TCPStore's port, which is what is wrong there).
        QWidget* tinted =
            p.problemFieldWidgets().value(store.startsWith("tcp://") ? QStringLiteral("port") : field);
        QVERIFY2(tinted && tinted->property("problem").toBool(), qPrintable(field));
    }

    // Every flag the form edits has its widget, named as the flag tables name it.
    void everyEditedFlagHasItsWidget() {
        SetupPanel p;
        const QHash<QString, QWidget*> widgets = p.problemFieldWidgets();
        const QStringList flags = {"nproc",
                                   "devices",
                                   "nnodes",
                                   "node-rank",
                                   "store",
                                   "port",
                                   "model",
                                   "script",
                                   "data",
                                   "out",
                                   "steps",
                                   "epochs",
                                   "batch-size",
                                   "accumulate",
                                   "precision",
                                   "lr",
                                   "workdir",
                                   "run-secret",
                                   "grad-compression",
                                   "max-restarts",
                                   "checkpoint-every"};
        for (const QString& flag : flags)
            QVERIFY2(widgets.value(flag), qPrintable(flag));
        QCOMPARE(widgets.size(), flags.size());
    }

    void editingRevalidates() {
        SetupPanel p;
        p.setRunsFolder(m_dir.filePath(QStringLiteral("runs")));
        p.setConfig(valid());
        QVERIFY(p.canStart());
        // Type into the runs folder a path under a regular file: not creatable, so Start goes off.
        QFile blocker(m_dir.filePath(QStringLiteral("plainfile")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        QLineEdit* runs = nullptr;
        for (QLineEdit* e : p.findChildren<QLineEdit*>())
            if (e->text() == QDir::toNativeSeparators(m_dir.filePath(QStringLiteral("runs")))) runs = e;
        QVERIFY(runs);
        runs->setText(m_dir.filePath(QStringLiteral("plainfile/sub")));
        QTRY_VERIFY_WITH_TIMEOUT(!p.canStart(), 3000);
        QVERIFY(p.problemText().contains(QLatin1String("--out")));
        runs->setText(m_dir.filePath(QStringLiteral("runs")));
        QTRY_VERIFY_WITH_TIMEOUT(p.canStart(), 3000);
    }

    void secondNodeNeedsTheRunSecret() {
        // Node 1 of 2 without node 0's secret would be refused as FOREIGN_RANK: Start stays off and says so;
        // the secret typed into its field is what the run gets (and only there: the field is off on node 0).
        qunsetenv("DDPDESK_RUN_SECRET");
        SetupPanel p;
        p.setRunsFolder(m_dir.filePath(QStringLiteral("runs")));
        launch::RunConfig c = valid();
        c.nnodes = 2;
        c.nodeRank = 1;
        c.store = QStringLiteral("tcp://127.0.0.1:29500");
        p.setConfig(c);
        QVERIFY(!p.canStart());
        QVERIFY2(p.problemText().contains(QLatin1String("--run-secret")), qPrintable(p.problemText()));
        QLineEdit* secret = nullptr;
        for (QLineEdit* e : p.findChildren<QLineEdit*>())
            if (e->echoMode() == QLineEdit::PasswordEchoOnEdit) secret = e;
        QVERIFY(secret && secret->isEnabled());
        const QString hex(64, QLatin1Char('a'));
        secret->setText(hex);
        QTRY_VERIFY_WITH_TIMEOUT(p.canStart(), 3000);
        QCOMPARE(p.config().runSecret, hex);
        c.nodeRank = 0;
        p.setConfig(c);
        QVERIFY(!secret->isEnabled());
        QVERIFY(p.config().runSecret.isEmpty());
    }

    void profileRoundTrip() {
        SetupPanel a;
        a.setRunsFolder(m_dir.filePath(QStringLiteral("runs")));
        launch::RunConfig c = valid();
        c.nproc = 3;
        c.nnodes = 2;
        c.nodeLink = false; // the node link's box, off
        c.store = QStringLiteral("tcp://127.0.0.1:29611");
        c.training.lr = 0.003;
        a.setConfig(c);
        const QString path = m_dir.filePath(QStringLiteral("profile.json"));
        QString err;
        QVERIFY2(a.saveProfile(path, &err), qPrintable(err));
        SetupPanel b;
        QVERIFY2(b.loadProfile(path, &err), qPrintable(err));
        const launch::RunConfig r = b.config();
        QCOMPARE(r.nproc, 3);
        QCOMPARE(r.nodeLink, false);
        QCOMPARE(r.store, QStringLiteral("tcp://127.0.0.1:29611"));
        QVERIFY(r.training.lr && std::abs(*r.training.lr - 0.003) < 1e-9);
        QVERIFY(!b.loadProfile(m_dir.filePath(QStringLiteral("missing.json")), &err));
        QVERIFY(!err.isEmpty());
    }

    void copyAsCommand() {
        SetupPanel p;
        p.setRunsFolder(m_dir.filePath(QStringLiteral("runs")));
        p.setConfig(valid());
        QToolButton* copy = p.findChild<QToolButton*>();
        QVERIFY(copy && copy->menu());
        QCOMPARE(copy->menu()->actions().size(), 4);
        copy->menu()->actions().at(0)->trigger(); // torchrun
        QVERIFY2(QApplication::clipboard()->text().contains(QLatin1String("torchrun")),
                 qPrintable(QApplication::clipboard()->text()));
        QVERIFY(p.commandText(QStringLiteral("slurm")).contains(QLatin1String("#SBATCH")));
        QVERIFY(p.commandText(QStringLiteral("mpirun")).contains(QLatin1String("mpirun")));
        QVERIFY(!p.commandText(QStringLiteral("hpcpack")).isEmpty());
    }
};

QTEST_MAIN(TestSetupValidation)
#include "test_setup_validation.moc"
