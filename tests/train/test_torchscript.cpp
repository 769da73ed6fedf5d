// The torchscript workload with models made the way the README tells users to (torch.jit.script +
// torch.jit.save in python3-torch): trained by two ranks on IDX data and on a torch.save'd tensor file, the
// result loadable back in Python, and a model whose loss turns NaN stopped with NAN_LOSS.

#include "worker_harness.h"

#include <QTemporaryDir>

using namespace ddpdesk;
using namespace ddpdesk::traintest;

class TestTorchScript : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_runs = 0;

    std::vector<RankResult> trainTwo(const QStringList& args) {
        WorkerSet set;
        // A fresh store per run: PyTorch 2.6 was seen under load to leave a finished job's FileStore behind
        // (as in train.checkpoint), and the next run would meet its arrivals.
        const QString store = m_dir.filePath(QStringLiteral("store-%1").arg(++m_runs));
        set.startRanks(2, args + QStringList{"--store", "file:" + store, "--telemetry-ms", "0"});
        return set.waitAll(240000);
    }

private Q_SLOTS:
    void initTestCase() {
        QProcess python;
        python.start(pythonPath(),
                     {QStringLiteral(DDPDESK_TRAIN_TEST_DIR) + "/make_torchscript_models.py", m_dir.path()});
        QVERIFY(python.waitForFinished(120000));
        QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
        QVERIFY(QFile::exists(m_dir.filePath("mlp.pt")));
        QVERIFY(QFile::exists(m_dir.filePath("regression.pt")));
    }

    void trainsScriptedModelOnIdx() {
        const QString out = m_dir.filePath("mlp-out");
        auto r = trainTwo({"--workload", "torchscript", "--model", m_dir.filePath("mlp.pt"), "--data",
                           fashionDir(), "--limit-samples", "1024", "--epochs", "2", "--batch-size", "32",
                           "--out", out});
        for (const auto& rr : r)
            QVERIFY2(rr.exitCode == 0, qPrintable(rr.describe()));
        auto epochs = r[0].ofType("epoch");
        QCOMPARE(static_cast<int>(epochs.size()), 2);
        double accuracy = epochs.back().body["test_accuracy"].get<double>();
        QVERIFY2(accuracy > 0.5, qPrintable(QString::number(accuracy))); // 10 classes: chance is 0.1
        // The trained model is TorchScript again: Python loads and runs it.
        QByteArray shape = runPython(QStringLiteral("import sys, torch\n"
                                                    "m = torch.jit.load(sys.argv[1])\n"
                                                    "print(tuple(m(torch.zeros(3, 1, 28, 28)).shape))\n"),
                                     {out + "/model.pt"});
        QCOMPARE(shape.trimmed(), QByteArray("(3, 10)"));
    }

    void trainsOnTensorFileWithMse() {
        const QString out = m_dir.filePath("linear-out");
        auto r = trainTwo({"--workload", "torchscript", "--model", m_dir.filePath("linear.pt"), "--data",
                           m_dir.filePath("regression.pt"), "--loss", "mse", "--lr", "0.05", "--epochs", "8",
                           "--batch-size", "16", "--out", out});
        for (const auto& rr : r)
            QVERIFY2(rr.exitCode == 0, qPrintable(rr.describe()));
        auto epochs = r[0].ofType("epoch");
        QCOMPARE(static_cast<int>(epochs.size()), 8);
        double first = epochs.front().body["train_loss"].get<double>();
        double last = epochs.back().body["train_loss"].get<double>();
        QVERIFY2(last < first * 0.1, qPrintable(QString("%1 -> %2").arg(first).arg(last)));
        QVERIFY(epochs.back().body["test_loss"].is_null()); // no x_test/y_test in the file
    }

    void crossEntropyNeedsLabels() {
        RankResult r = runWorker({"--workload", "torchscript", "--model", m_dir.filePath("linear.pt"),
                                  "--data", m_dir.filePath("regression.pt"), "--loss", "cross-entropy",
                                  "--out", m_dir.filePath("ce-out")});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.last("error")->body["code"].get<std::string>(), std::string("BAD_INPUT"));
    }

    void modelThatCannotTakeTheData() {
        // 8 inputs expected, 784-pixel images given: refused before any rendezvous.
        RankResult r =
            runWorker({"--workload", "torchscript", "--model", m_dir.filePath("linear.pt"), "--data",
                       fashionDir(), "--limit-samples", "64", "--out", m_dir.filePath("shape-out")});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.last("error")->body["code"].get<std::string>(), std::string("MODEL_INVALID"));
    }

    void nanLossStopsEveryRank() {
        auto r = trainTwo({"--workload", "torchscript", "--model", m_dir.filePath("nan.pt"), "--data",
                           fashionDir(), "--limit-samples", "256", "--steps", "3", "--out",
                           m_dir.filePath("nan-out"), "--collective-timeout", "30"});
        for (const auto& rr : r) {
            QVERIFY2(rr.exitCode == 4, qPrintable(rr.describe()));
            QCOMPARE(rr.last("error")->body["code"].get<std::string>(), std::string("NAN_LOSS"));
        }
    }
};

QTEST_GUILESS_MAIN(TestTorchScript)
#include "test_torchscript.moc"
