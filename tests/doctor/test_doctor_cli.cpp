// `ddpdesk-cli doctor` end to end: JSON shape, exit codes, bad flags, and an unwritable store folder made for real
// (read-only permissions, or a read-only bind mount when running as root, where permissions do not stop writes).

#include "doctor_test_support.h"

#include "doctor/net_socket.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace ddpdesk::doctor;
using namespace ddpdesk::doctor::test;

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out, err;
};

Run runCli(const QString& program, const QStringList& args) {
    QProcess p;
    p.start(program, args);
    Run r;
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        r.err = "timed out after 60 s";
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

Run doctor(const QStringList& args) { return runCli(QStringLiteral(DDPDESK_DOCTOR_CLI), QStringList{"doctor"} + args); }

QJsonArray findingsOf(const Run& r) { return QJsonDocument::fromJson(r.out).object().value("findings").toArray(); }

bool hasCode(const QJsonArray& findings, const QString& code) {
    for (const auto& f : findings)
        if (f.toObject().value("code").toString() == code)
            return true;
    return false;
}

} // namespace

class TestDoctorCli : public QObject {
    Q_OBJECT

private slots:
    void jsonShapeAndExitZero();
    void badFlagsAreRejected();
    void unwritableFolder();
};

void TestDoctorCli::jsonShapeAndExitZero() {
    const int port = net::pickFreePort();
    Run r = doctor({"--store", "tcp://127.0.0.1:" + QString::number(port), "--node-rank", "0", "--json"});
    QCOMPARE(r.exitCode, 0);
    const QJsonArray findings = findingsOf(r);
    QVERIFY2(!findings.isEmpty(), r.out);
    for (const auto& v : findings) {
        const QJsonObject f = v.toObject();
        for (const char* field : {"code", "severity", "message", "evidence", "fix"})
            QVERIFY2(f.contains(field), qPrintable(QString("missing field ") + field));
        QVERIFY(QStringList({"error", "warning", "info"}).contains(f.value("severity").toString()));
        QVERIFY(f.value("evidence").isObject());
    }
    QVERIFY(hasCode(findings, "PORT_FREE"));

    Run text = doctor({"--store", "tcp://127.0.0.1:" + QString::number(port), "--node-rank", "1"});
    QCOMPARE(text.exitCode, 1);
    QVERIFY2(text.out.contains("MASTER_REFUSED"), text.out);
}

void TestDoctorCli::badFlagsAreRejected() {
    Run noStore = doctor({"--json"});
    QVERIFY(noStore.exitCode != 0 && noStore.exitCode != 1);
    QVERIFY2(noStore.err.contains("--store"), noStore.err);
    Run negative = doctor({"--store", "file:x", "--world-size", "-2"});
    QVERIFY(negative.exitCode != 0 && negative.exitCode != 1);
    QVERIFY2(negative.err.contains("--world-size"), negative.err);
    Run badStore = doctor({"--store", "nfs:/x", "--json"});
    QCOMPARE(badStore.exitCode, 1);
    QVERIFY(hasCode(findingsOf(badStore), "STORE_INVALID"));
}

void TestDoctorCli::unwritableFolder() {
    QTemporaryDir tmp;
    const QString dir = tmp.filePath("ro");
    QVERIFY(QDir().mkpath(dir));
    const QString store = "file:" + dir + "/store";
    QFile::setPermissions(dir, QFile::ReadOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup);
    QFile probe(dir + "/probe");
    const bool permissionsBite = !probe.open(QIODevice::WriteOnly);
    probe.close();
    QFile::remove(dir + "/probe");

    Run r;
    if (permissionsBite) {
        r = doctor({"--store", store, "--json"});
    } else {
        // Running as root: make the folder read-only for real with a read-only bind mount in a private namespace.
        const QString cmd = "mount --bind -o ro '" + dir + "' '" + dir + "' && exec '" +
                            QStringLiteral(DDPDESK_DOCTOR_CLI) + "' doctor --store '" + store + "' --json";
        r = runCli("unshare", {"-m", "sh", "-c", cmd});
    }
    QFile::setPermissions(dir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(hasCode(findingsOf(r), "FILESTORE_NOT_WRITABLE"), r.out + r.err);
}

QTEST_GUILESS_MAIN(TestDoctorCli)
#include "test_doctor_cli.moc"
