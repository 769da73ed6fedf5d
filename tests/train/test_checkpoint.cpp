// Checkpoints: --resume continues exactly (k steps, stop, resume to 2k == 2k straight, bit for bit, and the loss
// curve continues), --checkpoint-every writes atomically (no temporary files left), a damaged checkpoint is
// reported as CHECKPOINT_CORRUPT by every rank and left untouched, and a checkpoint from other settings is refused.

#include "worker_harness.h"

#include <QDirIterator>
#include <QTemporaryDir>

using namespace ddpdesk;
using namespace ddpdesk::traintest;

namespace {

const QStringList kJob = {"--workload", "fashion-mnist", "--limit-samples", "320", "--batch-size", "16",
                          "--seed", "3", "--telemetry-ms", "0"};

std::vector<RankResult> runTwo(const QString& out, const QStringList& extra) {
    WorkerSet set;
    set.startRanks(2, kJob + extra + QStringList{"--out", out, "--store", "file:" + out + "/store"});
    return set.waitAll(240000);
}

std::map<int, double> lossByStep(const RankResult& r) {
    std::map<int, double> out;
    for (const auto& e : r.ofType("step"))
        out[e.body["step"].get<int>()] = e.body["loss"].get<double>();
    return out;
}

QByteArray fileBytes(const QString& path) {
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return f.readAll();
}

} // namespace

class TestCheckpoint : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void resumeContinuesExactly() {
        QTemporaryDir straight, split;
        // 320 samples / 2 ranks / 16 = 10 steps per epoch: 14 steps cross an epoch boundary after the resume.
        auto a = runTwo(straight.path(), {"--steps", "14"});
        QVERIFY2(a[0].exitCode == 0, qPrintable(a[0].describe()));
        auto b1 = runTwo(split.path(), {"--steps", "7"});
        QVERIFY2(b1[0].exitCode == 0, qPrintable(b1[0].describe()));
        auto b2 = runTwo(split.path(), {"--steps", "14", "--resume"});
        QVERIFY2(b2[0].exitCode == 0 && b2[1].exitCode == 0, qPrintable(b2[0].describe() + b2[1].describe()));

        const protocol::Event* resumed = b2[0].last("checkpoint");
        QVERIFY(!b2[0].ofType("checkpoint").empty());
        QCOMPARE(b2[0].ofType("checkpoint").front().body.value("resumed", false), true);
        QCOMPARE(b2[0].ofType("checkpoint").front().body["step"].get<int>(), 7);
        QVERIFY(resumed);
        QCOMPARE(b2[0].ofType("step").front().body["step"].get<int>(), 8);

        // The resumed run's losses are the straight run's, step for step, on both ranks.
        for (int r = 0; r < 2; ++r) {
            auto full = lossByStep(a[r]);
            auto first = lossByStep(b1[r]);
            auto rest = lossByStep(b2[r]);
            for (int s = 1; s <= 14; ++s) {
                double got = s <= 7 ? first.at(s) : rest.at(s);
                QCOMPARE(got, full.at(s));
            }
        }
        auto pa = loadModelFile("fashion-mnist", straight.filePath("model.pt"));
        auto pb = loadModelFile("fashion-mnist", split.filePath("model.pt"));
        QCOMPARE(maxRelativeDifference(pa, pb), 0.0);
    }

    void checkpointEveryIsAtomic() {
        QTemporaryDir out;
        auto r = runTwo(out.path(), {"--steps", "6", "--checkpoint-every", "2"});
        QVERIFY2(r[0].exitCode == 0, qPrintable(r[0].describe()));
        std::vector<int> steps;
        for (const auto& e : r[0].ofType("checkpoint"))
            steps.push_back(e.body["step"].get<int>());
        QCOMPARE(steps, (std::vector<int>{2, 4, 6}));
        QVERIFY(r[1].ofType("checkpoint").empty()); // only rank 0 writes
        QStringList left = QDir(out.path()).entryList(QDir::Files);
        left.sort();
        QCOMPARE(left, (QStringList{"checkpoint.pt", "model.pt"}));
    }

    void corruptCheckpointIsReported_data() {
        QTest::addColumn<QString>("damage");
        QTest::newRow("garbage") << "garbage";
        QTest::newRow("truncated") << "truncated";
    }
    void corruptCheckpointIsReported() {
        QFETCH(QString, damage);
        QTemporaryDir out;
        auto first = runTwo(out.path(), {"--steps", "2"});
        QVERIFY(first[0].exitCode == 0);
        const QString path = out.filePath("checkpoint.pt");
        QByteArray good = fileBytes(path);
        QByteArray bad = damage == "garbage" ? QByteArray("this is not a checkpoint\n").repeated(100)
                                             : good.left(good.size() / 2);
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(bad);
        }
        auto r = runTwo(out.path(), {"--steps", "4", "--resume"});
        for (const RankResult& rr : r) {
            QVERIFY2(rr.exitCode == 4, qPrintable(rr.describe()));
            QCOMPARE(rr.last("error")->body["code"].get<std::string>(), std::string("CHECKPOINT_CORRUPT"));
        }
        QCOMPARE(fileBytes(path), bad); // never overwritten by a failed resume
    }

    void otherSettingsAreRefused() {
        QTemporaryDir out;
        auto first = runTwo(out.path(), {"--steps", "2"});
        QVERIFY(first[0].exitCode == 0);
        WorkerSet set;
        set.startRanks(2, QStringList{"--workload", "fashion-mnist", "--limit-samples", "320", "--batch-size", "8",
                                      "--seed", "3", "--steps", "4", "--resume", "--out", out.path(), "--store",
                                      "file:" + out.filePath("store")});
        auto r = set.waitAll(120000);
        QVERIFY2(r[0].exitCode == 2, qPrintable(r[0].describe()));
        QCOMPARE(r[0].last("error")->body["code"].get<std::string>(), std::string("CHECKPOINT_MISMATCH"));
    }

    void finalModelLoadsIntoPythonReference() {
        // model.pt keeps PyTorch's parameter names: the Python reference CNN takes its state dict as is.
        QTemporaryDir out;
        RankResult r = runWorker(kJob + QStringList{"--steps", "2", "--out", out.path()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        QByteArray answer = runPython(
            QStringLiteral("import sys, torch\n"
                           "from torch import nn\n"
                           "ref = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),\n"
                           "    nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),\n"
                           "    nn.Linear(3136, 128), nn.ReLU(), nn.Linear(128, 10))\n"
                           "sd = torch.jit.load(sys.argv[1]).state_dict()\n"
                           "ref.load_state_dict(sd)\n"
                           "print(float(ref[9].bias.sum()))\n"),
            {out.filePath("model.pt")});
        auto mine = loadModelFile("fashion-mnist", out.filePath("model.pt"));
        QVERIFY(!answer.trimmed().isEmpty());
        QCOMPARE(answer.trimmed().toDouble(), mine.at("9.bias").sum().item<double>());
    }

    void resumeWithoutCheckpointStartsFresh() {
        QTemporaryDir out;
        RankResult r = runWorker(kJob + QStringList{"--steps", "2", "--resume", "--out", out.path()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        QCOMPARE(r.ofType("step").front().body["step"].get<int>(), 1);
        QVERIFY(r.stderrText.contains("no checkpoint"));
    }
};

QTEST_GUILESS_MAIN(TestCheckpoint)
#include "test_checkpoint.moc"
