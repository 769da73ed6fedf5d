// Bad input never crashes or hangs the worker: each case ends quickly with one specific `error` event and the
// documented exit code.

#include "worker_harness.h"

#include <QTemporaryDir>

using namespace ddpdesk;
using namespace ddpdesk::traintest;

class TestBadInput : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString makeTruncatedIdx() {
        // A small IDX pair whose image file declares 50 images but holds 20.
        const QString folder = m_dir.filePath("truncated");
        QDir().mkpath(folder);
        auto write = [](const QString& path, QByteArray header, int bytes) {
            QFile f(path);
            f.open(QIODevice::WriteOnly);
            f.write(header);
            f.write(QByteArray(bytes, '\x01'));
        };
        write(folder + "/train-images-idx3-ubyte", QByteArray::fromHex("00000803000000320000001c0000001c"), 20 * 784);
        write(folder + "/train-labels-idx1-ubyte", QByteArray::fromHex("0000080100000032"), 50);
        return folder;
    }

private Q_SLOTS:
    void rejected_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("envName");
        QTest::addColumn<QString>("envValue");
        QTest::addColumn<QString>("code");
        QTest::addColumn<int>("exitCode");

        const QString out = m_dir.filePath("out");
        const QStringList ae{"--workload", "autoencoder", "--steps", "2", "--out", out};
        const QStringList fm{"--workload", "fashion-mnist", "--steps", "2", "--out", out};
        QFile notAFolder(m_dir.filePath("plain-file"));
        notAFolder.open(QIODevice::WriteOnly);
        notAFolder.write("x");
        notAFolder.close();
        QFile notTorchScript(m_dir.filePath("model.pt"));
        notTorchScript.open(QIODevice::WriteOnly);
        notTorchScript.write("print('I am Python source, not a TorchScript archive')\n");
        notTorchScript.close();

        QTest::newRow("rank >= world size") << ae + QStringList{"--rank", "2", "--world-size", "2"} << "" << ""
                                            << "BAD_INPUT" << 2;
        QTest::newRow("world size 0") << ae + QStringList{"--world-size", "0"} << "" << "" << "BAD_INPUT" << 2;
        QTest::newRow("WORLD_SIZE=0 in env") << ae << "WORLD_SIZE" << "0" << "BAD_INPUT" << 2;
        QTest::newRow("RANK not a number") << ae << "RANK" << "one" << "BAD_INPUT" << 2;
        QTest::newRow("unknown flag") << ae + QStringList{"--learning-rate", "1"} << "" << "" << "BAD_INPUT" << 2;
        QTest::newRow("unknown workload") << QStringList{"--workload", "resnet"} << "" << "" << "BAD_INPUT" << 2;
        QTest::newRow("world 2 without store") << ae + QStringList{"--rank", "0", "--world-size", "2"} << "" << ""
                                               << "BAD_INPUT" << 2;
        QTest::newRow("malformed store") << ae + QStringList{"--store", "redis://x"} << "" << "" << "BAD_INPUT" << 2;
        QTest::newRow("store port out of range") << ae + QStringList{"--store", "tcp://127.0.0.1:70000"} << "" << ""
                                                 << "BAD_INPUT" << 2;
        QTest::newRow("store folder missing")
            << ae + QStringList{"--store", "file:" + m_dir.filePath("no/such/dir/store")} << "" << "" << "BAD_INPUT" << 2;
        QTest::newRow("global batch not divisible")
            << ae + QStringList{"--global-batch", "3", "--rank", "0", "--world-size", "2", "--store",
                                "file:" + m_dir.filePath("gb-store")}
            << "" << "" << "BAD_INPUT" << 2;
        QTest::newRow("missing dataset folder") << fm + QStringList{"--data", m_dir.filePath("nothing-here")} << ""
                                                << "" << "DATA_MISSING" << 2;
        QTest::newRow("truncated dataset") << fm + QStringList{"--data", makeTruncatedIdx()} << "" << ""
                                           << "DATA_CORRUPT" << 2;
        QTest::newRow("not TorchScript")
            << QStringList{"--workload", "torchscript", "--model", m_dir.filePath("model.pt"), "--out", out} << "" << ""
            << "MODEL_INVALID" << 2;
        QTest::newRow("model file missing")
            << QStringList{"--workload", "torchscript", "--model", m_dir.filePath("absent.pt"), "--out", out} << ""
            << "" << "MODEL_INVALID" << 2;
        QTest::newRow("unwritable output folder")
            << QStringList{"--workload", "autoencoder", "--steps", "1", "--out", m_dir.filePath("plain-file/sub")}
            << "" << "" << "OUTPUT_UNWRITABLE" << 2;
        QTest::newRow("cuda on a CPU-only LibTorch") << ae + QStringList{"--device", "cuda"} << "CUDA_VISIBLE_DEVICES"
                                                     << "" << "DEVICE_UNAVAILABLE" << 2;
        QTest::newRow("NaN loss") << QStringList{"--workload", "fashion-mnist", "--lr", "1e12", "--limit-samples", "640",
                                                 "--steps", "20", "--out", out}
                                  << "" << "" << "NAN_LOSS" << 4;
    }

    void rejected() {
        QFETCH(QStringList, args);
        QFETCH(QString, envName);
        QFETCH(QString, envValue);
        QFETCH(QString, code);
        QFETCH(int, exitCode);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* name : {"RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT"})
            env.remove(name);
        if (!envName.isEmpty())
            env.insert(envName, envValue);
        QElapsedTimer timer;
        timer.start();
        RankResult r = runWorker(args, 120000, env);
        QVERIFY2(r.finished, "the worker hung");
        QVERIFY2(r.exitCode == exitCode, qPrintable(r.describe()));
        auto errors = r.ofType("error");
        QCOMPARE(static_cast<int>(errors.size()), 1);
        QCOMPARE(QString::fromStdString(errors.front().body["code"].get<std::string>()), code);
        QVERIFY(!errors.front().body["message"].get<std::string>().empty());
        QVERIFY(!r.last("done"));
        // stdout carries telemetry only: every non-empty line parsed as an event.
        int lines = 0;
        for (const QByteArray& line : r.stdoutText.split('\n'))
            lines += line.trimmed().isEmpty() ? 0 : 1;
        QCOMPARE(lines, static_cast<int>(r.events.size()));
    }

    void helpAndVersion() {
        RankResult help = runWorker({"--help"});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.stdoutText.contains("--workload"));
        RankResult version = runWorker({"--version"});
        QCOMPARE(version.exitCode, 0);
        QVERIFY(version.stdoutText.startsWith("ddpdesk-worker "));
        QVERIFY(version.stdoutText.contains("LibTorch"));
    }
};

QTEST_GUILESS_MAIN(TestBadInput)
#include "test_bad_input.moc"
