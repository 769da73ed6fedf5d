// `ddpdesk-cli gpus` end to end: the real executable, with no driver, with the fake driver (table, JSON,
// --watch), and with bad flags.

#include "fake_nvml_control.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QtTest>

using namespace ddpdesk::monitor;

namespace {

struct Result {
    int exitCode = -1;
    QString out, err;
};

Result runCli(const QStringList& args, const QString& nvmlLibrary, const QMap<QString, QString>& extra = {}) {
    QProcess cli;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QString::fromLatin1(kNvmlLibraryEnv), nvmlLibrary);
    for (const char* name : {"FAKE_NVML_INIT_RESULT", "FAKE_NVML_LOST_AFTER", "FAKE_NVML_PROCESSES"})
        env.remove(QString::fromLatin1(name));
    for (auto it = extra.begin(); it != extra.end(); ++it)
        env.insert(it.key(), it.value());
    cli.setProcessEnvironment(env);
    cli.start(QStringLiteral(DDPDESK_CLI_PATH), QStringList{QStringLiteral("gpus")} + args);
    Result r;
    if (!cli.waitForFinished(30000)) {
        cli.kill();
        cli.waitForFinished(5000);
        r.err = QStringLiteral("ddpdesk-cli gpus did not finish within 30 s");
        return r;
    }
    r.exitCode = cli.exitStatus() == QProcess::NormalExit ? cli.exitCode() : -1;
    r.out = QString::fromUtf8(cli.readAllStandardOutput());
    r.err += QString::fromUtf8(cli.readAllStandardError());
    return r;
}

} // namespace

class TestGpusCli : public QObject {
    Q_OBJECT
private slots:
    void noDriverSaysWhyAndExitsZero() {
        const QString missing = QStringLiteral("/nonexistent/libnvidia-ml.so.1");
        Result r = runCli({}, missing);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("NVML could not be loaded")), qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(missing), qPrintable(r.out));

        Result json = runCli({QStringLiteral("--json")}, missing);
        QCOMPARE(json.exitCode, 0);
        QJsonObject doc = QJsonDocument::fromJson(json.out.toUtf8()).object();
        QCOMPARE(doc.value(QStringLiteral("nvml")).toObject().value(QStringLiteral("available")).toBool(true),
                 false);
        QVERIFY(doc.value(QStringLiteral("nvml"))
                    .toObject()
                    .value(QStringLiteral("reason"))
                    .toString()
                    .contains(missing));
        QVERIFY(doc.value(QStringLiteral("gpus")).toArray().isEmpty());

        Result watch =
            runCli({QStringLiteral("--watch")}, missing); // nothing to watch: must not loop forever
        QCOMPARE(watch.exitCode, 0);
        QVERIFY(watch.err.contains(QStringLiteral("nothing to watch")));
    }

    void tableFromTheFakeDriver() {
        Result r = runCli({}, QStringLiteral(FAKE_NVML_PATH),
                          {{QStringLiteral("FAKE_NVML_PROCESSES"), QStringLiteral("0:4242:1073741824")}});
        QCOMPARE(r.exitCode, 0);
        for (const char* expected :
             {"NVML driver 999.99.fake", "2 GPU(s)", "DDP Desk Fake GPU 0", "DDP Desk Fake GPU 1",
              "00000000:3B:00.0", "37%", "88%", "123W / 400W", "GPU 0  PID 4242  1.00 GiB"})
            QVERIFY2(r.out.contains(QLatin1String(expected)),
                     qPrintable(QStringLiteral("%1 missing in\n%2").arg(expected, r.out)));
        qInfo("%s", qPrintable(r.out));
    }

    void jsonReport() {
        Result r = runCli({QStringLiteral("--json")}, QStringLiteral(FAKE_NVML_PATH));
        QCOMPARE(r.exitCode, 0);
        QJsonParseError error;
        QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8(), &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString() + "\n" + r.out));
        QJsonObject nvml = doc.value(QStringLiteral("nvml")).toObject();
        QVERIFY(nvml.value(QStringLiteral("available")).toBool());
        QCOMPARE(nvml.value(QStringLiteral("driver")).toString(), QStringLiteral("999.99.fake"));
        QCOMPARE(nvml.value(QStringLiteral("device_count")).toInt(), 2);
        QJsonArray gpus = doc.value(QStringLiteral("gpus")).toArray();
        QCOMPARE(gpus.size(), 2);
        QCOMPARE(gpus[0].toObject().value(QStringLiteral("gpu_util_percent")).toInt(), 37);
        QVERIFY(gpus[1].toObject().value(QStringLiteral("fan_percent")).isNull());
    }

    void watchRefreshesAndReportsALostGpu() {
        Result r = runCli({QStringLiteral("--watch"), QStringLiteral("--json"), QStringLiteral("--interval"),
                           QStringLiteral("0.1"), QStringLiteral("--count"), QStringLiteral("3")},
                          QStringLiteral(FAKE_NVML_PATH),
                          {{QStringLiteral("FAKE_NVML_LOST_AFTER"), QStringLiteral("2")}});
        QCOMPARE(r.exitCode, 0);
        const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        bool lostSeen[3] = {};
        for (int i = 0; i < 3; ++i) {
            QJsonObject doc = QJsonDocument::fromJson(lines[i].toUtf8()).object();
            QCOMPARE(doc.value(QStringLiteral("gpus")).toArray().size(), 2);
            lostSeen[i] = doc.value(QStringLiteral("gpus"))
                              .toArray()[1]
                              .toObject()
                              .value(QStringLiteral("lost"))
                              .toBool();
        }
        QVERIFY(!lostSeen[0] && !lostSeen[1] && lostSeen[2]);
        QCOMPARE(r.err.count(QStringLiteral("was lost")), 1);

        Result text = runCli({QStringLiteral("--watch"), QStringLiteral("--interval"), QStringLiteral("0.1"),
                              QStringLiteral("--count"), QStringLiteral("2")},
                             QStringLiteral(FAKE_NVML_PATH));
        QCOMPARE(text.exitCode, 0);
        QCOMPARE(text.out.count(QStringLiteral("DDP Desk GPUs - NVML driver")), 2);
    }

    void badFlagsAreRejected() {
        const QString fake = QStringLiteral(FAKE_NVML_PATH);
        Result zero =
            runCli({QStringLiteral("--watch"), QStringLiteral("--interval"), QStringLiteral("0")}, fake);
        QVERIFY(zero.exitCode != 0);
        QVERIFY2(zero.err.contains(QStringLiteral("--interval")), qPrintable(zero.err));
        Result noWatch = runCli({QStringLiteral("--count"), QStringLiteral("2")}, fake);
        QVERIFY(noWatch.exitCode != 0);
        QVERIFY2(noWatch.err.contains(QStringLiteral("--watch")), qPrintable(noWatch.err));
        Result word =
            runCli({QStringLiteral("--watch"), QStringLiteral("--count"), QStringLiteral("many")}, fake);
        QVERIFY(word.exitCode != 0);
        QVERIFY2(word.err.contains(QStringLiteral("--count")), qPrintable(word.err));
    }
};

QTEST_GUILESS_MAIN(TestGpusCli)
#include "test_gpus_cli.moc"
