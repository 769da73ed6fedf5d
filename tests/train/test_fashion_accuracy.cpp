// The acceptance bar of the engine: the reference CNN trained by two workers for five epochs on the full
// Fashion-MNIST set (SGD 0.01, momentum 0.9, batch 64 per rank) reaches >= 0.88 test accuracy, as PyTorch's
// own Python DDP does with the same settings; compressed gradients keep 1-epoch accuracy within a point.
// Takes minutes (labelled "slow").

#include "worker_harness.h"

#include <QTemporaryDir>

using namespace ddpdesk;
using namespace ddpdesk::traintest;

class TestFashionAccuracy : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fiveEpochsTwoWorkers() {
        QTemporaryDir dir;
        WorkerSet set;
        set.startRanks(2, {"--workload", "fashion-mnist", "--epochs", "5", "--store",
                           QString("tcp://127.0.0.1:%1").arg(freePort()), "--out", dir.path(),
                           "--telemetry-ms", "2000", "--threads", "1"});
        auto results = set.waitAll(2300 * 1000);
        for (const auto& r : results)
            QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        auto epochs = results[0].ofType("epoch");
        QCOMPARE(static_cast<int>(epochs.size()), 5);
        for (const auto& e : epochs)
            qInfo("epoch %d: train loss %.4f, test accuracy %.4f", e.body["epoch"].get<int>(),
                  e.body["train_loss"].get<double>(), e.body["test_accuracy"].get<double>());
        const double accuracy = epochs.back().body["test_accuracy"].get<double>();
        QVERIFY2(accuracy >= 0.88, qPrintable(QString::number(accuracy)));
        // Every rank reports the same (allreduced) accuracy.
        QCOMPARE(results[1].ofType("epoch").back().body["test_accuracy"].get<double>(), accuracy);
    }

    // --grad-compression: one epoch on the full set with fp16 and bf16 buckets ends within 1 point of the
    // uncompressed run's test accuracy (on shared memory, the transport two workers on one machine use).
    void compressionKeepsAccuracy() {
        QMap<QString, double> accuracy;
        for (const QString wire : {"none", "fp16", "bf16"}) {
            QTemporaryDir dir;
            WorkerSet set;
            set.startRanks(2, {"--workload", "fashion-mnist", "--epochs", "1", "--grad-compression", wire,
                               "--store", "file:" + dir.filePath("store"), "--out", dir.path(),
                               "--telemetry-ms", "2000", "--threads", "1"});
            auto results = set.waitAll(900 * 1000);
            for (const auto& r : results)
                QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
            accuracy[wire] = results[0].ofType("epoch").back().body["test_accuracy"].get<double>();
            qInfo("grad compression %s: test accuracy after 1 epoch %.4f", qPrintable(wire), accuracy[wire]);
        }
        for (const QString wire : {"fp16", "bf16"})
            QVERIFY2(std::abs(accuracy[wire] - accuracy["none"]) <= 0.01,
                     qPrintable(QStringLiteral("%1: %2 against %3 uncompressed")
                                    .arg(wire)
                                    .arg(accuracy[wire])
                                    .arg(accuracy["none"])));
    }
};

QTEST_GUILESS_MAIN(TestFashionAccuracy)
#include "test_fashion_accuracy.moc"
