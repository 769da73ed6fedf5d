// Where does it hang? A real DDP script (tests/launch/hang_script.py: rank 1 stuck in its data loading, rank
// 0 waiting in DDP's allreduce) under ddpdesk-cli: the stall watch gets every rank's Python stacks into the
// log and metrics.jsonl, and `ddpdesk-cli stacks RUN_DIR` prints them on demand, naming the function each
// rank is stuck in. Python 1.13 here, 2.6 in the torch2 leg. ddpdesk-worker ranks answer with what they wait
// in: a 2-rank worker run over Gloo with rank 1 frozen (SIGSTOP) has rank 0 waiting in the gradient
// allreduce, by bucket (the worker built against LibTorch 2.6 in the torch2 leg). The classic bug, rank 0
// alone in a collective (hang_script.py mismatch, mismatch_end), is named with each rank's collective and
// script line, whether Gloo hangs in it or ends the run.
#include "launch_test_util.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

namespace {

// The "stacks" events in RUN/metrics.jsonl, by rank.
QMap<int, QString> stacksEvents(const QString& runDir) {
    QMap<int, QString> byRank;
    for (const QJsonObject& e : launchtest::readJsonLines(QDir(runDir).filePath("metrics.jsonl")))
        if (e["event"].toString() == QLatin1String("stacks"))
            byRank[e["rank"].toInt()] += e["text"].toString();
    return byRank;
}

struct HungRun {
    QTemporaryDir tmp;
    QProcess cli;
    QString out() const { return tmp.filePath("run"); }
    void start(const QStringList& extra, const QStringList& scriptArgs = {}) {
        cli.start(launchtest::envPath("DDPDESK_CLI"),
                  QStringList{"run", "--script", DDPDESK_HANG_SCRIPT, "--python",
                              launchtest::envPath("DDPDESK_PYTHON"), "--nproc", "2", "--out", out()} +
                      extra + QStringList{"--", tmp.path()} + scriptArgs);
    }
    bool finish() {
        QFile(tmp.filePath("go")).open(QIODevice::WriteOnly);
        return cli.waitForFinished(90000) && cli.exitCode() == 0;
    }
    ~HungRun() {
        QFile(tmp.filePath("go")).open(QIODevice::WriteOnly);
        if (!cli.waitForFinished(30000)) cli.kill();
        cli.waitForFinished(5000);
    }
};

// The hang_script.py hold-up as the launcher says it: rank 1 behind, rank 0 waiting in an allreduce.
void rank1IsBehindRank0InAnAllreduce(const QJsonObject& said) {
    QCOMPARE(said["code"].toString(), QStringLiteral("RANK_BEHIND"));
    QCOMPARE(said["behind"].toArray(), QJsonArray{1});
    QCOMPARE(said["waiting"].toArray(), QJsonArray{0});
    QCOMPARE(said["collective"].toObject()["kind"].toString(), QStringLiteral("allreduce"));
}

// The line of hang_script.py that says `needle`: where its collectives come from, as their history says.
int hangScriptLine(const QString& needle) {
    QFile f(QStringLiteral(DDPDESK_HANG_SCRIPT));
    if (!f.open(QIODevice::ReadOnly)) return -1;
    const QStringList lines = QString::fromUtf8(f.readAll()).split('\n');
    for (int i = 0; i < lines.size(); ++i)
        if (lines[i].trimmed() == needle) return i + 1;
    return -1;
}

// A rank's last collectives as the launcher wrote them (a `diagnosis` event's last_collectives, or
// summary.json's ranks[].collectives): the DDP gradient allreduces come from the script's loss.backward()
// line, numbered one after the other, float32.
void historyComesFromTheScript(const QJsonArray& entries, int lastSeq, const QString& lastState) {
    QVERIFY2(!entries.isEmpty(), "no collectives recorded");
    const QString backward = QStringLiteral("hang_script.py:%1").arg(hangScriptLine("loss.backward()"));
    const QJsonObject last = entries.last().toObject();
    QCOMPARE(last["seq"].toInt(), lastSeq);
    QCOMPARE(last["state"].toString(), lastState);
    for (const QJsonValue& v : entries) {
        const QJsonObject e = v.toObject();
        if (e["op"].toString() != "allreduce") continue;
        QCOMPARE(e["site"].toString(), backward);
        QCOMPARE(e["dtype"].toString(), QStringLiteral("float32"));
        QCOMPARE(e["bytes"].toInt(), 36);
        QVERIFY(e["t0"].toDouble() > 0);
        QVERIFY(e["state"].toString() == "started" || e["t1"].toDouble() >= e["t0"].toDouble());
    }
    for (int i = 1; i < entries.size(); ++i)
        QCOMPARE(entries[i].toObject()["seq"].toInt(), entries[i - 1].toObject()["seq"].toInt() + 1);
}

launchtest::CliResult stacksOf(const QString& runDir) {
    return launchtest::runCli({"stacks", runDir}, 30000);
}

} // namespace

class ScriptStacksTest : public QObject {
    Q_OBJECT

private slots:
    void theStallWatchShowsWhereEachRankHangs() {
        HungRun run;
        run.start({"--stall-timeout", "4"});
        QElapsedTimer t;
        t.start();
        QMap<int, QString> stacks;
        while (t.elapsed() < 120000 && run.cli.state() != QProcess::NotRunning) {
            // A slow start (PyTorch 2.x imports on a loaded machine) can be a stall of its own, reported with
            // the stacks of that moment; the hang at step 3 is the next one.
            stacks = stacksEvents(run.out());
            if (stacks.size() == 2 && stacks[1].contains("stuck_in_data_loading")) break;
            QThread::msleep(200);
        }
        QVERIFY2(stacks.size() == 2, qPrintable(run.cli.readAllStandardError()));
        QVERIFY2(stacks[1].contains("stuck_in_data_loading"), qPrintable(stacks[1]));
        QVERIFY2(stacks[0].contains("backward") || stacks[0].contains("allreduce"), qPrintable(stacks[0]));
        QVERIFY2(!stacks[0].contains("stuck_in_data_loading"), qPrintable(stacks[0]));
        QVERIFY(run.finish()); // the run itself was never disturbed
        const QString said =
            QString::fromUtf8(run.cli.readAllStandardError() + run.cli.readAllStandardOutput());
        QVERIFY2(said.contains("stacks of rank 1"), qPrintable(said));
    }

    // Rank 1 stuck in its data loading before its 4th step: within seconds (not at the stall timeout) the
    // launcher says rank 1 has not entered allreduce #4 that rank 0 waits in, and where rank 1 is in its
    // code.
    void theRankEveryoneWaitsForIsNamed() {
        HungRun run;
        run.start({});
        QElapsedTimer t;
        t.start();
        QJsonObject said;
        while (said.isEmpty() && t.elapsed() < 120000 && run.cli.state() != QProcess::NotRunning) {
            QThread::msleep(250);
            for (const QJsonObject& e : launchtest::readJsonLines(QDir(run.out()).filePath("metrics.jsonl")))
                if (e["event"].toString() == "diagnosis" && e["collective"].toObject()["number"].toInt() == 4)
                    said = e;
        }
        QVERIFY2(!said.isEmpty(), qPrintable(run.cli.readAllStandardError()));
        rank1IsBehindRank0InAnAllreduce(said);
        if (QTest::currentTestFailed()) return;
        const QJsonObject c = said["collective"].toObject();
        QCOMPARE(c["detail"].toString(), QStringLiteral("DDP gradients"));
        QCOMPARE(c["bytes"].toInt(), 36); // Linear(8, 1): 9 float32 gradients
        QVERIFY(said["waited_s"].toDouble() >= 2.5);
        const QString text = said["text"].toString();
        QVERIFY2(text.startsWith("rank 1 has not entered allreduce #4 (DDP gradients, 36 bytes) that rank 0 "
                                 "entered "),
                 qPrintable(text));
        QVERIFY2(
            text.contains(QRegularExpression("; rank 1 is at hang_script\\.py:\\d+ in stuck_in_data_loading: "
                                             "time\\.sleep\\(0\\.05\\)$")),
            qPrintable(text));
        qInfo().noquote() << "named" << said["waited_s"].toDouble()
                          << "s after rank 0 entered; said:" << text;
        // What each rank's last collectives were when it was said: rank 0 inside #4, rank 1 done with #3.
        const QJsonObject last = said["last_collectives"].toObject();
        historyComesFromTheScript(last["0"].toArray(), 4, "started");
        historyComesFromTheScript(last["1"].toArray(), 3, "completed");
        if (QTest::currentTestFailed()) return;
        QVERIFY(run.finish());
        const QString log =
            QString::fromUtf8(run.cli.readAllStandardError() + run.cli.readAllStandardOutput());
        QVERIFY2(log.contains("hold-up [RANK_BEHIND]: rank 1 has not entered allreduce #4"), qPrintable(log));
        // It moved on and completed: nothing is left as the run's diagnosis.
        const QJsonObject summary = launchtest::readJsonFile(run.out() + "/summary.json");
        QVERIFY(summary["diagnosis"].isNull());
        // Each rank's last collectives are kept: 6 gradient allreduces, then the script's final barrier.
        for (const QJsonValue& rank : summary["ranks"].toArray()) {
            const QJsonArray entries = rank.toObject()["collectives"].toArray();
            historyComesFromTheScript(entries, 7, "completed");
            QCOMPARE(entries.size(), 7);
            QCOMPARE(entries.last().toObject()["op"].toString(), QStringLiteral("barrier"));
            QCOMPARE(entries.last().toObject()["site"].toString(),
                     QStringLiteral("hang_script.py:%1").arg(hangScriptLine("dist.barrier()")));
        }
    }

    // Rank 0 waits in an allreduce it reached through the process group object (ProcessGroup.allreduce, past
    // torch.distributed's functions) while rank 1 is stuck in its data loading: DDP Desk's own counts see no
    // collective, PyTorch's Flight Recorder (2.x; on by default) does, and the launcher names rank 1 from its
    // counts. A PyTorch without one (1.13, 2.6) writes no Flight Recorder counts and nothing is named from
    // them.
    void aCollectivePastTorchDistributedIsSeenByTheFlightRecorder() {
        QProcess probe;
        probe.start(
            launchtest::envPath("DDPDESK_PYTHON"),
            {"-c", "import torch; print(hasattr(torch._C._distributed_c10d, '_dump_fr_trace_json'))"});
        QVERIFY(probe.waitForFinished(60000));
        const bool hasFlightRecorder = probe.readAllStandardOutput().trimmed() == "True";
        HungRun run;
        run.start({}, {"past"});
        QElapsedTimer t;
        t.start();
        QJsonObject said;
        bool stuck = false;
        while (said.isEmpty() && t.elapsed() < 120000 && run.cli.state() != QProcess::NotRunning) {
            QThread::msleep(250);
            if (!stuck && QFile::exists(run.tmp.filePath("stuck_at"))) {
                stuck = true;
                t.restart(); // from here: named within seconds, or (without a Flight Recorder) never
            }
            if (stuck && !hasFlightRecorder && t.elapsed() > 6000) break;
            for (const QJsonObject& e : launchtest::readJsonLines(QDir(run.out()).filePath("metrics.jsonl")))
                if (e["event"].toString() == "diagnosis" &&
                    e["collective"].toObject()["detail"].toString() == "PyTorch's Flight Recorder")
                    said = e;
        }
        QVERIFY2(stuck, qPrintable(run.cli.readAllStandardError()));
        if (!hasFlightRecorder) {
            QVERIFY2(said.isEmpty(), qPrintable(QJsonDocument(said).toJson()));
            QVERIFY(run.finish());
            return;
        }
        QVERIFY2(!said.isEmpty(), qPrintable(run.cli.readAllStandardError()));
        rank1IsBehindRank0InAnAllreduce(said);
        if (QTest::currentTestFailed()) return;
        const QJsonObject c = said["collective"].toObject();
        QCOMPARE(c["bytes"].toInt(), 8); // torch.ones(2): two float32
        const QString text = said["text"].toString();
        QVERIFY2(text.contains("(PyTorch's Flight Recorder, 8 bytes) that rank 0 entered") &&
                     text.contains("in stuck_in_data_loading"),
                 qPrintable(text));
        qInfo().noquote() << "named" << t.elapsed() / 1000.0 << "s after rank 1 got stuck:" << text;
        QVERIFY(run.finish());
    }

    // The classic bug (issue 41): after its 4th step rank 0 alone broadcasts a metric while rank 1 goes on to
    // its 5th step's gradient allreduce, and Gloo hangs in the two until its 20 s timeout. Within 30 s of the
    // first step the launcher says the ranks wait in different collectives, each rank's collective with the
    // line of the script that sent it there; the run then fails of the timeout.
    void ranksInDifferentCollectivesAreNamedWithTheirLines() {
        HungRun run;
        run.start({}, {"mismatch"});
        QElapsedTimer t;
        t.start();
        QJsonObject said;
        double firstStep = 0;
        while (said.isEmpty() && t.elapsed() < 60000 && run.cli.state() != QProcess::NotRunning) {
            QThread::msleep(250);
            for (const QJsonObject& e :
                 launchtest::readJsonLines(QDir(run.out()).filePath("metrics.jsonl"))) {
                if (e["event"].toString() == "step" && firstStep == 0) firstStep = e["t"].toDouble();
                if (e["event"].toString() == "diagnosis" && e["code"].toString() == "COLLECTIVE_MISMATCH")
                    said = e;
            }
        }
        QVERIFY2(!said.isEmpty(), qPrintable(run.cli.readAllStandardError()));
        const double after = said["t"].toDouble() - firstStep;
        qInfo("named %.1f s after the first step", after);
        QVERIFY2(firstStep > 0 && after <= 30, qPrintable(QString::number(after)));
        const QString text = said["text"].toString();
        QVERIFY2(text.contains("rank 0 in broadcast #5 (4 bytes") &&
                     text.contains("rank 1 in allreduce #5 (DDP "
                                   "gradients, 36 bytes)"),
                 qPrintable(text));
        QVERIFY2(
            text.contains(QStringLiteral("rank 0 is at hang_script.py:%1")
                              .arg(hangScriptLine("dist.broadcast(metric, 0)"))) &&
                text.contains(
                    QStringLiteral("rank 1 is at hang_script.py:%1").arg(hangScriptLine("loss.backward()"))),
            qPrintable(text));
        QVERIFY(run.cli.waitForFinished(60000));
        QVERIFY(run.cli.exitCode() != 0); // Gloo's timeout ended it
        // The run's diagnosis is the mismatch, not the timeout it ended in.
        const QJsonObject d = launchtest::readJsonFile(run.out() + "/summary.json")["diagnosis"].toObject();
        QCOMPARE(d["code"].toString(), QStringLiteral("COLLECTIVE_MISMATCH"));
    }

    // The same bug where Gloo ends both ranks at once (rank 0's metric all_reduce meets rank 1's gradient
    // allreduce, of another size): the run's diagnosis is COLLECTIVE_MISMATCH with each rank's last
    // collective and the line of the script it came from, from each rank's record; neither completed.
    void ranksInDifferentCollectivesThatEndTheRunAreNamedWithTheirLines() {
        HungRun run;
        run.start({}, {"mismatch_end"});
        QVERIFY(run.cli.waitForFinished(60000));
        QVERIFY(run.cli.exitCode() != 0);
        const QJsonObject d = launchtest::readJsonFile(run.out() + "/summary.json")["diagnosis"].toObject();
        QCOMPARE(d["code"].toString(), QStringLiteral("COLLECTIVE_MISMATCH"));
        const QString message = d["message"].toString();
        qInfo().noquote() << message;
        QVERIFY2(
            message.contains(QStringLiteral("rank 0 in all_reduce #5 (4 bytes float32, default group) at "
                                            "hang_script.py:%1, not completed")
                                 .arg(hangScriptLine("dist.all_reduce(metric)"))) &&
                message.contains(QStringLiteral("rank 1 in allreduce #5 (36 bytes float32, default group) at "
                                                "hang_script.py:%1, not completed")
                                     .arg(hangScriptLine("loss.backward()"))),
            qPrintable(message));
    }

    void stacksCommandOnALiveRun() {
        HungRun run;
        run.start({});
        // Rank 1 is stuck once both announced themselves and a few steps went by.
        QElapsedTimer t;
        t.start();
        launchtest::CliResult r;
        while (t.elapsed() < 120000 && run.cli.state() != QProcess::NotRunning) {
            QThread::msleep(1000);
            r = stacksOf(run.out());
            if (r.exitCode == 0 && r.out.contains("stuck_in_data_loading")) break;
        }
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("== rank 0") && r.out.contains("== rank 1"), qPrintable(r.out));
        QVERIFY2(r.out.contains("stuck_in_data_loading"), qPrintable(r.out));
        // And what each rank's last collectives were: rank 0 waits inside the allreduce of loss.backward().
        const QString backward = QStringLiteral("hang_script.py:%1").arg(hangScriptLine("loss.backward()"));
        QVERIFY2(r.out.contains("== rank 0: last collectives (4 so far)") &&
                     r.out.contains(QRegularExpression("allreduce #4 \\(36 bytes float32, "
                                                       "default group\\) at " +
                                                       QRegularExpression::escape(backward) +
                                                       ", started \\d+\\.\\d s ago, not completed")),
                 qPrintable(r.out));
        // Two askers at once get one dump per rank, and each of them sees it.
        QFile file(QDir(run.out()).filePath(".ddpdesk-python/stacks-1.txt"));
        auto dumps = [&file] {
            file.close();
            return file.open(QIODevice::ReadOnly) ? file.readAll().count("Current thread ") : -1;
        };
        const qsizetype before = dumps();
        QProcess first, second;
        for (QProcess* p : {&first, &second})
            p->start(launchtest::envPath("DDPDESK_CLI"), {"stacks", run.out()});
        for (QProcess* p : {&first, &second}) {
            QVERIFY(p->waitForFinished(30000));
            const QString said = QString::fromUtf8(p->readAllStandardOutput());
            QVERIFY2(p->exitCode() == 0 && said.count("stuck_in_data_loading") == 1, qPrintable(said));
        }
        QCOMPARE(dumps(), before + 1);
        QVERIFY(run.finish());
        // Once the run is over nobody is asked, let alone signalled.
        const auto after = stacksOf(run.out());
        QCOMPARE(after.exitCode, 1);
        QVERIFY2(after.err.contains("no live rank"), qPrintable(after.err));
    }

    void workerRanksSayWhatTheyWaitIn() {
        QTemporaryDir tmp;
        const QString out = tmp.filePath("run");
        QProcess cli;
        auto env = QProcessEnvironment::systemEnvironment();
        const QString worker = qEnvironmentVariable("DDPDESK_TEST_WORKER");
        if (!worker.isEmpty()) env.insert("DDPDESK_WORKER", worker); // the torch2 leg's LibTorch 2.6 worker
        cli.setProcessEnvironment(env);
        cli.start(launchtest::envPath("DDPDESK_CLI"),
                  {"run", "--workload", "autoencoder", "--nproc", "2", "--steps", "100000", "--threads", "1",
                   "--limit-samples", "2000", "--grad-transport", "gloo", "--stall-timeout", "3", "--out",
                   out});
        QVERIFY(cli.waitForStarted());
        // Training: both ranks started and past a few steps.
        QElapsedTimer t;
        t.start();
        QVector<qint64> pids;
        int steps = 0;
        while (t.elapsed() < 120000 && cli.state() == QProcess::Running && steps < 6) {
            QThread::msleep(300);
            const auto events = launchtest::readJsonLines(out + "/metrics.jsonl");
            pids = launchtest::workerPids(out + "/metrics.jsonl");
            steps = launchtest::countEvents(events, "step", 0);
        }
        QVERIFY2(pids.size() == 2 && steps >= 6, qPrintable(cli.readAllStandardError()));
        // Which pid is rank 1: the rank_start events name it.
        qint64 rank1 = 0;
        for (const QJsonObject& e : launchtest::readJsonLines(out + "/metrics.jsonl"))
            if (e["event"].toString() == "rank_start" && e["rank"].toInt() == 1)
                rank1 = qint64(e["pid"].toDouble());
        QVERIFY(rank1 > 0);
        struct Thaw {
            qint64 pid;
            ~Thaw() { QProcess::execute("kill", {"-CONT", QString::number(pid)}); }
        } thaw{rank1};

        // On demand: rank 0 is waiting in the allreduce of a bucket; frozen rank 1 cannot answer. Rank 1
        // frozen between an epoch's last step and the epoch-loss allreduce leaves rank 0 in that allreduce
        // instead (1 step in 20 here): then rank 1 runs on a little and is frozen again.
        launchtest::CliResult r;
        for (int attempt = 0; attempt < 5 && !r.out.contains("gradient allreduce (bucket"); ++attempt) {
            if (attempt > 0) {
                QProcess::execute("kill", {"-CONT", QString::number(rank1)});
                QThread::msleep(700);
            }
            QCOMPARE(QProcess::execute("kill", {"-STOP", QString::number(rank1)}), 0);
            t.restart();
            while (t.elapsed() < 30000) {
                QThread::msleep(1000);
                r = stacksOf(out);
                if (r.out.contains("gradient allreduce (bucket") || r.out.contains("epoch-loss allreduce"))
                    break;
            }
        }
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("== rank 0") && r.out.contains("ddpdesk-worker rank 0"), qPrintable(r.out));
        QVERIFY2(r.out.contains(
                     QRegularExpression("waiting \\d+\\.\\d s in the gradient allreduce \\(bucket \\d+ of "
                                        "\\d+\\); phase training, step \\d+")),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains("== rank 1") && r.out.contains("(no stacks within"), qPrintable(r.out));
        // A worker's collectives name its bucket as their place.
        QVERIFY2(r.out.contains("== rank 0: last collectives") &&
                     r.out.contains(
                         QRegularExpression("allreduce #\\d+ \\(\\d+\\.\\d KiB float32, default group\\) "
                                            "at ddpdesk-worker bucket \\d+ of \\d+")),
                 qPrintable(r.out));

        // The stall watch asks by itself: a "stacks" event for rank 0 in metrics.jsonl.
        QMap<int, QString> stacks;
        t.restart();
        while (t.elapsed() < 30000 && !stacks.value(0).contains("gradient allreduce")) {
            QThread::msleep(300);
            stacks = stacksEvents(out);
        }
        QVERIFY2(stacks.value(0).contains("gradient allreduce"), qPrintable(stacks.value(0)));

        // The hold-up watch reads the workers' collective records: frozen in its computation, rank 1 is named
        // as the one rank 0 waits for, by bucket; frozen inside the same allreduce, both are seen waiting in
        // it.
        QJsonObject said;
        t.restart();
        while (said.isEmpty() && t.elapsed() < 40000) {
            QThread::msleep(300);
            // The first hold-up said: not the doctor's follow-up, nor rank 1 named a straggler (frozen again
            // and again, its own work per step is long).
            for (const QJsonObject& e : launchtest::readJsonLines(out + "/metrics.jsonl"))
                if (said.isEmpty() && e["event"].toString() == "diagnosis" && !e.contains("doctor") &&
                    e["code"].toString() != "STRAGGLER")
                    said = e;
        }
        QVERIFY2(!said.isEmpty(), qPrintable(cli.readAllStandardError()));
        const QString text = said["text"].toString();
        if (said["code"].toString() == "RANK_BEHIND") {
            QCOMPARE(said["behind"].toArray(), QJsonArray{1});
            QVERIFY2(text.startsWith("rank 1 has not entered ") && text.contains(" that rank 0 entered "),
                     qPrintable(text));
            QVERIFY2(said["collective"].toObject()["kind"].toString() != "", qPrintable(text));
        } else {
            QCOMPARE(said["code"].toString(), QStringLiteral("COLLECTIVE_WAIT_ALL"));
            QCOMPARE(said["waiting"].toArray(), (QJsonArray{0, 1}));
        }

        QProcess::execute("kill", {"-CONT", QString::number(rank1)});
        cli.terminate(); // Ctrl+C: the launcher stops every rank
        QVERIFY(cli.waitForFinished(60000));
        QVERIFY(launchtest::leftovers(launchtest::workerPids(out + "/metrics.jsonl"), 10000).isEmpty());
    }

    void stacksCommandRefusesWhatIsNotARun() {
        QTemporaryDir tmp;
        QCOMPARE(stacksOf(tmp.filePath("missing")).exitCode, 2);
        const auto plain = stacksOf(tmp.path());
        QCOMPARE(plain.exitCode, 2);
        QVERIFY2(plain.err.contains("holds no run that can be asked"), qPrintable(plain.err));
    }
};

QTEST_GUILESS_MAIN(ScriptStacksTest)
#include "test_script_stacks.moc"
