// Supervision against real misbehaving processes (fake_worker.cpp): a crash stops the others fast and names
// the rank, a hang is reported by the stall watch and a SIGTERM-ignoring worker is killed, garbage output is
// kept as log text, and no process outlives its run.
#include "launch/process/process_control.h"
#include "launch/run/supervisor.h"
#include "launch_test_util.h"
#include "os/process.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#ifndef Q_OS_WIN
#include <csignal>
#include <sys/types.h>
#endif

using namespace ddpdesk::launch;

class SupervisionTest : public QObject {
    Q_OBJECT

    RunConfig config(const QTemporaryDir& dir, int nproc, int steps) {
        RunConfig c;
        c.workload = QStringLiteral("autoencoder");
        c.nproc = nproc;
        c.training.steps = steps;
        c.outDir = dir.path();
        c.training.threads = 1;
        return c;
    }

    QVector<qint64> pids(const Supervisor& s) {
        QVector<qint64> out;
        for (const RankStatus& r : s.model()->ranks())
            out.push_back(r.pid);
        return out;
    }

    // A --script rank that starts a grandchild (`sleep 600`, its pid written to DIR/child-RANK) and then
    // exits (rank 0 always; rank 1 too when `rank1` is "exit") or waits ("wait").
    RunConfig scriptConfig(const QTemporaryDir& dir, const QString& rank1) {
        QFile script(dir.filePath("spawner.py"));
        if (script.open(QIODevice::WriteOnly))
            script.write("import os, subprocess, sys, time\n"
                         "child = subprocess.Popen(['sleep', '600'])\n"
                         "path = os.path.join(sys.argv[1], 'child-' + os.environ['RANK'])\n"
                         "with open(path + '.tmp', 'w') as f:\n"
                         "    f.write(str(child.pid))\n"
                         "os.rename(path + '.tmp', path)\n"
                         "if os.environ['RANK'] == '0' or sys.argv[2] == 'exit':\n"
                         "    sys.exit(0)\n"
                         "time.sleep(600)\n");
        RunConfig c;
        c.scriptFile = script.fileName();
        c.python = QStringLiteral("/usr/bin/python3");
        c.scriptArgs = QStringList{dir.path(), rank1};
        c.nproc = 2;
        c.outDir = dir.filePath("out");
        return c;
    }

    // The grandchildren's pids, once both ranks wrote them (bounded wait).
    QVector<qint64> grandchildren(const QTemporaryDir& dir, int timeoutMs) {
        QElapsedTimer timer;
        timer.start();
        for (;;) {
            QVector<qint64> out;
            for (int rank = 0; rank < 2; ++rank) {
                QFile f(dir.filePath(QStringLiteral("child-%1").arg(rank)));
                if (f.open(QIODevice::ReadOnly)) out.push_back(f.readAll().trimmed().toLongLong());
            }
            if (out.size() == 2 || timer.elapsed() > timeoutMs) return out;
            QTest::qWait(50);
        }
    }

    static void killAll(const QVector<qint64>& pids) { // a failed check must not leave sleepers behind
#ifndef Q_OS_WIN
        for (qint64 pid : pids)
            if (pid > 0 && ddpdesk::os::processAlive(pid)) ::kill(pid_t(pid), SIGKILL);
#else
        Q_UNUSED(pids);
#endif
    }

private slots:
    void initTestCase() {
        const QString fake = qEnvironmentVariable("DDPDESK_FAKE_WORKER");
        QVERIFY2(QFileInfo(fake).isExecutable(), "DDPDESK_FAKE_WORKER must name the fake worker");
        qputenv("DDPDESK_WORKER", fake.toLocal8Bit());
    }

    void crashStopsTheOthersAndNamesTheRank() {
        QTemporaryDir dir;
        qputenv("DDPDESK_FAKE_MODE", "crash");
        qputenv("DDPDESK_FAKE_RANK", "1");
        Supervisor s;
        QSignalSpy failed(&s, &Supervisor::rankFailed);
        QSignalSpy finished(&s, &Supervisor::finished);
        QVector<ConfigProblem> problems;
        QVERIFY2(s.start(config(dir, 3, 1000), &problems), qPrintable(RunConfig::problemsText(problems)));
        QVERIFY(failed.wait(20000));
        QElapsedTimer sinceFailure;
        sinceFailure.start();
        QCOMPARE(failed.at(0).at(0).toInt(), 1);
        QVERIFY(finished.count() == 1 || finished.wait(15000));
        // The requirement: every other worker is gone within 5 s of the first failure (generous bound here).
        QVERIFY2(sinceFailure.elapsed() < 8000, qPrintable(QString::number(sinceFailure.elapsed())));
        QCOMPARE(finished.at(0).at(0).toBool(), false);

        const RunSummary sum = s.model()->summary();
        QCOMPARE(sum.status, QStringLiteral("failed"));
        QCOMPARE(sum.failedRank, 1);
        QVERIFY2(sum.failureReason.contains("rank 1 exit code 4"), qPrintable(sum.failureReason));
        QVERIFY2(sum.failureReason.contains("NAN_LOSS"), qPrintable(sum.failureReason));
        QCOMPARE(sum.failedRankStderr.size(), 50); // the last 50 lines, not all 61
        QCOMPARE(sum.failedRankStderr.last(), QStringLiteral("crash trace line 60"));
        QCOMPARE(s.model()->rank(0).state, RankState::Stopped);
        QCOMPARE(s.model()->rank(2).state, RankState::Stopped);
        QCOMPARE(s.model()->rank(1).state, RankState::Failed);
        QVERIFY(launchtest::leftovers(pids(s)).isEmpty());

        const QJsonObject summary = launchtest::readJsonFile(s.summaryPath());
        QCOMPARE(summary["status"].toString(), QStringLiteral("failed"));
        QCOMPARE(summary["failed_rank"].toInt(), 1);
        QCOMPARE(summary["ranks"].toArray().size(), 3);
        QCOMPARE(summary["ranks"].toArray()[1].toObject()["exit_code"].toInt(), 4);
        const auto events = launchtest::readJsonLines(s.metricsPath());
        QCOMPARE(launchtest::countEvents(events, "rank_exit"), 3);
        QVERIFY(launchtest::countEvents(events, "step", 0) >= 1);
        QCOMPARE(launchtest::countEvents(events, "error", 1), 1);
    }

    void hangIsReportedAndStubbornWorkerIsKilled() {
        QTemporaryDir dir;
        qputenv("DDPDESK_FAKE_MODE", "hang");
        qputenv("DDPDESK_FAKE_RANK", "1");
        qputenv("DDPDESK_FAKE_IGNORE_TERM", "1");
        Supervisor s;
        QSignalSpy stall(&s, &Supervisor::stallDetected);
        QSignalSpy finished(&s, &Supervisor::finished);
        RunConfig c = config(dir, 2, 1000);
        c.stallTimeoutSec = 2;
        QVERIFY(s.start(c));
        QVERIFY(stall.wait(30000));
        const QString report = stall.at(0).at(0).toString();
        QVERIFY2(report.contains("behind: 1"), qPrintable(report));
        QVERIFY2(report.contains("rank 0: step 4") && report.contains("rank 1: step 2"), qPrintable(report));
        QVERIFY2(report.contains("doctor"), qPrintable(report));
        s.stop(QStringLiteral("test stop"));
        QVERIFY(finished.wait(Supervisor::kStopGraceMs + 10000));
        qunsetenv("DDPDESK_FAKE_IGNORE_TERM");
        QCOMPARE(s.model()->summary().status, QStringLiteral("stopped"));
        for (const RankStatus& r : s.model()->ranks()) {
            QCOMPARE(r.state, RankState::Stopped);
            QVERIFY2(r.exitText.contains("SIGKILL"),
                     qPrintable(r.exitText)); // SIGTERM was ignored: escalated
        }
        QVERIFY(launchtest::leftovers(pids(s)).isEmpty());
        const auto events = launchtest::readJsonLines(s.metricsPath());
        QCOMPARE(launchtest::countEvents(events, "stall"), 1);
    }

    void garbageOutputIsLogText() {
        QTemporaryDir dir;
        qputenv("DDPDESK_FAKE_MODE", "garbage");
        Supervisor s;
        QSignalSpy finished(&s, &Supervisor::finished);
        QVERIFY(s.start(config(dir, 2, 10)));
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        const RunSummary sum = s.model()->summary();
        QCOMPARE(sum.status, QStringLiteral("ok"));
        QCOMPARE(sum.steps, qint64(10));
        QVERIFY(std::isfinite(sum.finalLoss));
        const auto events = launchtest::readJsonLines(s.metricsPath());
        int logs = 0, cut = 0;
        for (const QJsonObject& e : events) {
            QVERIFY(!e.isEmpty()); // every line of metrics.jsonl is valid JSON, whatever the workers printed
            if (e["event"].toString() == QLatin1String("log")) {
                ++logs;
                cut += e["text"].toString().endsWith("[line cut at 64 KiB]");
            }
        }
        QVERIFY(logs >= 2 * 7);
        QVERIFY(cut >= 2 * 2); // the 200 kB and 3 MB lines, per rank
        QCOMPARE(launchtest::countEvents(events, "done"), 2);
    }

    void slowRankIsNamedByStepCounters() {
        QTemporaryDir dir;
        qputenv("DDPDESK_FAKE_MODE", "hang");
        qputenv("DDPDESK_FAKE_RANK", "0");
        Supervisor s;
        QSignalSpy stall(&s, &Supervisor::stallDetected);
        RunConfig c = config(dir, 3, 1000);
        c.stallTimeoutSec = 1;
        QVERIFY(s.start(c));
        QVERIFY(stall.wait(30000));
        const QString report = stall.at(0).at(0).toString();
        QVERIFY2(report.contains("behind: 0 "), qPrintable(report));
        QSignalSpy finished(&s, &Supervisor::finished);
        s.stop();
        QVERIFY(finished.wait(15000));
        QVERIFY(launchtest::leftovers(pids(s)).isEmpty());
    }

    // Before: the run ended while the `sleep 600` each rank started kept running (a rank's process group was
    // only signalled while the rank itself ran).
    void childrenOfScriptRanksEndWithTheRun() {
#ifdef Q_OS_WIN
        QSKIP("uses /usr/bin/python3 and sleep; the Windows job object is checked by "
              "portability.windows_compile");
#else
        QTemporaryDir dir;
        Supervisor s;
        QSignalSpy finished(&s, &Supervisor::finished);
        QVector<ConfigProblem> problems;
        QVERIFY2(s.start(scriptConfig(dir, "exit"), &problems),
                 qPrintable(RunConfig::problemsText(problems)));
        QVERIFY(finished.wait(60000));
        const QVector<qint64> children = grandchildren(dir, 1000);
        QCOMPARE(children.size(), 2);
        const QVector<qint64> alive = launchtest::leftovers(children);
        killAll(alive);
        QCOMPARE(s.model()->summary().status, QStringLiteral("ok"));
        QVERIFY2(alive.isEmpty(), "a rank's child outlived the run");
#endif
    }

    // Rank 0 has exited (its child lives on in rank 0's process group), rank 1 still runs: a stop ends both
    // trees.
    void stopEndsChildrenOfRanksThatAlreadyExited() {
#ifdef Q_OS_WIN
        QSKIP("uses /usr/bin/python3 and sleep; the Windows job object is checked by "
              "portability.windows_compile");
#else
        QTemporaryDir dir;
        Supervisor s;
        QSignalSpy finished(&s, &Supervisor::finished);
        QVector<ConfigProblem> problems;
        QVERIFY2(s.start(scriptConfig(dir, "wait"), &problems),
                 qPrintable(RunConfig::problemsText(problems)));
        const QVector<qint64> children = grandchildren(dir, 60000);
        QCOMPARE(children.size(), 2);
        QElapsedTimer timer;
        timer.start();
        while (s.model()->rank(0).state != RankState::Done && timer.elapsed() < 30000)
            QTest::qWait(50);
        QCOMPARE(s.model()->rank(0).state, RankState::Done);
        QVERIFY(ddpdesk::os::processAlive(children[0])); // the orphan the stop must reach
        s.stop(QStringLiteral("test stop"));
        QVERIFY(finished.count() == 1 || finished.wait(Supervisor::kStopGraceMs + 10000));
        const QVector<qint64> alive = launchtest::leftovers(children);
        killAll(alive);
        QCOMPARE(s.model()->summary().status, QStringLiteral("stopped"));
        QVERIFY2(alive.isEmpty(), "a child of a rank outlived the stop");
        QVERIFY(launchtest::leftovers(pids(s)).isEmpty());
#endif
    }

    void missingWorkerIsRefusedBeforeStart() {
        QTemporaryDir dir;
        qputenv("DDPDESK_WORKER", QByteArray("/nonexistent/ddpdesk-worker"));
        Supervisor s;
        QVector<ConfigProblem> problems;
        QVERIFY(!s.start(config(dir, 2, 5), &problems));
        QCOMPARE(problems.size(), 1);
        QCOMPARE(problems[0].field, QStringLiteral("worker"));
        QVERIFY(!s.isRunning());
        QVERIFY(!QFile::exists(s.summaryPath()));
        qputenv("DDPDESK_WORKER", qgetenv("DDPDESK_FAKE_WORKER"));
    }
};

QTEST_GUILESS_MAIN(SupervisionTest)
#include "test_supervision.moc"
