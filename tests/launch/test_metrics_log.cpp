// metrics.jsonl stays bounded on a long run: the real MetricsLog is fed many step events of 4 ranks with the
// occasional one-off event between them; past the thinning threshold step events are thinned (every k-th per
// rank, k doubling per chunk), every one-off event is kept, and a replay of the file still draws each rank's
// whole curve.
#include "launch/model/run_model.h"
#include "launch/model/run_replay.h"
#include "launch/record/metrics_log.h"
#include "protocol/telemetry.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <map>

using namespace ddpdesk;

namespace {

constexpr double kT0 = 1796036358.5;
constexpr int kRanks = 4;
constexpr int kSteps = 50000;     // per rank: ~35 MB of step events unthinned
constexpr int kOneOffEvery = 500; // steps between one-off events

} // namespace

class MetricsLogTest : public QObject {
    Q_OBJECT

private slots:
    void thinsStepEventsAndKeepsEveryOtherEvent() {
        QTemporaryDir dir;
        launch::MetricsLog log;
        QString error;
        QVERIFY2(log.open(dir.filePath("metrics.jsonl"), false, &error), qPrintable(error));
        constexpr qint64 kFrom = 512 * 1024, kChunk = 256 * 1024;
        log.setThinning(kFrom, kChunk);
        QCOMPARE(log.stride(), qint64(1));

        int oneOffs = 0;
        for (int rank = 0; rank < kRanks; ++rank) {
            auto s = protocol::makeEvent("rank_start", rank);
            s["t"] = kT0;
            s["source"] = "launcher";
            s["local_rank"] = rank;
            log.write(s);
            ++oneOffs;
        }
        const char* oneOffTypes[] = {"epoch", "rendezvous", "error", "checkpoint"};
        for (int step = 1; step <= kSteps; ++step) {
            for (int rank = 0; rank < kRanks; ++rank) {
                auto e = protocol::makeEvent(protocol::ev::Step, rank);
                e["t"] = kT0 + step * 0.1;
                e["epoch"] = step / 1000;
                e["step"] = step;
                e["loss"] = 1.0 / step + rank;
                e["samples"] = 64;
                e["step_ms"] = 100.0;
                e["comm_wait_ms"] = 10.0;
                e["bytes_allreduced"] = 123456;
                log.write(e);
            }
            if (step % kOneOffEvery == 0) {
                auto e = protocol::makeEvent(oneOffTypes[(step / kOneOffEvery) % 4], step % kRanks);
                e["t"] = kT0 + step * 0.1;
                e["step"] = step;
                log.write(e);
                ++oneOffs;
                auto g = protocol::makeEvent(protocol::ev::Gpu, -1); // a sample: may be thinned
                g["t"] = kT0 + step * 0.1;
                log.write(g);
            }
        }
        for (int rank = 0; rank < kRanks; ++rank) {
            auto x = protocol::makeEvent("rank_exit", rank);
            x["t"] = kT0 + kSteps * 0.1 + 1;
            x["source"] = "launcher";
            x["local_rank"] = rank;
            x["exit_code"] = 0;
            x["state"] = "done";
            log.write(x);
            ++oneOffs;
        }
        log.close();

        // Unthinned this is ~60 MB; with k doubling every 256 KiB past 512 KiB it is a few MiB.
        const qint64 size = QFileInfo(dir.filePath("metrics.jsonl")).size();
        QVERIFY2(size < 4LL << 20, qPrintable(QStringLiteral("metrics.jsonl is %1 bytes").arg(size)));
        QVERIFY(log.stride() >= 32);
        QVERIFY(log.thinnedEvents() > kRanks * kSteps / 2);

        QFile f(dir.filePath("metrics.jsonl"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        std::map<int, int> lastStep, stepLines;
        int kept = 0, lines = 0;
        while (!f.atEnd()) {
            const QByteArray line = f.readLine().trimmed();
            ++lines;
            auto e = protocol::parseLine(std::string_view(line.constData(), size_t(line.size())));
            QVERIFY2(e.has_value(), line.constData());
            if (e->type == protocol::ev::Step) {
                const int step = e->body["step"].get<int>();
                QVERIFY(step > lastStep[e->rank]); // in order, never repeated
                lastStep[e->rank] = step;
                ++stepLines[e->rank];
            } else if (e->type != protocol::ev::Gpu) {
                ++kept;
            }
        }
        QCOMPARE(kept, oneOffs);
        for (int rank = 0; rank < kRanks; ++rank) {
            // Every step up to the threshold was kept; thinned ones still reach the end of the run.
            QVERIFY(stepLines[rank] > int(kFrom / 250 / kRanks));
            QVERIFY2(lastStep[rank] > kSteps - 2 * log.stride(), qPrintable(QString::number(lastStep[rank])));
        }

        // The replay draws each rank's whole curve, coarser: x spans the run.
        launch::RunModel m;
        QVERIFY2(launch::replayRecordedRun(dir.path(), &m, &error), qPrintable(error));
        QCOMPARE(m.rankCount(), kRanks);
        for (int i = 0; i < kRanks; ++i) {
            QVERIFY(!m.lossSeries(i).isEmpty());
            QVERIFY(m.lossSeries(i).first().x() < kSteps * 0.1 * 0.01);
            QVERIFY(m.lossSeries(i).last().x() > kSteps * 0.1 - 2 * log.stride() * 0.1);
            QCOMPARE(m.rank(i).state, launch::RankState::Done);
        }
    }

    void appendingContinuesTheStride() {
        QTemporaryDir dir;
        const QString path = dir.filePath("metrics.jsonl");
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(300 * 1024, ' ') + '\n'); // an earlier attempt's bytes
        }
        launch::MetricsLog log;
        log.setThinning(100 * 1024, 100 * 1024);
        QVERIFY(log.open(path, true, nullptr));
        QCOMPARE(log.bytesWritten(), qint64(300 * 1024 + 1));
        QCOMPARE(log.stride(), qint64(1) << 3);
    }

    void anOverlongLogTextIsCutToOneReplayableLine() {
        QTemporaryDir dir;
        launch::MetricsLog log;
        QVERIFY(log.open(dir.filePath("metrics.jsonl"), false, nullptr));
        auto e = protocol::makeEvent(protocol::ev::Log, 0);
        e["stream"] = "stderr";
        e["text"] = std::string(64 * 1024, '\x01') + "the end"; // escaped as \u0001: six times longer
        log.write(e);
        log.close();
        QFile f(dir.filePath("metrics.jsonl"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray line = f.readLine().trimmed();
        QVERIFY(f.atEnd());
        QVERIFY(size_t(line.size()) <= protocol::kMaxLineBytes);
        auto parsed = protocol::parseLine(std::string_view(line.constData(), size_t(line.size())));
        QVERIFY(parsed.has_value());
        const QString text = QString::fromStdString(parsed->body["text"].get<std::string>());
        QVERIFY(text.contains(" [cut] "));
        QVERIFY(text.endsWith("the end")); // the end of the text is kept
        QVERIFY(text.size() > 10000);      // cut by what does not fit, not by half
    }
};

QTEST_GUILESS_MAIN(MetricsLogTest)
#include "test_metrics_log.moc"
