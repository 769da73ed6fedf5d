// Bad bytes through the real launcher: a --script rank (a real process) prints lines holding bytes that are
// not UTF-8 on stdout and stderr, some of them with its loss. Every line of metrics.jsonl and summary.json
// must stay strict JSON (nlohmann's parser rejects invalid UTF-8), the loss must still be read, and the run
// replays.
#include "launch/model/run_model.h"
#include "launch/model/run_replay.h"
#include "launch_test_util.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

namespace {

nlohmann::json strictJson(const QByteArray& text, QString* why) {
    try {
        return nlohmann::json::parse(text.constData(), text.constData() + text.size());
    } catch (const std::exception& e) {
        *why = QString::fromUtf8(e.what());
        return nlohmann::json();
    }
}

} // namespace

class BadBytesTest : public QObject {
    Q_OBJECT

private slots:
    void scriptOutputWithInvalidUtf8() {
        QTemporaryDir dir;
        const QString script = dir.filePath("latin1.sh");
        {
            QFile f(script);
            QVERIFY(f.open(QIODevice::WriteOnly));
            // \351 is Latin-1 e-acute, \377\376 a UTF-16 BOM, \200 a lone continuation byte. The last loss
            // comes after a pause so stdout and stderr cannot reorder it.
            f.write("#!/bin/sh\n"
                    "printf 'starting \\377\\376 rank %s\\n' \"$RANK\"\n"
                    "printf 'caf\\351 loss: 0.75\\n'\n"
                    "printf 'epoch 1 \\200 loss: 0.5 \\377\\n' >&2\n"
                    "printf '{\"v\":1,\"event\":\"hello\",\"rank\":0,\"host\":\"h\\351te\"}\\n'\n"
                    "sleep 0.5\n"
                    "printf 'loss: 0.25 \\377\\n'\n");
        }
        QVERIFY(QFile::setPermissions(script, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        const QString out = dir.filePath("run");
        const auto r = launchtest::runCli({"run", "--script", script, "--nproc", "2", "--out", out}, 60000);
        QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.out + r.err));

        QFile metrics(out + "/metrics.jsonl");
        QVERIFY(metrics.open(QIODevice::ReadOnly));
        int lines = 0, replaced = 0, steps = 0;
        while (!metrics.atEnd()) {
            const QByteArray line = metrics.readLine().trimmed();
            QString why;
            const nlohmann::json e = strictJson(line, &why);
            QVERIFY2(e.is_object(), qPrintable(QStringLiteral("line %1: %2").arg(lines + 1).arg(why)));
            ++lines;
            replaced += line.contains("\xef\xbf\xbd") || line.contains("\\ufffd"); // U+FFFD, raw or escaped
            steps += e.value("event", "") == "step";
        }
        QVERIFY(replaced >= 2 * 5); // each rank's five lines with bad bytes arrived, bytes replaced
        QCOMPARE(steps, 2 * 3);

        QFile summaryFile(out + "/summary.json");
        QVERIFY(summaryFile.open(QIODevice::ReadOnly));
        QString why;
        const nlohmann::json summary = strictJson(summaryFile.readAll(), &why);
        QVERIFY2(summary.is_object(), qPrintable(why));
        QCOMPARE(QString::fromStdString(summary.value("status", "")), QStringLiteral("ok"));
        QCOMPARE(summary.value("final_loss", -1.0), 0.25);
        QCOMPARE(summary.value("steps", 0), 3);

        ddpdesk::launch::RunModel m;
        ddpdesk::launch::ReplayStats stats;
        QString error;
        QVERIFY2(ddpdesk::launch::replayRecordedRun(out, &m, &error, &stats), qPrintable(error));
        QCOMPARE(stats.skipped(), qint64(0));
        QCOMPARE(m.rank(1).loss, 0.25);
        QVERIFY(m.rank(0).lastStderr.join('\n').contains(QChar(0xFFFD)));
    }

    void workerErrorNamingANonUtf8Path() {
        // The worker's own telemetry: an error event whose message names a path with a byte that is not UTF-8
        // (passed through sh, since QProcess arguments are always UTF-8).
        const QString worker = launchtest::envPath("DDPDESK_WORKER_BIN");
        if (worker.isEmpty()) QSKIP("DDPDESK_WORKER_BIN not set (no worker built)");
        QTemporaryDir dir;
        QProcess p;
        p.start("/bin/sh", {"-c",
                            "exec \"$0\" --workload torchscript --model \"$1/no$(printf '\\377')such.pt\" "
                            "--world-size 1 --rank 0 --store \"file:$1/store\"",
                            worker, dir.path()});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        const QList<QByteArray> lines = p.readAllStandardOutput().split('\n');
        bool sawError = false;
        for (const QByteArray& line : lines) {
            if (line.trimmed().isEmpty()) continue;
            QString why;
            const nlohmann::json e = strictJson(line, &why);
            QVERIFY2(e.is_object(), qPrintable(why + ": " + QString::fromUtf8(line)));
            if (e.value("event", "") == "error") {
                sawError = true;
                const QString message = QString::fromStdString(e.value("message", ""));
                QVERIFY2(message.contains(QStringLiteral("no\uFFFDsuch.pt")), qPrintable(message));
            }
        }
        QVERIFY(sawError);
    }
};

QTEST_GUILESS_MAIN(BadBytesTest)
#include "test_bad_bytes.moc"
