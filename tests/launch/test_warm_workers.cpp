// Warm workers (launch/warm_workers.h, protocol/warm_start.h) with the real ddpdesk-worker: processes started
// ahead train exactly like cold ones once a Supervisor hands them a rank, get the rank's environment (a
// broken secret in the environment they started with is replaced), leave nothing behind when let go or killed
// while waiting, and a sweep's later sizes start warm. The worker refuses a configuration line that is not
// one.
#include "launch_test_util.h"

#include "launch/run/supervisor.h"
#include "launch/run/sweep.h"
#include "launch/run/warm_workers.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace ddpdesk::launch;

class WarmWorkersTest : public QObject {
    Q_OBJECT

    QString m_worker;

    RunConfig config(const QString& out) { return launchtest::smallRun(out, 12); }

    // Runs `c` to its end; the ranks' rank_start and done events.
    bool run(const RunConfig& c, WarmWorkers* pool, QVector<QJsonObject>* starts, QSet<QString>* digests) {
        Supervisor s;
        s.setMonitorIntervalMs(0);
        s.setWarmWorkers(pool);
        QSignalSpy finished(&s, &Supervisor::finished);
        if (!s.start(c)) return false;
        if (!finished.wait(120000)) return false;
        for (const QJsonObject& e : launchtest::readJsonLines(c.outDir + "/metrics.jsonl")) {
            if (e["event"].toString() == QLatin1String("rank_start")) starts->push_back(e);
            if (e["event"].toString() == QLatin1String("done"))
                digests->insert(e["params_sha256"].toString());
        }
        return finished.first().first().toBool();
    }

    static bool waitUntilStarted(const WarmWorkers& pool, int n) {
        QElapsedTimer t;
        t.start();
        while (pool.pids().size() < n && t.elapsed() < 10000)
            QTest::qWait(20);
        return pool.pids().size() == n;
    }

private slots:
    void initTestCase() {
        qputenv("DDPDESK_WORKER", launchtest::envPath("DDPDESK_WORKER_BIN").toLocal8Bit());
        m_worker = Supervisor::findWorker(nullptr);
        QVERIFY(!m_worker.isEmpty());
    }

    void warmRanksTrainLikeColdOnes() {
        QTemporaryDir dir;
        // The environment the warm workers start with holds a malformed secret: a rank that kept it would
        // refuse to run (BAD_INPUT), so success proves each got the rank's own environment.
        qputenv("DDPDESK_RUN_SECRET", "not-hex");
        WarmWorkers pool;
        pool.fill(m_worker, 2);
        qunsetenv("DDPDESK_RUN_SECRET");
        QVERIFY(waitUntilStarted(pool, 2));
        const QList<qint64> waiting = pool.pids();
        QTest::qWait(1500); // LibTorch loaded

        QVector<QJsonObject> warmStarts, coldStarts;
        QSet<QString> warmDigests, coldDigests;
        QVERIFY(run(config(dir.filePath("warm")), &pool, &warmStarts, &warmDigests));
        QCOMPARE(pool.waiting(), 0);
        QCOMPARE(warmStarts.size(), 2);
        for (const QJsonObject& e : warmStarts) {
            QVERIFY(e["warm"].toBool());
            QVERIFY(waiting.contains(qint64(e["pid"].toDouble())));
        }
        QVERIFY(run(config(dir.filePath("cold")), nullptr, &coldStarts, &coldDigests));
        for (const QJsonObject& e : coldStarts)
            QVERIFY(!e["warm"].toBool());
        // Bit-identical parameters on every rank of both runs.
        QCOMPARE(warmDigests.size(), 1);
        QCOMPARE(warmDigests, coldDigests);
    }

    void waitingWorkersLeaveNothingBehind() {
        QList<qint64> pids;
        {
            WarmWorkers pool;
            pool.fill(m_worker, 2);
            QVERIFY(waitUntilStarted(pool, 2));
            pids = pool.pids();
            // One dies while waiting: it is not handed out.
            QVERIFY(QProcess::execute("kill", {"-9", QString::number(pids[0])}) == 0);
            QTRY_COMPARE_WITH_TIMEOUT(pool.waiting(), 1, 5000);
            QTemporaryDir dir;
            QVector<QJsonObject> starts;
            QSet<QString> digests;
            // Two ranks, one waiting worker: one starts warm, the other cold.
            pool.fill(m_worker, 1);
            QVERIFY(run(config(dir.path()), &pool, &starts, &digests));
            int warm = 0;
            for (const QJsonObject& e : starts)
                warm += e["warm"].toBool() ? 1 : 0;
            QCOMPARE(warm, 1);
            pool.fill(m_worker, 2);
            QVERIFY(waitUntilStarted(pool, 2));
            pids = pool.pids();
        } // let go: their input ends and they exit
        QVERIFY2(launchtest::leftovers(QVector<qint64>(pids.begin(), pids.end())).isEmpty(),
                 "a waiting worker outlived its pool");
    }

    void aSweepStartsLaterSizesWarm() {
        QTemporaryDir dir;
        SweepRunner sweep;
        QSignalSpy finished(&sweep, &SweepRunner::finished);
        RunConfig base = config(dir.path());
        QVERIFY(sweep.start(base, parseNprocList(QStringLiteral("1,2"), nullptr)));
        QVERIFY(finished.wait(180000));
        QVERIFY(finished.first().first().toBool());
        int warm = 0, cold = 0;
        for (const QString& size : {QStringLiteral("n1"), QStringLiteral("n2")})
            for (const QJsonObject& e : launchtest::readJsonLines(dir.filePath(size + "/metrics.jsonl")))
                if (e["event"].toString() == QLatin1String("rank_start"))
                    (e["warm"].toBool() ? warm : cold) += 1;
        QCOMPARE(cold, 1); // the first size
        QCOMPARE(warm, 2); // the second
    }

    void theWorkerRefusesAMalformedConfiguration() {
        QProcess p;
        p.start(m_worker, {"--wait-for-config"});
        QVERIFY(p.waitForStarted());
        p.write("{\"argz\": []}\n");
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 2);
        const QByteArray out = p.readAllStandardOutput();
        QVERIFY2(out.contains("\"code\":\"BAD_INPUT\"") && out.contains("--wait-for-config"),
                 out.constData());
        // No line at all: the launcher let it go; it leaves without a word.
        QProcess idle;
        idle.start(m_worker, {"--wait-for-config"});
        QVERIFY(idle.waitForStarted());
        idle.closeWriteChannel();
        QVERIFY(idle.waitForFinished(30000));
        QCOMPARE(idle.exitCode(), 0);
        QVERIFY(idle.readAllStandardOutput().isEmpty());
    }
};

QTEST_GUILESS_MAIN(WarmWorkersTest)
#include "test_warm_workers.moc"
