// Replaying a recorded run folder (metrics.jsonl + summary.json) into a RunModel: rank states, steps, losses,
// series on the recording's own time axis, stderr tails, restarts and the recorded summary. The recording is
// written event by event with the telemetry protocol's own encoder, in the supervisor's launcher-event
// format.
#include "launch/model/run_model.h"
#include "launch/model/run_replay.h"
#include "protocol/telemetry.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace ddpdesk;

namespace {

constexpr double kT0 = 1796036358.5; // the recording's first event

class Recording {
public:
    explicit Recording(const QString& dir) : m_file(QDir(dir).filePath("metrics.jsonl")) {
        m_file.open(QIODevice::WriteOnly);
    }
    nlohmann::json& add(const char* type, int rank, double dt, bool launcher = false) {
        m_events.push_back(protocol::makeEvent(type, rank));
        m_events.back()["t"] = kT0 + dt;
        if (launcher) m_events.back()["source"] = "launcher";
        return m_events.back();
    }
    void close() {
        for (const auto& e : m_events)
            m_file.write(QByteArray::fromStdString(protocol::encodeLine(e)) + '\n');
        m_file.write("not telemetry: a stray line\n");
        m_file.close();
    }

private:
    QFile m_file;
    std::vector<nlohmann::json> m_events;
};

void writeSummary(const QString& dir, const QJsonObject& s) {
    QFile f(QDir(dir).filePath("summary.json"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(s).toJson());
}

// Two ranks: rank 1 crashes at step 6, the launcher restarts both, the second attempt runs 10 steps to done.
void recordRestartedRun(const QString& dir) {
    Recording r(dir);
    r.add("launch", -1, 0, true)["program"] = "ddpdesk-worker";
    double t = 0.1;
    for (int attempt = 0; attempt < 2; ++attempt) {
        for (int rank : {0, 1}) {
            auto& s = r.add("rank_start", rank, t, true);
            s["local_rank"] = rank;
            s["pid"] = 1000 + 10 * attempt + rank;
            s["attempt"] = attempt;
        }
        auto& proc = r.add("proc", -1, t + 0.05);
        proc["processes"] =
            nlohmann::json::array({{{"pid", 1000 + 10 * attempt}, {"rank", 0}, {"rss_bytes", 123}}});
        for (int rank : {0, 1}) {
            auto& h = r.add("hello", rank, t + 0.2);
            h["world_size"] = 2;
            h["local_rank"] = rank;
            h["host"] = "node-a";
            h["pid"] = 1000 + 10 * attempt + rank;
            h["workload"] = "autoencoder";
            r.add("rendezvous", rank, t + 0.3)["phase"] = "done";
        }
        const int steps = attempt == 0 ? 6 : 10;
        for (int step = 1; step <= steps; ++step) {
            t += 0.5;
            for (int rank : {0, 1}) {
                auto& s = r.add("step", rank, t + 0.01 * rank);
                s["epoch"] = 0;
                s["step"] = step;
                s["loss"] = 1.0 / step + 0.1 * rank;
                s["samples"] = 16 * step;
                s["step_ms"] = 500.0;
                s["comm_wait_ms"] = 50.0;
                s["total_steps"] = 10;
            }
        }
        if (attempt == 0) {
            auto& log = r.add("log", 1, t + 0.1);
            log["stream"] = "stderr";
            log["text"] = "rank 1: out of memory";
            auto& err = r.add("error", 1, t + 0.1);
            err["code"] = "worker_exception";
            err["message"] = "out of memory";
            auto& x = r.add("rank_exit", 1, t + 0.2, true);
            x["local_rank"] = 1;
            x["exit_code"] = 3;
            x["state"] = "failed";
            x["text"] = "exit code 3";
            auto& rs = r.add("restart", -1, t + 0.3, true);
            rs["restart"] = 1;
            t += 1.0;
        }
    }
    for (int rank : {0, 1}) {
        auto& d = r.add("done", rank, t + 0.1);
        d["steps"] = 10;
        d["final_loss"] = 0.1 + 0.1 * rank;
        auto& x = r.add("rank_exit", rank, t + 0.2, true);
        x["local_rank"] = rank;
        x["exit_code"] = 0;
        x["state"] = "done";
        x["text"] = "exit code 0";
    }
    r.add("run_end", -1, t + 0.3, true)["summary"] = {{"status", "ok"}};
    r.close();
    writeSummary(dir, QJsonObject{{"status", "ok"},
                                  {"world_size", 2},
                                  {"workload", "autoencoder"},
                                  {"steps", 10},
                                  {"wall_s", 7.25},
                                  {"samples_per_s", 64.0},
                                  {"final_loss", 0.15},
                                  {"test_accuracy", QJsonValue()},
                                  {"failed_rank", QJsonValue()},
                                  {"failure_reason", QJsonValue()},
                                  {"failed_rank_stderr", QJsonArray()},
                                  {"restarts", 1}});
}

// Appends raw lines to a recording's metrics.jsonl, e.g. damaged ones.
void appendLines(const QString& dir, const QList<QByteArray>& lines) {
    QFile f(QDir(dir).filePath("metrics.jsonl"));
    QVERIFY(f.open(QIODevice::Append));
    for (const QByteArray& l : lines)
        f.write(l + '\n');
}

// A recording of `ranks` local ranks as the supervisor writes it: each rank started, its hello and
// rendezvous, `steps` steps in lockstep (every rank's step s before any rank's step s+1), done and exit.
void recordManyRanks(const QString& dir, int ranks, int steps) {
    QFile f(QDir(dir).filePath("metrics.jsonl"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    auto put = [&f](nlohmann::json e, double dt, bool launcher = false) {
        e["t"] = kT0 + dt;
        if (launcher) e["source"] = "launcher";
        f.write(QByteArray::fromStdString(protocol::encodeLine(e)) + '\n');
    };
    for (int rank = 0; rank < ranks; ++rank) {
        auto s = protocol::makeEvent("rank_start", rank);
        s["local_rank"] = rank;
        s["pid"] = 10000 + rank;
        put(s, 0.1, true);
    }
    for (int rank = 0; rank < ranks; ++rank) {
        auto h = protocol::makeEvent("hello", rank);
        h["world_size"] = ranks;
        h["local_rank"] = rank;
        h["host"] = "node-a";
        h["workload"] = "autoencoder";
        put(h, 1);
        auto rv = protocol::makeEvent("rendezvous", rank);
        rv["phase"] = "done";
        put(rv, 2);
    }
    for (int step = 1; step <= steps; ++step)
        for (int rank = 0; rank < ranks; ++rank) {
            auto s = protocol::makeEvent("step", rank);
            s["epoch"] = 0;
            s["step"] = step;
            s["loss"] = 1.0 / step + 1e-6 * rank;
            s["samples"] = 16 * step;
            s["step_ms"] = 100.0;
            s["total_steps"] = steps;
            put(s, 2 + step);
        }
    for (int rank = 0; rank < ranks; ++rank) {
        auto d = protocol::makeEvent("done", rank);
        d["steps"] = steps;
        d["final_loss"] = 1.0 / steps;
        put(d, 3 + steps);
        auto x = protocol::makeEvent("rank_exit", rank);
        x["local_rank"] = rank;
        x["exit_code"] = 0;
        x["state"] = "done";
        x["text"] = "exit code 0";
        put(x, 3.5 + steps, true);
    }
}

// Seconds one replay of `dir` takes; false in *ok when it failed.
double replaySeconds(const QString& dir, int expectRanks, bool* ok) {
    launch::RunModel m;
    QString error;
    QElapsedTimer timer;
    timer.start();
    *ok = launch::replayRecordedRun(dir, &m, &error) && m.rankCount() == expectRanks &&
          m.rank(expectRanks - 1).state == launch::RankState::Done;
    return double(timer.nsecsElapsed()) / 1e9;
}

// Peak resident memory of this process so far (Linux), in KiB; -1 where unknown.
qint64 peakRssKiB() {
    QFile f("/proc/self/status");
    if (!f.open(QIODevice::ReadOnly)) return -1;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith("VmHWM:")) return line.mid(6).trimmed().split(' ').first().toLongLong();
    return -1;
}

} // namespace

class RunReplayTest : public QObject {
    Q_OBJECT

private slots:
    // Issue 41: a rank's step count never goes back within an attempt (a forked child's stale copy of the
    // counts once took a run from 192 to 128 steps at its end): such an event is dropped and counted. A
    // restart, or another node's rank started again, may resume anywhere.
    void aStepThatGoesBackIsDroppedAndCounted() {
        ddpdesk::launch::RunModel model;
        model.reset({0, 1}, 2, QStringLiteral("script"), 0);
        auto step = [&](int index, int n) {
            nlohmann::json e = ddpdesk::protocol::makeEvent("step", index);
            e["step"] = n;
            e["samples"] = n * 32;
            model.applyLine(index, QByteArray::fromStdString(ddpdesk::protocol::encodeLine(e)));
        };
        step(0, 5);
        step(0, 192);
        step(0, 128);
        QCOMPARE(model.rank(0).step, qint64(192));
        QCOMPARE(model.rank(0).staleStepEvents, qint64(1));
        QCOMPARE(model.rank(0).samples, qint64(192 * 32));
        const QJsonObject summary = model.summary().toJson(model.ranks());
        QCOMPARE(summary["ranks"].toArray()[0].toObject()["stale_step_events"].toInt(), 1);
        QCOMPARE(summary["steps"].toInt(), 192);
        model.noteRestart(); // resumed from a checkpoint at step 100
        step(0, 100);
        QCOMPARE(model.rank(0).step, qint64(100));
        step(1, 50);
        model.setRankState(1, ddpdesk::launch::RankState::Starting); // its node started it again
        step(1, 10);
        QCOMPARE(model.rank(1).step, qint64(10));
        QCOMPARE(model.rank(1).staleStepEvents, qint64(0));
    }

    void replaysARestartedRun() {
        QTemporaryDir dir;
        recordRestartedRun(dir.path());
        launch::RunModel m;
        QSignalSpy finished(&m, &launch::RunModel::runFinished);
        QString error;
        QVERIFY2(launch::replayRecordedRun(dir.path(), &m, &error), qPrintable(error));
        QVERIFY(m.isFinished());
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.first().first().toBool(), true);

        QCOMPARE(m.rankCount(), 2);
        for (int i = 0; i < 2; ++i) {
            const launch::RankStatus& r = m.rank(i);
            QCOMPARE(r.rank, i);
            QCOMPARE(r.state, launch::RankState::Done);
            QCOMPARE(r.step, qint64(10));
            QCOMPARE(r.exitCode, 0);
            QCOMPARE(r.exitText, QStringLiteral("exit code 0"));
            QCOMPARE(r.pid, qint64(1010 + i)); // the second attempt's process
            QCOMPARE(r.host, QStringLiteral("node-a"));
            QCOMPARE(r.loss, 0.1 + 0.1 * i); // done's final_loss
            QVERIFY(std::fabs(r.commWaitShare - 0.1) < 1e-9);
            QVERIFY(r.samplesPerSec > 0);
        }
        // The failed first attempt left its stderr; error fields were cleared by the restart.
        QCOMPARE(m.rank(1).lastStderr, QStringList{"rank 1: out of memory"});
        QVERIFY(m.rank(1).errorCode.isEmpty());
        QCOMPARE(m.lastProcReadings().size(), 1);

        // Series on the recording's time axis: 6 + 10 step events per rank, x from the launch event.
        QCOMPARE(m.lossSeries(0).size(), 16);
        QVERIFY(std::fabs(m.lossSeries(0).first().x() - 0.6) < 1e-6);
        QCOMPARE(m.lossSeries(0).first().y(), 1.0);
        QCOMPARE(m.lossSeries(1).last().y(), 1.0 / 10 + 0.1);
        QVERIFY(std::fabs(m.lossSeries(0).last().x() - (0.1 + 16 * 0.5 + 1.0)) < 1e-6);
        QVERIFY(!m.globalLossSeries().isEmpty());
        QVERIFY(std::fabs(m.globalLossSeries().last().y() - (0.1 + 0.2) / 2) < 1e-9);

        // Elapsed runs from the first event to the last, not to now; progress is complete, no ETA left.
        QVERIFY(std::fabs(m.elapsedS() - (0.1 + 16 * 0.5 + 1.0 + 0.3)) < 1e-6);
        QCOMPARE(m.expectedSteps(), qint64(10));
        QCOMPARE(m.progress(), 1.0);
        QCOMPARE(m.etaS(), 0.0);

        // The summary is the recorded one.
        const launch::RunSummary s = m.summary();
        QCOMPARE(s.status, QStringLiteral("ok"));
        QCOMPARE(s.restarts, 1);
        QCOMPARE(s.steps, qint64(10));
        QCOMPARE(s.wallS, 7.25);
        QCOMPARE(s.samplesPerS, 64.0);
        QCOMPARE(s.finalLoss, 0.15);
        QCOMPARE(s.failedRank, -1);
        QCOMPARE(s.worldSize, 2);
        QCOMPARE(s.workload, QStringLiteral("autoencoder"));
        QVERIFY(std::isnan(s.testAccuracy));
    }

    void skipsDeepAndLongLinesAndCounts() {
        QTemporaryDir dir;
        recordRestartedRun(dir.path());
        // A 100,000-deep nested event and a 1 MiB event between valid lines, then a valid line after them.
        const QByteArray deep = "{\"v\":1,\"event\":\"step\",\"rank\":0,\"x\":" + QByteArray(100000, '[') +
                                QByteArray(100000, ']') + "}";
        nlohmann::json big = protocol::makeEvent("log", 1);
        big["stream"] = "stderr";
        big["text"] = std::string(1 << 20, 'x');
        nlohmann::json after = protocol::makeEvent("log", 1);
        after["t"] = kT0 + 20;
        after["stream"] = "stderr";
        after["text"] = "after the damage";
        appendLines(dir.path(), {deep, QByteArray::fromStdString(protocol::encodeLine(big)),
                                 QByteArray::fromStdString(protocol::encodeLine(after))});
        launch::RunModel m;
        launch::ReplayStats stats;
        QString error;
        QVERIFY2(launch::replayRecordedRun(dir.path(), &m, &error, &stats), qPrintable(error));
        QCOMPARE(stats.skipped(), qint64(2));
        QCOMPARE(stats.skippedTooDeep, qint64(1));
        QCOMPARE(stats.skippedTooLong, qint64(1));
        QVERIFY2(stats.describe().startsWith("2 of "), qPrintable(stats.describe()));
        // The valid lines around them all arrived.
        QCOMPARE(m.rank(0).state, launch::RankState::Done);
        QCOMPARE(m.lossSeries(0).size(), 16);
        QCOMPARE(m.rank(1).lastStderr.last(), QStringLiteral("after the damage"));
        // A clean recording skips nothing and says nothing.
        QTemporaryDir clean;
        recordRestartedRun(clean.path());
        QVERIFY(launch::replayRecordedRun(clean.path(), &m, &error, &stats));
        QCOMPARE(stats.skipped(), qint64(0));
        QVERIFY(stats.describe().isEmpty());
    }

    void anOverlongLastLineWithoutNewlineIsSkipped() {
        QTemporaryDir dir;
        recordRestartedRun(dir.path());
        QFile f(dir.filePath("metrics.jsonl"));
        QVERIFY(f.open(QIODevice::Append));
        f.write("{\"v\":1,\"event\":\"log\",\"rank\":0,\"text\":\"" + QByteArray(200000, 'y')); // cut off
        f.close();
        launch::RunModel m;
        launch::ReplayStats stats;
        QString error;
        QVERIFY2(launch::replayRecordedRun(dir.path(), &m, &error, &stats), qPrintable(error));
        QCOMPARE(stats.skippedTooLong, qint64(1));
        QCOMPARE(m.rank(1).step, qint64(10));
    }

    void streamsALargeRecordingInBoundedMemory() {
        // ~105 MiB of recording: mostly 60 KiB stderr lines plus steps. Holding it whole (as lines or parsed
        // values) would raise the peak RSS by far more than the model itself needs.
        QTemporaryDir dir;
        {
            QFile f(dir.filePath("metrics.jsonl"));
            QVERIFY(f.open(QIODevice::WriteOnly));
            auto put = [&f](const nlohmann::json& e) {
                f.write(QByteArray::fromStdString(protocol::encodeLine(e)) + '\n');
            };
            for (int rank : {0, 1}) {
                auto s = protocol::makeEvent("rank_start", rank);
                s["t"] = kT0;
                s["source"] = "launcher";
                s["local_rank"] = rank;
                put(s);
            }
            const std::string text(60 * 1024, 'z');
            for (int i = 0; i < 1800; ++i) {
                auto log = protocol::makeEvent("log", i % 2);
                log["t"] = kT0 + i;
                log["stream"] = "stderr";
                log["text"] = text;
                put(log);
                auto step = protocol::makeEvent("step", i % 2);
                step["t"] = kT0 + i + 0.5;
                step["step"] = i / 2 + 1;
                step["loss"] = 1.0 / (i + 1);
                put(step);
            }
            QVERIFY(f.size() > 100LL << 20);
        }
        const qint64 before = peakRssKiB();
        if (before < 0) QSKIP("no /proc/self/status here");
        launch::RunModel m;
        launch::ReplayStats stats;
        QString error;
        QVERIFY2(launch::replayRecordedRun(dir.path(), &m, &error, &stats), qPrintable(error));
        const qint64 grewKiB = peakRssKiB() - before;
        qInfo("replaying %lld lines raised the peak RSS by %lld KiB", stats.lines, grewKiB);
        QCOMPARE(stats.lines, qint64(2 + 2 * 1800));
        QCOMPARE(stats.skipped(), qint64(0));
        QCOMPARE(m.rank(1).step, qint64(900));
        QCOMPARE(int(m.rank(0).lastStderr.size()), int(launch::RunModel::kStderrLines));
        QVERIFY2(grewKiB < 48 * 1024, qPrintable(QStringLiteral("peak RSS grew by %1 KiB").arg(grewKiB)));
    }

    void replayTimeGrowsLinearlyWithTheRanks() {
        // 4x the ranks (and 4x the events) must cost about 4x the time, not 16x: per-event work that scans
        // every rank made a 60,000-rank recording take 46 s. Machines are noisy, so no absolute time is
        // asserted: the two sizes are timed side by side, best of three each, and their ratio must stay far
        // below the quadratic 16.
        const int small = 3000;
        const int steps = 3;
        QTemporaryDir smallDir, largeDir;
        recordManyRanks(smallDir.path(), small, steps);
        recordManyRanks(largeDir.path(), 4 * small, steps);
        double best[2] = {1e9, 1e9};
        for (int round = 0; round < 3; ++round)
            for (int which : {0, 1}) {
                bool ok = false;
                const double s =
                    replaySeconds(which ? largeDir.path() : smallDir.path(), which ? 4 * small : small, &ok);
                QVERIFY(ok);
                best[which] = std::min(best[which], s);
            }
        const double ratio = best[1] / best[0];
        qInfo("replay of %d ranks: %.3f s, of %d ranks: %.3f s (x%.1f)", small, best[0], 4 * small, best[1],
              ratio);
        QVERIFY2(ratio < 8.0,
                 qPrintable(QStringLiteral("4x the ranks took %1x the time").arg(ratio, 0, 'f', 1)));
        // The replayed model is right at that size too: every rank done at the last step, global loss
        // advanced once per step.
        launch::RunModel m;
        QString error;
        QVERIFY2(launch::replayRecordedRun(smallDir.path(), &m, &error), qPrintable(error));
        QCOMPARE(m.indexOfRank(small - 1), small - 1);
        QCOMPARE(m.indexOfRank(small), -1);
        QCOMPARE(m.rank(small / 2).step, qint64(steps));
        QCOMPARE(m.globalLossSeries().size(), steps);
        QCOMPARE(m.progress(), 1.0);
        QCOMPARE(m.summary().steps, qint64(steps));
    }

    void replayReplacesAnEarlierRun() {
        QTemporaryDir dir;
        recordRestartedRun(dir.path());
        launch::RunModel m;
        m.reset({0, 1, 2, 3}, 4, "old", 99);
        m.finish("failed", 2, "old failure");
        QString error;
        QVERIFY2(launch::replayRecordedRun(dir.path(), &m, &error), qPrintable(error));
        QCOMPARE(m.rankCount(), 2);
        QCOMPARE(m.summary().status, QStringLiteral("ok"));
        QCOMPARE(m.summary().failureReason, QString());
        // A finished replay leaves the model on the wall clock again; its elapsed time stays the recorded
        // one.
        QVERIFY(m.elapsedS() < 60);
    }

    void diagnosisSurvivesTheSummaryFile() {
        // History reopens a failed run with the same explanation and fix the live run showed.
        launch::RunSummary s;
        s.status = QStringLiteral("failed");
        s.failedRank = 1;
        launch::Diagnosis d;
        d.code = "NCCL_UNAVAILABLE";
        d.rank = 1;
        d.message = "no NCCL";
        d.fix = "use gloo";
        d.matched = "Distributed package doesn't have NCCL built in";
        d.firstFailedRank = 0;
        s.diagnosis = d;
        const launch::RunSummary back = launch::RunSummary::fromJson(s.toJson({}));
        QVERIFY(back.diagnosis);
        QCOMPARE(back.diagnosis->code, d.code);
        QCOMPARE(back.diagnosis->rank, 1);
        QCOMPARE(back.diagnosis->message, d.message);
        QCOMPARE(back.diagnosis->fix, d.fix);
        QCOMPARE(back.diagnosis->matched, d.matched);
        QCOMPARE(back.diagnosis->firstFailedRank, 0);
        QVERIFY(!launch::RunSummary::fromJson(launch::RunSummary().toJson({})).diagnosis);
    }

    void runWithoutSummaryEndsStopped() {
        QTemporaryDir dir;
        recordRestartedRun(dir.path());
        QVERIFY(QFile::remove(dir.filePath("summary.json")));
        launch::RunModel m;
        QString error;
        QVERIFY2(launch::replayRecordedRun(dir.path(), &m, &error), qPrintable(error));
        QCOMPARE(m.summary().status, QStringLiteral("stopped"));
        QCOMPARE(m.summary().steps, qint64(10));
        QVERIFY(m.summary().failureReason.contains("summary.json"));
    }

    void badFoldersSayWhichFile() {
        QTemporaryDir dir;
        launch::RunModel m;
        QString error;
        QVERIFY(!launch::replayRecordedRun(dir.path(), &m, &error));
        QVERIFY2(error.contains("metrics.jsonl"), qPrintable(error));
        QFile f(dir.filePath("metrics.jsonl"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("hello world\n{\"truncated\":\n");
        f.close();
        error.clear();
        QVERIFY(!launch::replayRecordedRun(dir.path(), &m, &error));
        QVERIFY2(error.contains("no rank_start or hello"), qPrintable(error));
    }

    void scanListsRunsWithASummary() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("a"));
        QVERIFY(QDir(dir.path()).mkpath("b"));
        QVERIFY(QDir(dir.path()).mkpath("no-summary"));
        recordRestartedRun(dir.filePath("a"));
        writeSummary(dir.filePath("b"), QJsonObject{{"status", "failed"}, {"failed_rank", 1}});
        const auto runs = launch::scanRecordedRuns(dir.path());
        QCOMPARE(runs.size(), 2);
        QStringList names;
        for (const auto& r : runs)
            names << r.name;
        names.sort();
        QCOMPARE(names, (QStringList{"a", "b"}));
        const launch::RunSummary s = runs[runs[0].name == "b" ? 0 : 1].summary;
        QCOMPARE(s.status, QStringLiteral("failed"));
        QCOMPARE(s.failedRank, 1);
    }
};

QTEST_GUILESS_MAIN(RunReplayTest)
#include "test_run_replay.moc"
