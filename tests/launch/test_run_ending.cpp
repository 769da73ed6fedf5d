// How an attempt ends (core/launch/run/run_ending.h), as the Supervisor asks it: the culprit among the
// failures (never a rank that only lost its peer while another failed), a stop that begins once and keeps its
// first reason, the user's stop that makes the run "stopped" whatever failed meanwhile, the nodes lost first,
// and a new attempt that starts clean. No process: milliseconds. launch.supervisor_logic drives the same
// rules through the Supervisor and a fake rank launcher.

#include "launch/run/run_ending.h"

#include <QtTest>

using ddpdesk::launch::RunEnding;

namespace {

RunEnding::Failure failure(int index, bool peerLost, const char* text) {
    RunEnding::Failure f;
    f.index = index;
    f.exitCode = peerLost ? 13 : 3;
    f.peerLost = peerLost;
    f.text = QString::fromLatin1(text);
    return f;
}

} // namespace

class RunEndingTest : public QObject {
    Q_OBJECT

private slots:
    void aCleanAttemptEndsOk() {
        RunEnding e;
        e.beginAttempt();
        QCOMPARE(e.status(), QStringLiteral("ok"));
        QVERIFY(!e.hasFailures() && !e.onlyPeersLost());
        QVERIFY(e.failureReason().isEmpty());
    }

    // Rank 1 lost its peer and its exit was read first; rank 0's own failure is the cause.
    void theCulpritIsTheFirstFailureThatIsNoConsequence() {
        RunEnding e;
        e.beginAttempt();
        e.addFailure(failure(1, true, "rank 1 exit code 13 (PEER_LOST)"));
        QVERIFY(e.onlyPeersLost());
        e.addFailure(failure(0, false, "rank 0 exit code 3"));
        QVERIFY(!e.onlyPeersLost());
        QCOMPARE(e.culprit().index, 0);
        QCOMPARE(e.latest().index, 0);
        QCOMPARE(e.status(), QStringLiteral("failed"));
        QCOMPARE(e.failureReason(),
                 QStringLiteral("rank 0 exit code 3 (first failure; 2 rank(s) failed in all)"));
    }

    // Every rank only lost a peer (the cause is on another node): the first is named.
    void onlyConsequencesNameTheFirst() {
        RunEnding e;
        e.beginAttempt();
        e.addFailure(failure(2, true, "rank 2 lost its peer"));
        e.addFailure(failure(3, true, "rank 3 lost its peer"));
        QVERIFY(e.onlyPeersLost());
        QCOMPARE(e.culprit().index, 2);
    }

    void aStopBeginsOnceAndKeepsItsFirstReason() {
        RunEnding e;
        e.beginAttempt();
        QVERIFY(e.beginStop(QStringLiteral("rank 0 exit code 3")));
        QVERIFY(e.stopping());
        QVERIFY(!e.beginStop(QStringLiteral("rank 1 exit code 13")));
        QCOMPARE(e.stopReason(), QStringLiteral("rank 0 exit code 3"));
        QVERIFY(!e.userStopped());
    }

    // The user's stop wins over failures seen meanwhile, and no node is "lost" after it.
    void theUsersStopEndsTheRunStopped() {
        RunEnding e;
        e.beginAttempt();
        e.nodeLost(QStringLiteral("node 1 (b)"));
        e.addFailure(failure(0, true, "rank 0 lost its peer"));
        e.userStops(QStringLiteral("stopped by the user"));
        e.nodeLost(QStringLiteral("node 2 (c)"));
        QCOMPARE(e.status(), QStringLiteral("stopped"));
        QCOMPARE(e.stopReason(), QStringLiteral("stopped by the user"));
        QVERIFY2(!e.failureReason().contains(QLatin1String("node 2")), qPrintable(e.failureReason()));
    }

    // A node whose launcher went away is named first: what this node's ranks then failed of.
    void aLostNodeIsNamedBeforeTheFailure() {
        RunEnding e;
        e.beginAttempt();
        e.nodeLost(QStringLiteral("node 1 (b)"));
        e.nodeLost(QStringLiteral("node 1 (b)"));
        e.addFailure(failure(0, true, "rank 0 lost its peer"));
        QCOMPARE(e.failureReason(),
                 QStringLiteral("node 1 (b) lost contact first (its launcher or machine went "
                                "away); then rank 0 lost its peer (first failure)"));
    }

    // A restart starts clean: no failure, stop or lost node of the attempt before (a pending restart is the
    // Supervisor's to clear when it starts the attempt).
    void aNewAttemptStartsClean() {
        RunEnding e;
        e.beginAttempt();
        e.nodeLost(QStringLiteral("node 1 (b)"));
        e.addFailure(failure(0, false, "rank 0 exit code 3"));
        e.beginStop(QStringLiteral("rank 0 exit code 3"));
        e.setRestartPending(true);
        QVERIFY(e.restartPending());
        e.setRestartPending(false);
        e.beginAttempt();
        QVERIFY(!e.hasFailures() && !e.stopping() && !e.userStopped() && !e.restartPending());
        QCOMPARE(e.status(), QStringLiteral("ok"));
        e.addFailure(failure(1, false, "rank 1 exit code 3"));
        QCOMPARE(e.failureReason(), QStringLiteral("rank 1 exit code 3 (first failure)"));
    }
};

QTEST_GUILESS_MAIN(RunEndingTest)
#include "test_run_ending.moc"
