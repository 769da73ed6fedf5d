// OUT/tensorboard: TensorBoard event files written by the launcher, read back by an independent reader
// (tests/launch/tensorboard_reader.py: its own CRC-32C and protobuf walker, strict to the last byte). Known
// scalars round-trip and a cut file is refused; telemetry becomes the documented tags; a real 2-rank run of
// the worker and of a PyTorch script each leave one readable file with a loss curve per rank and their mean;
// --no-tensorboard writes none; a link in the folder's place is never written through, and the run still
// completes.
#include "launch_test_util.h"

#include "launch/record/tensorboard_log.h"
#include "launch/record/tensorboard_writer.h"
#include "protocol/telemetry.h"

#include <QDir>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <limits>

using namespace ddpdesk;

namespace {

struct Reading {
    int exitCode = -1;
    QString err;
    QJsonObject json;
    // tag -> step -> value (the last one written for that step)
    QMap<QString, QMap<qint64, double>> series;
};

// The reader needs no module beyond Python's own: any python3 runs it.
QString python() {
    const QString configured = launchtest::envPath("DDPDESK_PYTHON");
    return configured.isEmpty() ? QStringLiteral("/usr/bin/python3") : configured;
}

Reading readEvents(const QString& path) {
    QProcess p;
    p.start(python(), {QStringLiteral(DDPDESK_TB_READER), path});
    Reading r;
    if (!p.waitForFinished(60000)) {
        r.err = QStringLiteral("the reader did not finish: ") + p.errorString();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.err = QString::fromUtf8(p.readAllStandardError());
    r.json = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    for (const QJsonValue& v : r.json["scalars"].toArray()) {
        const QJsonObject s = v.toObject();
        r.series[s["tag"].toString()][qint64(s["step"].toDouble())] = s["value"].toDouble();
    }
    return r;
}

nlohmann::json telemetry(const char* type, int rank, double t, const nlohmann::json& fields) {
    nlohmann::json e = protocol::makeEvent(type, rank);
    e["t"] = t;
    e.update(fields);
    return e;
}

QStringList tagsStartingWith(const Reading& r, const QString& prefix) {
    QStringList tags;
    for (auto it = r.series.begin(); it != r.series.end(); ++it)
        if (it.key().startsWith(prefix)) tags << it.key();
    return tags;
}

const QStringList kSmall = {"--workload",   "autoencoder", "--nproc",         "2",  "--threads",      "1",
                            "--steps",      "6",           "--timeout",       "60", "--telemetry-ms", "0",
                            "--batch-size", "16",          "--limit-samples", "256"};

} // namespace

class TensorBoardTest : public QObject {
    Q_OBJECT

private slots:
    void crc32cKnownAnswer() {
        const char text[] = "123456789";
        QCOMPARE(launch::tfevents::crc32c(text, 9), 0xE3069283u);
        QCOMPARE(launch::tfevents::crc32c("", 0), 0u);
        // Continuing a CRC over a split input gives the CRC of the whole.
        QCOMPARE(launch::tfevents::crc32c(text + 4, 5, launch::tfevents::crc32c(text, 4)), 0xE3069283u);
    }

    // A launcher option in profiles: on when the key is absent (profiles from before it), saved when off.
    void profileKey() {
        QVERIFY(launch::RunConfig::fromJson(QJsonObject{{"workload", "autoencoder"}}).tensorboard);
        launch::RunConfig off;
        off.tensorboard = false;
        QCOMPARE(off.toJson()["tensorboard"].toBool(true), false);
        QVERIFY(!launch::RunConfig::fromJson(off.toJson()).tensorboard);
        off.outDir = QStringLiteral("/tmp/x");
        QVERIFY(!off.workerArgs(0).join(' ').contains("tensorboard")); // not a worker flag
    }

    void knownScalarsRoundTrip() {
        QTemporaryDir dir;
        launch::TensorBoardWriter w;
        QString why;
        const double t0 = 1796036358.25;
        QVERIFY2(w.open(dir.path(), t0, &why), qPrintable(why));
        QVERIFY(QFileInfo(w.path()).fileName().startsWith(
            QStringLiteral("events.out.tfevents.%1.").arg(qint64(t0))));
        QVERIFY(w.addScalar("loss/rank_0", 0, t0 + 1, 0.5));
        QVERIFY(w.addScalars(7, t0 + 2, {{"a/b", -3.25f}, {"c", 1e6f}}));
        QVERIFY(w.addScalar("big", qint64(1) << 40, t0 + 3, 42.0));
        QVERIFY(w.addScalar("negative_step", -5, t0 + 4, 1.0));
        QVERIFY(w.addScalar("nan", 8, t0 + 5, std::nan(""))); // left out
        QVERIFY(
            w.addScalars(9, t0 + 6, {{"inf", std::numeric_limits<float>::infinity()}, {"d", 2}})); // d only
        QVERIFY(w.flush());
        // A second writer in the same second gets its own file, never the first one's.
        launch::TensorBoardWriter second;
        QVERIFY2(second.open(dir.path(), t0, &why), qPrintable(why));
        QVERIFY(second.path() != w.path());
        second.close();
        QFile(second.path()).remove();

        const Reading r = readEvents(w.path());
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.json["file_version"].toString(), QStringLiteral("brain.Event:2"));
        QCOMPARE(r.json["records"].toInt(), 6); // version + 5 events (the NaN-only one writes nothing)
        const QJsonArray s = r.json["scalars"].toArray();
        QCOMPARE(s.size(), 6);
        auto check = [&](int i, const char* tag, qint64 step, double t, double value) {
            const QJsonObject o = s[i].toObject();
            QCOMPARE(o["tag"].toString(), QString::fromLatin1(tag));
            QCOMPARE(qint64(o["step"].toDouble()), step);
            QCOMPARE(o["wall_time"].toDouble(), t);
            QCOMPARE(o["value"].toDouble(), value);
        };
        check(0, "loss/rank_0", 0, t0 + 1, 0.5);
        check(1, "a/b", 7, t0 + 2, -3.25);
        check(2, "c", 7, t0 + 2, 1e6);
        check(3, "big", qint64(1) << 40, t0 + 3, 42.0);
        check(4, "negative_step", -5, t0 + 4, 1.0);
        check(5, "d", 9, t0 + 6, 2.0);
        w.close();

        // The reader can fail: the last byte cut, or one byte of a record changed.
        QFile f(w.path());
        QVERIFY(f.open(QIODevice::ReadWrite));
        const QByteArray whole = f.readAll();
        QVERIFY(f.resize(whole.size() - 1));
        f.close();
        Reading cut = readEvents(w.path());
        QCOMPARE(cut.exitCode, 1);
        QVERIFY2(cut.err.contains("broken record"), qPrintable(cut.err));
        QByteArray flipped = whole;
        flipped[whole.size() / 2] = char(flipped[whole.size() / 2] ^ 0x10);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(flipped);
        f.close();
        cut = readEvents(w.path());
        QCOMPARE(cut.exitCode, 1);
        QVERIFY2(cut.err.contains("CRC mismatch"), qPrintable(cut.err));
    }

    // The translation on its own, with events as the ranks and the monitor send them: out of order, a NaN
    // loss, an epoch every rank reports.
    void telemetryBecomesTags() {
        QTemporaryDir dir;
        launch::TensorBoardLog log;
        launch::TensorBoardRun run;
        run.ranks = 2;
        run.learningRate = 0.01;
        QString why;
        const double t0 = 1796036358.0;
        QVERIFY2(log.open(dir.path(), run, t0, &why), qPrintable(why));
        auto step = [&](int rank, int s, const nlohmann::json& loss, double samples, double ms) {
            nlohmann::json fields = {{"step", s},          {"epoch", 1},    {"loss", loss},
                                     {"samples", samples}, {"step_ms", ms}, {"comm_wait_ms", ms / 4}};
            if (loss.is_null()) fields["loss_nonfinite"] = "nan";
            QVERIFY(log.write(telemetry(protocol::ev::Step, rank, t0 + s, fields)));
        };
        step(0, 1, 1.0, 16, 10);
        step(1, 2, 0.75, 32, 20); // rank 1 reports step 2 before step 1
        step(1, 1, 3.0, 16, 10);
        step(0, 2, 0.25, 32, 20);
        step(0, 3, nullptr, 48, 10);
        step(1, 3, 0.5, 48, 10);
        // --precision fp16's loss scaling (core/train/engine/precision.h), as a CUDA rank reports it.
        QVERIFY(log.write(
            telemetry(protocol::ev::Step, 0, t0 + 3.5,
                      {{"step", 4}, {"loss", 0.5}, {"loss_scale", 32768.0}, {"skipped_steps", 1}})));
        QVERIFY(log.write(telemetry(
            protocol::ev::Gpu, -1, t0 + 4,
            {{"gpus",
              {{{"index", 0}, {"lost", false}, {"gpu_util_percent", 50}, {"mem_used_bytes", 1 << 30}}}}})));
        QVERIFY(log.write(telemetry(
            protocol::ev::Proc, -1, t0 + 4,
            {{"processes",
              {{{"rank", 0},
                {"alive", true},
                {"cpu_percent", 90.0},
                {"rss_bytes", 100 << 20},
                {"gpus", nlohmann::json::array()}},
               {{"rank", 1}, {"alive", false}, {"cpu_percent", nullptr}, {"rss_bytes", nullptr}}}}})));
        for (int rank : {0, 1})
            QVERIFY(log.write(
                telemetry(protocol::ev::Epoch, rank, t0 + 5,
                          {{"epoch", 1}, {"step", 3}, {"train_loss", 0.625}, {"test_accuracy", 0.8}})));
        QVERIFY(log.write(telemetry("log", 0, t0 + 6, {{"text", "ignored"}})));
        log.close();

        const Reading r = readEvents(dir.filePath("tensorboard"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        using Points = QMap<qint64, double>;
        QCOMPARE(r.series["loss/rank_0"], (Points{{1, 1.0}, {2, 0.25}, {4, 0.5}}));
        QCOMPARE(r.series["loss/rank_1"], (Points{{1, 3.0}, {2, 0.75}, {3, 0.5}}));
        QCOMPARE(r.series["loss/mean"], (Points{{1, 2.0}, {2, 0.5}})); // not at 3: rank 0's loss was NaN
        QCOMPARE(r.series["throughput/samples_per_s/rank_0"], (Points{{1, 1600}, {2, 800}, {3, 1600}}));
        QCOMPARE(r.series["throughput/samples_per_s"], (Points{{1, 3200}, {2, 1600}, {3, 3200}}));
        QCOMPARE(r.series["comm/wait_share/rank_1"], (Points{{1, 0.25}, {2, 0.25}, {3, 0.25}}));
        QCOMPARE(r.series["straggler/own_ms/rank_1"],
                 (Points{{1, 7.5}, {2, 15}, {3, 7.5}}));         // step less wait
        QVERIFY(!r.series.contains("straggler/data_ms/rank_1")); // not reported: not written
        QCOMPARE(r.series["gpu/0/utilization_pct"], (Points{{4, 50}}));
        QCOMPARE(r.series["gpu/0/memory_used_mib"], (Points{{4, 1024}}));
        QCOMPARE(r.series["worker/rank_0/cpu_pct"], (Points{{4, 90}}));
        QCOMPARE(r.series["worker/rank_0/rss_mib"], (Points{{4, 100}}));
        QCOMPARE(r.series["amp/loss_scale/rank_0"], (Points{{4, 32768}}));
        QCOMPARE(r.series["amp/skipped_steps/rank_0"], (Points{{4, 1}}));
        QVERIFY(tagsStartingWith(r, "worker/rank_1").isEmpty()); // not alive: nothing measured
        QVERIFY(!r.series.contains("worker/rank_0/gpu_memory_mib"));
        QCOMPARE(r.series["loss/train_epoch_mean"], (Points{{3, 0.625}}));
        QCOMPARE(r.series["eval/test_accuracy"].size(), 1);
        QCOMPARE(float(r.series["eval/test_accuracy"][3]), 0.8f);
        QCOMPARE(r.series["train/learning_rate"].keys(), (QList<qint64>{0, 3}));
        QCOMPARE(float(r.series["train/learning_rate"][0]), 0.01f);
        for (const QJsonValue& v : r.json["scalars"].toArray()) // each value at its event's wall time
            QVERIFY(v.toObject()["wall_time"].toDouble() >= t0);
    }

    // The default --telemetry-ms throttles each rank on its own clock: ranks report different steps. The mean
    // is then written once every rank is past a step, from each rank's latest value at or before it.
    void throttledRanksStillGetAMean() {
        QTemporaryDir dir;
        launch::TensorBoardLog log;
        launch::TensorBoardRun run;
        run.ranks = 2;
        QString why;
        const double t0 = 1796036358.0;
        QVERIFY2(log.open(dir.path(), run, t0, &why), qPrintable(why));
        const QList<QPair<int, QPair<int, double>>> reports = {
            {0, {10, 1.0}}, {1, {12, 3.0}}, {0, {20, 0.5}}, {1, {22, 1.5}}, {0, {30, 0.25}}};
        for (const auto& [rank, point] : reports)
            QVERIFY(log.write(telemetry(protocol::ev::Step, rank, t0 + point.first,
                                        {{"step", point.first}, {"loss", point.second}})));
        log.close();
        const Reading r = readEvents(dir.filePath("tensorboard"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        using Points = QMap<qint64, double>;
        // 10: rank 1 had said nothing yet; 30: rank 1 is not past it yet.
        QCOMPARE(r.series["loss/mean"], (Points{{12, 2.0}, {20, 1.75}, {22, 1.0}}));
        QCOMPARE(r.series["loss/rank_0"], (Points{{10, 1.0}, {20, 0.5}, {30, 0.25}}));
    }

    void realRunTwoRanks() {
        QTemporaryDir dir;
        const QString out = dir.filePath("run");
        // Fashion-MNIST evaluates at each epoch's end: 512 samples over 2 ranks at 32 = 8 steps an epoch.
        const auto r = launchtest::runCli({"run",
                                           "--workload",
                                           "fashion-mnist",
                                           "--data",
                                           QStringLiteral(DDPDESK_FASHION_DIR),
                                           "--nproc",
                                           "2",
                                           "--threads",
                                           "1",
                                           "--epochs",
                                           "2",
                                           "--batch-size",
                                           "32",
                                           "--limit-samples",
                                           "512",
                                           "--timeout",
                                           "60",
                                           "--telemetry-ms",
                                           "0",
                                           "--out",
                                           out},
                                          180000);
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        const QString folder = out + "/tensorboard";
        QCOMPARE(QDir(folder).entryList({"*tfevents*"}, QDir::Files).size(), 1); // one file, by the launcher
        QVERIFY2(r.out.contains("tensorboard: " + QDir::toNativeSeparators(folder)), qPrintable(r.out));
        const Reading tb = readEvents(folder);
        QVERIFY2(tb.exitCode == 0, qPrintable(tb.err));
        QCOMPARE(tb.json["file_version"].toString(), QStringLiteral("brain.Event:2"));

        // Every step each rank reported, with the loss it reported; the mean wherever both did.
        const auto events = launchtest::readJsonLines(out + "/metrics.jsonl");
        QMap<int, QMap<qint64, double>> losses;
        for (const QJsonObject& e : events)
            if (e["event"].toString() == QLatin1String("step"))
                losses[e["rank"].toInt()][qint64(e["step"].toDouble())] = e["loss"].toDouble();
        QCOMPARE(losses[0].size(), 16);
        for (int rank : {0, 1}) {
            const auto& series = tb.series[QStringLiteral("loss/rank_%1").arg(rank)];
            QCOMPARE(series.keys(), losses[rank].keys());
            for (auto it = series.begin(); it != series.end(); ++it)
                QCOMPARE(float(it.value()), float(losses[rank][it.key()]));
            QCOMPARE(tb.series[QStringLiteral("throughput/samples_per_s/rank_%1").arg(rank)].size(), 16);
            QCOMPARE(tb.series[QStringLiteral("comm/wait_share/rank_%1").arg(rank)].size(), 16);
        }
        QCOMPARE(tb.series["loss/mean"].keys(), losses[0].keys());
        for (qint64 s : losses[0].keys())
            QCOMPARE(float(tb.series["loss/mean"][s]), float((losses[0][s] + losses[1][s]) / 2));
        QCOMPARE(tb.series["throughput/samples_per_s"].size(), 16);
        for (double v : tb.series["throughput/samples_per_s"])
            QVERIFY(v > 0);

        const QJsonObject summary = launchtest::readJsonFile(out + "/summary.json");
        QCOMPARE(tb.series["eval/test_accuracy"].keys(), (QList<qint64>{8, 16}));
        QCOMPARE(float(tb.series["eval/test_accuracy"][16]), float(summary["test_accuracy"].toDouble()));
        // The worker's test-set evaluation each epoch is a validation pass the launcher sees and counts
        // apart.
        for (int rank : {0, 1}) {
            QStringList states;
            for (const QJsonObject& e : events)
                if (e["event"].toString() == QLatin1String("eval") && e["rank"].toInt() == rank)
                    states << e["state"].toString() + "@" + QString::number(e["step"].toInt());
            QCOMPARE(states, QStringList({"begin@8", "end@8", "begin@16", "end@16"}));
        }
        for (const QJsonValue& v : summary["ranks"].toArray())
            QVERIFY2(v.toObject()["eval_passes"].toInt() == 2 && v.toObject()["eval_s"].toDouble() > 0,
                     qPrintable(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact)));
        QCOMPARE(tb.series["loss/train_epoch_mean"].keys(), (QList<qint64>{8, 16}));
        QCOMPARE(tb.series["train/learning_rate"].keys(), (QList<qint64>{0, 8, 16}));
        QCOMPARE(float(tb.series["train/learning_rate"][0]), 0.01f); // fashion-mnist's default

        // The monitor's samples of each worker, as metrics.jsonl has them.
        int procEvents = 0;
        for (const QJsonObject& e : events)
            procEvents += e["event"].toString() == QLatin1String("proc");
        QVERIFY2(procEvents > 0, "the run was too short for a monitor sample");
        for (int rank : {0, 1})
            QVERIFY(!tb.series[QStringLiteral("worker/rank_%1/rss_mib").arg(rank)].isEmpty());
        const double t0 = events.first()["t"].toDouble(), t1 = events.last()["t"].toDouble();
        for (const QJsonValue& v : tb.json["scalars"].toArray()) {
            const double t = v.toObject()["wall_time"].toDouble();
            QVERIFY(t >= t0 - 1 && t <= t1 + 1);
        }
    }

    void noTensorBoardWritesNone() {
        QTemporaryDir dir;
        const QString out = dir.filePath("run");
        const auto r =
            launchtest::runCli(QStringList{"run", "--out", out, "--no-tensorboard"} + kSmall, 120000);
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QVERIFY(QFileInfo(out + "/metrics.jsonl").isFile());
        QVERIFY(!QFileInfo::exists(out + "/tensorboard"));
        QVERIFY(!r.out.contains("tensorboard:"));
    }

    void scriptRunFromInstrumentedTelemetry() {
        const QString python = launchtest::envPath("DDPDESK_PYTHON");
        if (QProcess::execute(python, {"-c", "import torch.distributed"}) != 0)
            QSKIP(qPrintable(python + " cannot import torch.distributed (Debian python3-torch missing)"));
        QTemporaryDir dir;
        const QString out = dir.filePath("script");
        const auto r =
            launchtest::runCli({"run", "--script", launchtest::envPath("DDPDESK_TEST_SCRIPT"), "--python",
                                python, "--nproc", "2", "--out", out, "--", "--steps", "15"},
                               200000, {{"DDPDESK_INSTRUMENT_MS", "0"}});
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        const Reading tb = readEvents(out + "/tensorboard");
        QVERIFY2(tb.exitCode == 0, qPrintable(tb.err));
        QList<qint64> steps;
        for (qint64 s = 1; s <= 15; ++s)
            steps << s;
        for (int rank : {0, 1})
            QCOMPARE(tb.series[QStringLiteral("loss/rank_%1").arg(rank)].keys(), steps);
        QCOMPARE(tb.series["loss/mean"].keys(), steps);
        QVERIFY(!tb.series["throughput/samples_per_s/rank_0"].isEmpty()); // from step 2: a step time is known
        QVERIFY(!tb.series.contains("train/learning_rate"));              // the script's own: unknown
    }

    void linkInItsPlaceIsNotFollowed() {
#ifdef Q_OS_WIN
        QSKIP("symbolic links need privileges on Windows");
#else
        QTemporaryDir dir;
        const QString out = dir.filePath("run"), elsewhere = dir.filePath("elsewhere");
        QVERIFY(QDir().mkpath(out) && QDir().mkpath(elsewhere));
        QFile marker(elsewhere + "/keep.txt");
        QVERIFY(marker.open(QIODevice::WriteOnly) && marker.write("mine") == 4);
        marker.close();
        QVERIFY(QFile::link(elsewhere, out + "/tensorboard"));
        const auto r = launchtest::runCli(QStringList{"run", "--out", out} + kSmall, 120000);
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QCOMPARE(launchtest::readJsonFile(out + "/summary.json")["status"].toString(), QStringLiteral("ok"));
        QVERIFY2((r.out + r.err).contains("TensorBoard:"), qPrintable(r.out + r.err)); // said, not silent
        QVERIFY(!r.out.contains("tensorboard:"));
        QCOMPARE(QDir(elsewhere).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 QStringList{"keep.txt"});
        QVERIFY(QFileInfo(out + "/tensorboard").isSymLink());
#endif
    }

    // Each size of a sweep is a run in its own folder: `tensorboard --logdir SWEEP` shows them side by side.
    void sweepSizesEachHaveTheirOwn() {
        QTemporaryDir dir;
        const QString out = dir.filePath("sweep");
        QStringList args{"sweep", "--nproc-list", "1,2", "--out", out};
        for (int i = 0; i < kSmall.size(); i += 2)
            if (kSmall[i] != QLatin1String("--nproc")) args << kSmall[i] << kSmall[i + 1];
        const auto r = launchtest::runCli(args, 180000, {{"QT_QPA_PLATFORM", "offscreen"}});
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QVERIFY2(r.out.contains("tensorboard --logdir " + QDir::toNativeSeparators(out)), qPrintable(r.out));
        QStringList folders;
        for (const QString& sub : QDir(out).entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            if (QFileInfo(out + "/" + sub + "/tensorboard").isDir()) folders << sub;
        QCOMPARE(folders.size(), 2);
        for (const QString& sub : folders) {
            const Reading tb = readEvents(out + "/" + sub + "/tensorboard");
            QVERIFY2(tb.exitCode == 0, qPrintable(tb.err));
            QCOMPARE(tb.series["loss/mean"].size(), 6);
        }
    }
};

QTEST_GUILESS_MAIN(TensorBoardTest)
#include "test_tensorboard.moc"
