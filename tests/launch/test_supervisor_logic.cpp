// The Supervisor's policy (the culprit among failed ranks, the stop, restarts, a stop during a restart's
// delay) over an in-memory rank launcher (core/launch/run/rank_launcher.h), as torch.distributed.elastic
// tests its agent with _start_workers overridden: no process starts, each case takes milliseconds. What needs
// real processes (signals, process groups, children left behind) stays in launch.supervision.

#include "fake_ranks.h"
#include "launch_test_util.h"

#include "launch/run/supervisor.h"
#include "protocol/worker_codes.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <csignal>

using namespace ddpdesk;
using namespace ddpdesk::launch;
using launchtest::FakeRanks;
using launchtest::fakeRanks;
using launchtest::LauncherLog;

namespace {

RunConfig config(const QTemporaryDir& dir, int nproc, int maxRestarts = 0) {
    RunConfig c;
    c.workload = QStringLiteral("autoencoder");
    c.devices = QStringLiteral("cpu");
    c.nproc = nproc;
    c.training.steps = 10;
    c.maxRestarts = maxRestarts;
    c.timeoutSec = 30;
    c.outDir = dir.filePath(QStringLiteral("out"));
    return c;
}

} // namespace

class SupervisorLogicTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        // The Supervisor checks that a worker exists before it starts; no process is started from it here.
        qputenv("DDPDESK_WORKER", QCoreApplication::applicationFilePath().toLocal8Bit());
    }

    void ranksThatEndWellFinishTheRun() {
        QTemporaryDir dir;
        LauncherLog log;
        Supervisor s(fakeRanks(log, [](FakeRanks& r, int) {
            r.say(0, "rank 0 says hello");
            r.exit(0, 0);
            r.exit(1, 0);
        }));
        QSignalSpy finished(&s, &Supervisor::finished);
        QVector<ConfigProblem> problems;
        QVERIFY2(s.start(config(dir, 2), &problems), qPrintable(RunConfig::problemsText(problems)));
        QVERIFY(finished.wait(5000));
        QCOMPARE(finished.at(0).at(0).toBool(), true); // ended well
        QCOMPARE(log.attempts, QVector<int>({0}));
        QCOMPARE(log.terminateCalls, 0);
        QVERIFY(!log.launch.program.isEmpty());
        QCOMPARE(s.model()->summary().status, QStringLiteral("ok"));
        QCOMPARE(s.model()->rank(0).state, RankState::Done);
        QCOMPARE(s.model()->rank(1).state, RankState::Done);
        QCOMPARE(launchtest::readJsonFile(s.summaryPath())["status"].toString(), QStringLiteral("ok"));
    }

    // The first failure stops the others, which end as stopped; the failed rank is named.
    void aFailureStopsTheOthersAndNamesItsRank() {
        QTemporaryDir dir;
        LauncherLog log;
        Supervisor s(fakeRanks(log, [](FakeRanks& r, int) {
            r.say(1, "boom: the data loader crashed");
            r.exit(1, 4);
        }));
        QSignalSpy failed(&s, &Supervisor::rankFailed);
        QSignalSpy finished(&s, &Supervisor::finished);
        QVERIFY(s.start(config(dir, 3)));
        QVERIFY(finished.wait(5000));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.at(0).at(0).toInt(), 1);
        QCOMPARE(log.terminateCalls, 1);
        const RunSummary sum = s.model()->summary();
        QCOMPARE(sum.status, QStringLiteral("failed"));
        QCOMPARE(sum.failedRank, 1);
        QVERIFY2(sum.failureReason.contains(QLatin1String("rank 1 exit code 4")),
                 qPrintable(sum.failureReason));
        QCOMPARE(s.model()->rank(0).state, RankState::Stopped);
        QCOMPARE(s.model()->rank(1).state, RankState::Failed);
        QCOMPARE(s.model()->rank(2).state, RankState::Stopped);
    }

    // Two ranks hit the same CUDA error; the second ends of it by itself while the stop the first caused is
    // on its way. It failed of its own error: it is not "stopped by the launcher" (issue 41, seen on a GPU).
    void aRankThatFailsOfItsOwnWhileStoppingIsAFailure() {
        QTemporaryDir dir;
        LauncherLog log;
        Supervisor s(fakeRanks(log, [](FakeRanks& r, int) {
            r.say(0, "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB");
            r.exit(0, 1); // the stop of every other rank begins here
            r.say(1, "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB");
            r.exit(1, 1);
        }));
        QSignalSpy finished(&s, &Supervisor::finished);
        QVERIFY(s.start(config(dir, 3)));
        QVERIFY(finished.wait(5000));
        QCOMPARE(log.terminateCalls, 1);
        QCOMPARE(s.model()->rank(0).state, RankState::Failed);
        QCOMPARE(s.model()->rank(1).state, RankState::Failed);
        QVERIFY2(!s.model()->rank(1).exitText.contains(QLatin1String("stopped by the launcher")),
                 qPrintable(s.model()->rank(1).exitText));
        QCOMPARE(s.model()->rank(2).state, RankState::Stopped); // it ended of the stop
        const RunSummary sum = s.model()->summary();
        QCOMPARE(sum.failedRank, 0);
        QVERIFY2(sum.failureReason.contains(QLatin1String("2 rank(s) failed in all")),
                 qPrintable(sum.failureReason));
        QCOMPARE(QString::fromStdString(sum.diagnosis->code), QStringLiteral("CUDA_OUT_OF_MEMORY"));
    }

    // Two ranks end at once and the consequence's exit is read first: the rank that failed of its own is
    // still the culprit, whether the other says so by its exit code or by its last words.
    void theCauseIsBlamedNotTheRankThatLostItsPeer() {
        for (const bool byExitCode : {true, false}) {
            QTemporaryDir dir;
            LauncherLog log;
            Supervisor s(fakeRanks(log, [byExitCode](FakeRanks& r, int) {
                if (!byExitCode)
                    r.say(0, "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:598] Connection "
                             "closed by peer [127.0.0.1]:4242");
                r.exitTogether({{0, byExitCode ? protocol::exit_code::PeerFailure : 1}, {1, 4}});
            }));
            QSignalSpy finished(&s, &Supervisor::finished);
            QVERIFY(s.start(config(dir, 2)));
            QVERIFY(finished.wait(5000));
            const RunSummary sum = s.model()->summary();
            QCOMPARE(sum.status, QStringLiteral("failed"));
            QVERIFY2(sum.failedRank == 1, qPrintable(sum.failureReason));
            QVERIFY2(sum.failureReason.contains(QLatin1String("2 rank(s) failed in all")),
                     qPrintable(sum.failureReason));
        }
    }

    void aUserStopIsNotAFailure() {
        QTemporaryDir dir;
        LauncherLog log;
        Supervisor s(fakeRanks(log, [](FakeRanks&, int) {})); // the ranks train until stopped
        QSignalSpy failed(&s, &Supervisor::rankFailed);
        QSignalSpy finished(&s, &Supervisor::finished);
        QSignalSpy attempt(&s, &Supervisor::attemptStarted);
        QVERIFY(s.start(config(dir, 2)));
        QTRY_VERIFY_WITH_TIMEOUT(s.model()->rank(1).pid != 0, 5000);
        s.stop(QStringLiteral("the user pressed Stop"));
        QVERIFY(finished.wait(5000));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QCOMPARE(failed.count(), 0);
        QCOMPARE(s.model()->summary().status, QStringLiteral("stopped"));
        QCOMPARE(s.model()->summary().failureReason, QStringLiteral("the user pressed Stop"));
        for (int i = 0; i < 2; ++i)
            QCOMPARE(s.model()->rank(i).state, RankState::Stopped);
        QCOMPARE(attempt.count(), 1);
    }

    // --max-restarts 1: the failed attempt is followed by a second, with the store made afresh, and the run
    // ends as the second attempt does.
    void aFailedAttemptIsRestarted() {
        QTemporaryDir dir;
        LauncherLog log;
        Supervisor s(fakeRanks(log, [](FakeRanks& r, int attempt) {
            if (attempt == 0) {
                r.exit(1, 4);
            } else {
                r.exit(0, 0);
                r.exit(1, 0);
            }
        }));
        QSignalSpy finished(&s, &Supervisor::finished);
        QVERIFY(s.start(config(dir, 2, 1)));
        QVERIFY(finished.wait(10000)); // the restart waits 1 s for ports and files
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        QCOMPARE(log.attempts, QVector<int>({0, 1}));
        QCOMPARE(s.model()->summary().status, QStringLiteral("ok"));
        const auto events = launchtest::readJsonLines(s.metricsPath());
        QCOMPARE(launchtest::countEvents(events, QStringLiteral("restart")), 1);
        QCOMPARE(launchtest::countEvents(events, QStringLiteral("rank_start")), 4);
    }

    // A stop while the restart waits ends the run there: no second attempt starts.
    void aStopDuringTheRestartDelayStartsNoAttempt() {
        QTemporaryDir dir;
        LauncherLog log;
        Supervisor s(fakeRanks(log, [](FakeRanks& r, int attempt) {
            if (attempt == 0) r.exit(0, 4);
        }));
        QSignalSpy finished(&s, &Supervisor::finished);
        QStringList messages;
        connect(&s, &Supervisor::message, this, [&messages](const QString& m) { messages << m; });
        QVERIFY(s.start(config(dir, 2, 3)));
        QTRY_VERIFY_WITH_TIMEOUT(!messages.filter(QStringLiteral("restarting all workers")).isEmpty(), 5000);
        s.stop(QStringLiteral("enough"));
        QVERIFY(finished.count() == 1 || finished.wait(5000));
        QCOMPARE(s.model()->summary().status, QStringLiteral("stopped"));
        QTest::qWait(1500); // past the restart delay
        QCOMPARE(log.attempts, QVector<int>({0}));
    }
};

QTEST_GUILESS_MAIN(SupervisorLogicTest)
#include "test_supervisor_logic.moc"
