// `--script`: a real PyTorch DDP script (gloo, init_method env://) per rank with the torchrun environment,
// its loss read from its output; a failing script names its rank. `sweep --nproc-list 1,2` writes sweep.csv
// and sweep.png; `--compare` puts a setting's values side by side (the gradient bytes that --grad-compression
// halves, bf16 autocast).
#include "launch_test_util.h"

#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

class ScriptSweepTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        const QString python = launchtest::envPath("DDPDESK_PYTHON");
        if (QProcess::execute(python, {"-c", "import torch.distributed"}) != 0)
            QSKIP(qPrintable(python + " cannot import torch.distributed (Debian python3-torch missing)"));
    }

    void pythonDdpScript() {
        QTemporaryDir dir;
        const QString out = dir.filePath("script");
        // The loss lines' path (the instrumentation module's is launch.script_workdir's).
        const auto r = launchtest::runCli({"run", "--script", launchtest::envPath("DDPDESK_TEST_SCRIPT"),
                                           "--python", launchtest::envPath("DDPDESK_PYTHON"), "--nproc", "2",
                                           "--out", out, "--json", "--no-instrument", "--", "--steps", "15"},
                                          150000);
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        const QJsonObject s = launchtest::readJsonFile(out + "/summary.json");
        QCOMPARE(s["status"].toString(), QStringLiteral("ok"));
        QCOMPARE(s["world_size"].toInt(), 2);
        QCOMPARE(s["steps"].toInt(), 16); // 15 "loss:" lines + the closing "Epoch 1 : x" line
        QVERIFY(std::isfinite(s["final_loss"].toDouble()));
        const auto events = launchtest::readJsonLines(out + "/metrics.jsonl");
        for (int rank : {0, 1}) {
            int steps = 0;
            for (const QJsonObject& e : events)
                steps +=
                    e["event"].toString() == "step" && e["rank"].toInt() == rank && e["source"] == "script";
            QCOMPARE(steps, 16);
        }
        bool sawReady = false;
        for (const QJsonObject& e : events)
            sawReady = sawReady || e["text"].toString().contains("rank 1/2 local 1 ready");
        QVERIFY(sawReady); // the script's stderr is kept as log text
        QVERIFY(launchtest::leftovers(launchtest::workerPids(out + "/metrics.jsonl")).isEmpty());
    }

    void failingScriptNamesItsRank() {
        QTemporaryDir dir;
        const QString out = dir.filePath("script");
        const auto r = launchtest::runCli({"run", "--script", launchtest::envPath("DDPDESK_TEST_SCRIPT"),
                                           "--python", launchtest::envPath("DDPDESK_PYTHON"), "--nproc", "2",
                                           "--out", out, "--", "--steps", "1000", "--fail-rank", "1"},
                                          150000);
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 1);
        const QJsonObject s = launchtest::readJsonFile(out + "/summary.json");
        QVERIFY2(s["failed_rank"].toInt() == 1, QJsonDocument(s).toJson().constData());
        bool traceback = false;
        for (const QJsonValue& v : s["failed_rank_stderr"].toArray())
            traceback = traceback || v.toString().contains("deliberate failure in the user's script");
        QVERIFY2(traceback, qPrintable(r.out));
        // The traceback reads as `python SCRIPT` prints it: the script's frames first, none of the
        // instrumentation's or runpy's ahead of them. PyTorch 2.x's excepthook prefixes each line with
        // "[rankN]: ", as it does outside DDP Desk.
        const QJsonArray lines = s["failed_rank_stderr"].toArray();
        const QRegularExpression rankPrefix(R"(^\[rank\d+\]: )");
        int at = -1;
        for (int i = 0; i < lines.size(); ++i) {
            const QString line = lines[i].toString().remove(rankPrefix);
            QVERIFY2(!line.contains("ddpdesk_instrument") && !line.contains("runpy"), qPrintable(line));
            if (line.startsWith("Traceback (most recent call last):")) at = i;
        }
        QVERIFY2(at >= 0 && at + 1 < lines.size(), qPrintable(r.out));
        const QString script = QFileInfo(launchtest::envPath("DDPDESK_TEST_SCRIPT")).fileName();
        QVERIFY2(lines[at + 1].toString().contains(script + "\", line "),
                 qPrintable(lines[at + 1].toString()));
        QVERIFY(launchtest::leftovers(launchtest::workerPids(out + "/metrics.jsonl")).isEmpty());
    }

    // A rank whose data loading takes 60 ms a step while the other's takes none: within 10 s of the first
    // step it is named a straggler (after --straggler-after 3), with data loading as what is slow; the fast
    // rank never is.
    void aSlowRankIsNamedAStraggler() {
        QTemporaryDir dir;
        const QString out = dir.filePath("slow");
        const auto r = launchtest::runCli({"run", "--script", launchtest::envPath("DDPDESK_TEST_SCRIPT"),
                                           "--python", launchtest::envPath("DDPDESK_PYTHON"), "--nproc", "2",
                                           "--straggler-after", "3", "--out", out, "--", "--steps", "200",
                                           "--slow-rank", "1", "--slow-ms", "60"},
                                          150000);
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QVERIFY2(r.out.contains("straggler [STRAGGLER]: rank 1's own work") ||
                     r.err.contains("straggler [STRAGGLER]: rank 1's own work"),
                 qPrintable(r.out + r.err));
        const QVector<QJsonObject> events = launchtest::readJsonLines(out + "/metrics.jsonl");
        double firstStepT = 0;
        QJsonObject straggler;
        for (const QJsonObject& e : events) {
            if (e["event"].toString() == "step" && firstStepT == 0) firstStepT = e["t"].toDouble();
            if (e["event"].toString() != "diagnosis" || e["code"].toString() != "STRAGGLER") continue;
            QVERIFY2(e["behind"].toArray() == QJsonArray({1}), qPrintable(QJsonDocument(e).toJson()));
            if (straggler.isEmpty()) straggler = e;
        }
        QVERIFY2(!straggler.isEmpty(), qPrintable(r.out + r.err));
        QCOMPARE(straggler["slow_part"].toString(), QStringLiteral("data_loading"));
        QCOMPARE(straggler["fastest_rank"].toInt(), 0);
        QVERIFY2(straggler["ratio"].toDouble() >= 1.3, qPrintable(QJsonDocument(straggler).toJson()));
        QVERIFY2(straggler["part_ms"].toDouble() >= 50, qPrintable(QJsonDocument(straggler).toJson()));
        const double namedAfterS = straggler["t"].toDouble() - firstStepT;
        QVERIFY2(namedAfterS <= 10, qPrintable(QString::number(namedAfterS)));
        const QJsonArray ranks = launchtest::readJsonFile(out + "/summary.json")["ranks"].toArray();
        QCOMPARE(ranks.size(), 2);
        QVERIFY2(ranks[1].toObject()["straggler"].toObject()["vs_fastest"].toDouble() >= 1.3,
                 qPrintable(QJsonDocument(ranks[1].toObject()).toJson()));
        QVERIFY2(ranks[0].toObject()["straggler"].toObject()["vs_fastest"].toDouble() < 1.3,
                 qPrintable(QJsonDocument(ranks[0].toObject()).toJson()));
        // Why it would not scale: rank 0 waits most of its step, but for rank 1, not for the link.
        QStringList scaling;
        for (const QJsonValue& v : launchtest::readJsonFile(out + "/summary.json")["scaling"].toArray())
            scaling << v.toObject()["code"].toString();
        QVERIFY2(scaling.contains("STRAGGLER") && !scaling.contains("COMM_BOUND"),
                 qPrintable(scaling.join(',')));
    }

    void sweepOneTwo() {
        QTemporaryDir dir;
        const QString out = dir.filePath("sweep");
        const auto r = launchtest::runCli({"sweep", "--nproc-list", "1,2", "--workload", "autoencoder",
                                           "--steps", "10", "--threads", "1", "--batch-size", "16",
                                           "--limit-samples", "256", "--telemetry-ms", "0", "--out", out},
                                          150000, {{"QT_QPA_PLATFORM", "offscreen"}});
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QFile csv(out + "/sweep.csv");
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(csv.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[0],
                 QStringLiteral("nproc,samples_per_s,speedup,efficiency,time_to_target_s,final_loss,"
                                "test_accuracy,comm_wait_share,bytes_per_step,variant,scaling,notes"));
        QVERIFY(lines[1].startsWith("1,"));
        QVERIFY(lines[2].startsWith("2,"));
        for (int i = 1; i <= 2; ++i) {
            const QStringList cells = lines[i].split(',');
            QCOMPARE(cells.size(), 12);
            QCOMPARE(cells[9], QString());               // nothing compared
            QVERIFY(cells[1].toDouble() > 0);            // samples/s
            QVERIFY(cells[2].toDouble() > 0);            // speedup
            QVERIFY(std::isfinite(cells[5].toDouble())); // final loss
            QVERIFY(!cells[4].isEmpty());                // every size reached the common target loss
        }
        QCOMPARE(lines[1].split(',')[2].toDouble(), 1.0); // the smallest size is the speedup reference
        QImage png(out + "/sweep.png");
        QVERIFY(!png.isNull());
        QCOMPARE(png.width(), 1280);
        QVERIFY(r.out.contains("nproc") && r.out.contains("sweep.csv"));
        QVERIFY(QFile::exists(out + "/n1/summary.json") && QFile::exists(out + "/n2/summary.json"));
    }

    // `--compare SETTING=V1,V2` runs every size once per value, so a setting's effect shows in one table (the
    // Compare page's "Setting" column): fp16 gradient buckets halve sweep.csv's bytes_per_step, and bf16
    // autocast trains to a different (close) loss in its own folder with its own configuration.
    void sweepComparesASetting() {
        struct Case {
            QString spec, a, b;
        };
        for (const Case& c : {Case{"grad-compression=none,fp16", "none", "fp16"},
                              Case{"precision=fp32,bf16", "fp32", "bf16"}}) {
            QTemporaryDir dir;
            const QString out = dir.filePath("sweep");
            const auto r = launchtest::runCli({"sweep", "--nproc-list", "2", "--compare", c.spec,
                                               "--workload", "autoencoder", "--steps", "4", "--threads", "1",
                                               "--batch-size", "16", "--limit-samples", "256", "--out", out},
                                              150000, {{"QT_QPA_PLATFORM", "offscreen"}});
            QVERIFY(r.finished);
            QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
            QFile csv(out + "/sweep.csv");
            QVERIFY(csv.open(QIODevice::ReadOnly));
            const QStringList lines = QString::fromUtf8(csv.readAll()).split('\n', Qt::SkipEmptyParts);
            QCOMPARE(lines.size(), 3);
            QVERIFY(lines[0].endsWith(",bytes_per_step,variant,scaling,notes"));
            const QString setting = c.spec.section('=', 0, 0);
            const QStringList first = lines[1].split(','), second = lines[2].split(',');
            QCOMPARE(first.value(9), setting + "=" + c.a);
            QCOMPARE(second.value(9), setting + "=" + c.b);
            QCOMPARE(first.value(2).toDouble(), 1.0); // speedup is measured within each value
            QCOMPARE(second.value(2).toDouble(), 1.0);
            for (const QString& value : {c.a, c.b}) {
                const QString run = out + "/n2-" + setting + "-" + value;
                QCOMPARE(launchtest::readJsonFile(run + "/summary.json")["status"].toString(),
                         QStringLiteral("ok"));
                QString configured;
                for (const QJsonObject& e : launchtest::readJsonLines(run + "/metrics.jsonl"))
                    if (e["event"].toString() == "launch")
                        configured = e["config"].toObject()[QString(setting).replace('-', '_')].toString();
                QCOMPARE(configured, value);
            }
            const qint64 bytesA = first.value(8).toLongLong(), bytesB = second.value(8).toLongLong();
            QVERIFY(bytesA > 0);
            if (setting == "grad-compression") {
                QCOMPARE(bytesB * 2, bytesA);
            } else {
                QCOMPARE(bytesB, bytesA); // autocast keeps fp32 gradients
                QVERIFY2(first.value(5) != second.value(5), qPrintable(lines.join('\n'))); // final loss
            }
            QVERIFY2(r.out.contains(setting + "=" + c.b), qPrintable(r.out)); // the terminal table says which
        }
        const auto bad = launchtest::runCli({"sweep", "--nproc-list", "2", "--compare", "precision=fp32,fp8",
                                             "--workload", "autoencoder", "--out", QDir::tempPath() + "/x"},
                                            30000, {{"QT_QPA_PLATFORM", "offscreen"}});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("--compare: --precision 'fp8' is not valid; use fp32, bf16 or fp16"),
                 qPrintable(bad.err));
        const auto twice =
            launchtest::runCli({"sweep", "--nproc-list", "2", "--compare", "precision=fp32,fp32",
                                "--workload", "autoencoder", "--out", QDir::tempPath() + "/x"},
                               30000, {{"QT_QPA_PLATFORM", "offscreen"}});
        QCOMPARE(twice.exitCode, 2);
        QVERIFY2(twice.err.contains("--compare: 'fp32' is given twice"), qPrintable(twice.err));
        QTemporaryDir scriptDir;
        const auto script =
            launchtest::runCli({"sweep", "--nproc-list", "2", "--compare", "precision=fp32,bf16", "--script",
                                launchtest::envPath("DDPDESK_TEST_SCRIPT"), "--python",
                                launchtest::envPath("DDPDESK_PYTHON"), "--out", scriptDir.filePath("s")},
                               30000, {{"QT_QPA_PLATFORM", "offscreen"}});
        QCOMPARE(script.exitCode, 2);
        QVERIFY2(script.err.contains("a script run does not take the worker's training settings"),
                 qPrintable(script.err));
        QVERIFY(!QFileInfo::exists(scriptDir.filePath("s/n2-precision-fp32")));
    }
};

QTEST_GUILESS_MAIN(ScriptSweepTest)
#include "test_script_sweep.moc"
