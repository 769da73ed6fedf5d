// The real ddpdesk-worker under ddpdesk-cli: 2-worker runs on a FileStore and a TCPStore, a worker killed
// with SIGKILL mid-run (fails fast, names the rank, leaves nothing), and a restart from the last checkpoint.
#include "launch_test_util.h"

#include "launch/model/run_model.h"
#include "launch/model/run_replay.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

namespace {

const QStringList kSmall = {
    "--workload",      "autoencoder", "--nproc",   "2",  "--threads",      "1", "--batch-size", "16",
    "--limit-samples", "256",         "--timeout", "60", "--telemetry-ms", "0"};

// Waits until metrics.jsonl holds an event matching pred (polls the file the launcher appends to).
bool waitForEvent(const QString& path, const std::function<bool(const QJsonObject&)>& pred, int timeoutMs,
                  QProcess& cli) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs && cli.state() != QProcess::NotRunning) {
        for (const QJsonObject& e : launchtest::readJsonLines(path))
            if (pred(e)) return true;
        cli.waitForFinished(200);
    }
    return false;
}

// Starts `ddpdesk-cli run` for a run too long to end by itself (the test ends it) and waits for the launcher.
bool startEndlessRun(QProcess& cli, const QString& out, const QStringList& extra = {}) {
    const QStringList run{"run", "--steps", "1000000", "--out", out};
    cli.start(launchtest::envPath("DDPDESK_CLI"), run + extra + kSmall);
    return cli.waitForStarted(10000);
}

qint64 pidOfRank(const QString& metrics, int rank) {
    qint64 pid = 0;
    for (const QJsonObject& e : launchtest::readJsonLines(metrics))
        if (e["event"].toString() == QLatin1String("rank_start") && e["rank"].toInt() == rank)
            pid = qint64(e["pid"].toDouble()); // the latest attempt's
    return pid;
}

} // namespace

class RealRunsTest : public QObject {
    Q_OBJECT

    void checkOkRun(const QString& out, const launchtest::CliResult& r) {
        QVERIFY2(r.finished, "run did not finish");
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        const QJsonObject printed = QJsonDocument::fromJson(r.out.toUtf8()).object(); // --json
        const QJsonObject s = launchtest::readJsonFile(out + "/summary.json");
        QCOMPARE(printed, s);
        QCOMPARE(s["status"].toString(), QStringLiteral("ok"));
        QCOMPARE(s["world_size"].toInt(), 2);
        QCOMPARE(s["workload"].toString(), QStringLiteral("autoencoder"));
        QCOMPARE(s["steps"].toInt(), 12);
        QVERIFY(s["failed_rank"].isNull());
        QVERIFY(s["samples_per_s"].toDouble() > 0);
        QVERIFY(std::isfinite(s["final_loss"].toDouble()) && s["final_loss"].toDouble() > 0);
        QVERIFY(s["wall_s"].toDouble() > 0);
        QCOMPARE(s["params_identical"].toBool(false), true); // both workers' params_sha256 agree
        const QJsonArray ranks = s["ranks"].toArray();
        QCOMPARE(ranks.size(), 2);
        for (const QJsonValue& v : ranks) {
            QCOMPARE(v.toObject()["exit_code"].toInt(), 0);
            QVERIFY(v.toObject()["samples_per_s"].toDouble() > 0);
            const double share = v.toObject()["comm_wait_share"].toDouble();
            QVERIFY(share >= 0 && share <= 1);
            // The way to the first step, from the process start: LibTorch loaded, then ready to train (the
            // rendezvous with the rank's own data set and model beside it, the broadcast), then the step.
            const QJsonObject st = v.toObject()["startup"].toObject();
            const double running = st["running_s"].toDouble(-1), ready = st["ready_s"].toDouble(-1),
                         first = st["first_step_s"].toDouble(-1);
            QVERIFY2(running > 0 && running <= ready && ready <= first && first < s["wall_s"].toDouble(),
                     qPrintable(QJsonDocument(st).toJson(QJsonDocument::Compact)));
            QVERIFY2(st["prepare_s"].toDouble(-1) >= 0 && st["peer_wait_s"].toDouble(-1) >= 0,
                     qPrintable(QJsonDocument(st).toJson(QJsonDocument::Compact)));
        }
        const auto events = launchtest::readJsonLines(out + "/metrics.jsonl");
        for (int rank : {0, 1}) {
            QCOMPARE(launchtest::countEvents(events, "hello", rank), 1);
            QCOMPARE(launchtest::countEvents(events, "step", rank), 12);
            QCOMPARE(launchtest::countEvents(events, "done", rank), 1);
        }
        QCOMPARE(launchtest::countEvents(events, "launch"), 1);
        QCOMPARE(launchtest::countEvents(events, "run_end"), 1);
        QVERIFY(launchtest::leftovers(launchtest::workerPids(out + "/metrics.jsonl")).isEmpty());
        checkReplay(out, s);
    }

    // The recording, replayed, gives back the run: both ranks done at step 12 with the losses they reported.
    void checkReplay(const QString& out, const QJsonObject& s) {
        ddpdesk::launch::RunModel m;
        QString error;
        QVERIFY2(ddpdesk::launch::replayRecordedRun(out, &m, &error), qPrintable(error));
        QVERIFY(m.isFinished());
        QCOMPARE(m.rankCount(), 2);
        const auto events = launchtest::readJsonLines(out + "/metrics.jsonl");
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(m.rank(i).rank, i);
            QCOMPARE(m.rank(i).state, ddpdesk::launch::RankState::Done);
            QCOMPARE(m.rank(i).step, qint64(12));
            QCOMPARE(m.rank(i).exitCode, 0);
            QCOMPARE(m.lossSeries(i).size(), 12);
            QJsonObject lastStep;
            for (const QJsonObject& e : events)
                if (e["event"].toString() == QLatin1String("step") && e["rank"].toInt() == i) lastStep = e;
            QCOMPARE(m.lossSeries(i).last().y(), lastStep["loss"].toDouble());
            QCOMPARE(m.lossSeries(i).last().x(), lastStep["t"].toDouble() - events.first()["t"].toDouble());
            // The same way to the first step (the live start time is taken a moment before rank_start is
            // written).
            const ddpdesk::launch::RankStartup& st = m.rank(i).startup;
            const QJsonObject live = s["ranks"].toArray()[i].toObject()["startup"].toObject();
            QVERIFY(std::abs((st.firstStepT - st.startedT) - live["first_step_s"].toDouble()) < 0.05);
            QCOMPARE(st.prepareS, live["prepare_s"].toDouble());
        }
        const ddpdesk::launch::RunSummary r = m.summary();
        QCOMPARE(r.status, QStringLiteral("ok"));
        QCOMPARE(r.steps, qint64(12));
        QCOMPARE(r.finalLoss, s["final_loss"].toDouble());
        QCOMPARE(r.wallS, s["wall_s"].toDouble());
        QCOMPARE(m.progress(), 1.0);
        QVERIFY(m.elapsedS() > 0 &&
                m.elapsedS() <= events.last()["t"].toDouble() - events.first()["t"].toDouble());
    }

private slots:
    void fileStoreTwoWorkers() {
        QTemporaryDir dir;
        const QString out = dir.filePath("run");
        const auto r =
            launchtest::runCli(QStringList{"run", "--steps", "12", "--out", out, "--json"} + kSmall, 120000);
        checkOkRun(out, r);
        // The default store: a fresh FileStore inside --out, its folder gone with it at the end.
        QFile metrics(out + "/metrics.jsonl");
        QVERIFY(metrics.open(QIODevice::ReadOnly));
        QVERIFY(metrics.readAll().contains("\"store\":\"file:" + out.toUtf8() + "/store/filestore\""));
        QVERIFY(!QFileInfo::exists(out + "/store"));
    }

    void tcpStoreTwoWorkers() {
        QTemporaryDir dir;
        const QString out = dir.filePath("run");
        const QString store = QStringLiteral("tcp://127.0.0.1:%1").arg(launchtest::freePort());
        const auto r = launchtest::runCli(
            QStringList{"run", "--steps", "12", "--store", store, "--out", out, "--json"} + kSmall, 120000);
        checkOkRun(out, r);
        const auto events = launchtest::readJsonLines(out + "/metrics.jsonl");
        QCOMPARE(events.first()["store"].toString(), store);
    }

    void sigkillFailsFastAndNamesTheRank() {
        QTemporaryDir dir;
        const QString out = dir.filePath("run");
        QProcess cli;
        QVERIFY(startEndlessRun(cli, out));
        const QString metrics = out + "/metrics.jsonl";
        QVERIFY2(waitForEvent(
                     metrics,
                     [](const QJsonObject& e) {
                         return e["event"].toString() == "step" && e["rank"].toInt() == 1 &&
                                e["step"].toInt() >= 3;
                     },
                     90000, cli),
                 qPrintable(cli.readAllStandardError()));
        const qint64 victim = pidOfRank(metrics, 1);
        QVERIFY(victim > 0);
        QCOMPARE(QProcess::execute("kill", {"-KILL", QString::number(victim)}), 0);
        QElapsedTimer sinceKill;
        sinceKill.start();
        QVERIFY2(cli.waitForFinished(30000), "the launcher did not end after a worker was killed");
        QVERIFY2(sinceKill.elapsed() < 15000, qPrintable(QString::number(sinceKill.elapsed())));
        const QString stdoutText = QString::fromUtf8(cli.readAllStandardOutput());
        QCOMPARE(cli.exitCode(), 1);
        const QJsonObject s = launchtest::readJsonFile(out + "/summary.json");
        QCOMPARE(s["status"].toString(), QStringLiteral("failed"));
        QCOMPARE(s["failed_rank"].toInt(), 1);
        QVERIFY2(s["failure_reason"].toString().contains("rank 1 killed by signal 9 (SIGKILL)"),
                 qPrintable(s["failure_reason"].toString()));
        QVERIFY2(stdoutText.contains("failed: rank 1 killed by signal 9"), qPrintable(stdoutText));
        QVERIFY(launchtest::leftovers(launchtest::workerPids(metrics)).isEmpty());
    }

    void ctrlCStopsCleanlyAndKeepsTheCheckpoint() {
        QTemporaryDir dir;
        const QString out = dir.filePath("run");
        QProcess cli;
        QVERIFY(startEndlessRun(cli, out, {"--checkpoint-every", "5"}));
        const QString metrics = out + "/metrics.jsonl";
        QVERIFY(waitForEvent(
            metrics, [](const QJsonObject& e) { return e["event"].toString() == "checkpoint"; }, 90000, cli));
        QCOMPARE(QProcess::execute("kill", {"-INT", QString::number(cli.processId())}), 0);
        QVERIFY2(cli.waitForFinished(30000), "Ctrl-C did not end the run");
        QCOMPARE(cli.exitCode(), 130);
        const QJsonObject s = launchtest::readJsonFile(out + "/summary.json");
        QCOMPARE(s["status"].toString(), QStringLiteral("stopped"));
        QVERIFY(s["failed_rank"].isNull());
        QVERIFY2(s["failure_reason"].toString().contains("Ctrl-C"),
                 qPrintable(s["failure_reason"].toString()));
        QVERIFY(QFileInfo(out + "/checkpoint.pt").size() > 0);
        QVERIFY(launchtest::leftovers(launchtest::workerPids(metrics)).isEmpty());
    }

    void workersDieWithACrashedLauncher() {
        QTemporaryDir dir;
        const QString out = dir.filePath("run");
        QProcess cli;
        QVERIFY(startEndlessRun(cli, out));
        const QString metrics = out + "/metrics.jsonl";
        QVERIFY(waitForEvent(
            metrics, [](const QJsonObject& e) { return e["event"].toString() == "step"; }, 90000, cli));
        const QVector<qint64> pids = launchtest::workerPids(metrics);
        QCOMPARE(pids.size(), 2);
        cli.kill(); // SIGKILL: the launcher gets no chance to clean up; the parent-death signal must do it
        QVERIFY(cli.waitForFinished(10000));
        const QVector<qint64> left = launchtest::leftovers(pids, 5000);
        QVERIFY2(left.isEmpty(), "workers outlived their launcher");
    }

    void restartFromCheckpoint() {
        QTemporaryDir dir;
        const QString out = dir.filePath("run");
        QProcess cli;
        const int steps = 400;
        cli.start(launchtest::envPath("DDPDESK_CLI"),
                  QStringList{"run", "--steps", QString::number(steps), "--checkpoint-every", "5",
                              "--max-restarts", "1", "--out", out, "--json"} +
                      kSmall);
        QVERIFY(cli.waitForStarted(10000));
        const QString metrics = out + "/metrics.jsonl";
        QVERIFY2(waitForEvent(
                     metrics,
                     [](const QJsonObject& e) {
                         return e["event"].toString() == "checkpoint" && e["step"].toInt() >= 10;
                     },
                     90000, cli),
                 qPrintable(cli.readAllStandardError()));
        QCOMPARE(QProcess::execute("kill", {"-KILL", QString::number(pidOfRank(metrics, 1))}), 0);
        QVERIFY2(cli.waitForFinished(180000), "the restarted run did not finish");
        const QString err = QString::fromUtf8(cli.readAllStandardError());
        QVERIFY2(cli.exitCode() == 0, qPrintable(err));
        const QJsonObject s = launchtest::readJsonFile(out + "/summary.json");
        QCOMPARE(s["status"].toString(), QStringLiteral("ok"));
        QCOMPARE(s["restarts"].toInt(), 1);
        QCOMPARE(s["steps"].toInt(), steps);
        const auto events = launchtest::readJsonLines(metrics);
        QCOMPARE(launchtest::countEvents(events, "restart"), 1);
        // After the restart the ranks continue from the checkpoint, not from step 1.
        bool afterRestart = false;
        int firstStepAfter = -1;
        for (const QJsonObject& e : events) {
            afterRestart = afterRestart || e["event"].toString() == "restart";
            if (afterRestart && e["event"].toString() == "step" && firstStepAfter < 0)
                firstStepAfter = e["step"].toInt();
        }
        QVERIFY2(firstStepAfter > 5, qPrintable(QString::number(firstStepAfter)));
        QVERIFY(launchtest::leftovers(launchtest::workerPids(metrics)).isEmpty());
    }
};

QTEST_GUILESS_MAIN(RealRunsTest)
#include "test_real_runs.moc"
