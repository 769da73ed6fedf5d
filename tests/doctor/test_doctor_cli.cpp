// `ddpdesk-cli doctor` end to end: JSON shape, exit codes, bad flags, and an unwritable store folder made for
// real (read-only permissions, or a read-only bind mount when running as root, where permissions do not stop
// writes); and that the findings' English is their table templates filled in (core/doctor/finding_texts.cpp).

#include "doctor_test_support.h"

#include "doctor/finding_texts.h"
#include "net/net_socket.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace ddpdesk::doctor;
using namespace ddpdesk::doctor::test;
namespace net = ddpdesk::net;

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

Run doctor(const QStringList& args) {
    return runCli(QStringLiteral(DDPDESK_DOCTOR_CLI), QStringList{"doctor"} + args);
}

QJsonArray findingsOf(const Run& r) {
    return QJsonDocument::fromJson(r.out).object().value("findings").toArray();
}

bool hasCode(const QJsonArray& findings, const QString& code) {
    for (const auto& f : findings)
        if (f.toObject().value("code").toString() == code) return true;
    return false;
}

} // namespace

class TestDoctorCli : public QObject {
    Q_OBJECT

private slots:
    void jsonShapeAndExitZero();
    void badFlagsAreRejected();
    void unwritableFolder();
    void deadlineFlag();
    void deadlineStopsATricklingPeer();
    void slowResolverIsBounded();
    void invalidUtf8InAFileStore();
    void invalidUtf8InATcpStore();
    void wordingComesFromTheTable();
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
        // Running as root: make the folder read-only for real with a read-only bind mount in a private
        // namespace.
        const QString cmd = "mount --bind -o ro '" + dir + "' '" + dir + "' && exec '" +
                            QStringLiteral(DDPDESK_DOCTOR_CLI) + "' doctor --store '" + store + "' --json";
        r = runCli("unshare", {"-m", "sh", "-c", cmd});
    }
    QFile::setPermissions(dir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(hasCode(findingsOf(r), "FILESTORE_NOT_WRITABLE"), r.out + r.err);
}

namespace {

// `ddpdesk-cli doctor --json` must keep its contract on any store content: exit 0/1, and a JSON report.
void verifyJsonReport(const Run& r) {
    QVERIFY2(r.exitCode == 0 || r.exitCode == 1,
             qPrintable("exit " + QString::number(r.exitCode) + ": " + r.err));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString() + "\n" + r.out));
    QVERIFY2(!doc.object().value("findings").toArray().isEmpty(), r.out);
}

} // namespace

void TestDoctorCli::deadlineFlag() {
    for (const char* bad : {"0", "-1", "soon"}) {
        Run r = doctor({"--store", "file:x", "--deadline", bad});
        QVERIFY(r.exitCode != 0 &&
                r.exitCode != 1); // the driver gives CLI11's code; ddpdesk-cli maps it to 2
        QVERIFY2(r.err.contains("--deadline"), r.err);
    }
}

void TestDoctorCli::deadlineStopsATricklingPeer() {
    Fault trickle; // one byte every 1.5 s on every connection: each read alone would be in time
    QVERIFY2(trickle.startHelper({"trickle"}), qPrintable(trickle.error()));
    QElapsedTimer t;
    t.start();
    Run r = doctor({"--store", "tcp://127.0.0.1:" + QString::number(trickle.port()), "--node-rank", "1",
                    "--deadline", "3", "--json"});
    const qint64 ms = t.elapsed();
    // 3 s plus the process start; before the fix the same run took minutes.
    QVERIFY2(ms < 6000, qPrintable(QString::number(ms) + " ms"));
    verifyJsonReport(r);
    QVERIFY2(hasCode(findingsOf(r), "DEADLINE_REACHED"), r.out);
}

void TestDoctorCli::slowResolverIsBounded() {
    // A real slow resolver: a DNS server that never answers, given to the doctor through a private
    // /etc/resolv.conf (a bind mount in its own mount namespace, so only root can set it up).
    if (QProcess::execute("unshare", {"-m", "true"}) != 0)
        QSKIP("needs root for a private /etc/resolv.conf (unshare -m)");
    // resolv.conf takes no port, so the server needs 53: an address of its own in 127/8 keeps parallel runs
    // of this test (doctor.cli beside torch2.doctor.cli) apart.
    const QString address = QStringLiteral("127.0.%1.9").arg(QCoreApplication::applicationPid() % 250 + 1);
    const QString blackHole = QStringLiteral("import socket, sys\n"
                                             "s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
                                             "s.bind(('%1', 53))\n"
                                             "print('ready', flush=True)\n"
                                             "while True: s.recvfrom(4096)\n")
                                  .arg(address);
    Fault dns;
    QVERIFY2(dns.start(python(), {"-c", blackHole}), qPrintable(dns.error()));
    QTemporaryDir tmp;
    QFile conf(tmp.filePath("resolv.conf"));
    QVERIFY(conf.open(QIODevice::WriteOnly));
    conf.write(
        ("nameserver " + address + "\noptions timeout:30 attempts:2\n").toUtf8()); // a minute per lookup
    conf.close();
    const QString host = "ddpdesk-slow-resolver.example";
    const QString mount = "mount --bind '" + conf.fileName() + "' /etc/resolv.conf && exec ";
    // The resolver really is slow: getent, unbounded, is still waiting after 4 s.
    QProcess getent;
    getent.start("unshare", {"-m", "sh", "-c", mount + "getent hosts " + host});
    QVERIFY(getent.waitForStarted(10000));
    QVERIFY2(!getent.waitForFinished(4000), getent.readAllStandardOutput() + getent.readAllStandardError());
    getent.kill();
    getent.waitForFinished(5000);

    QElapsedTimer t;
    t.start();
    Run r = runCli("unshare", {"-m", "sh", "-c",
                               mount + "'" + QStringLiteral(DDPDESK_DOCTOR_CLI) + "' doctor --store tcp://" +
                                   host + ":29500 --node-rank 1 --timeout 1 --deadline 3 --json"});
    const qint64 ms = t.elapsed();
    QVERIFY2(ms < 6000, qPrintable(QString::number(ms) + " ms"));
    QCOMPARE(r.exitCode, 1);
    const QJsonArray findings = findingsOf(r);
    QVERIFY2(hasCode(findings, "HOST_UNRESOLVED"), r.out + r.err);
    QVERIFY2(r.out.contains("no answer from name resolution within 1000 ms"), r.out);
}

void TestDoctorCli::invalidUtf8InAFileStore() {
    // A FileStore log (uint32 length + key, uint32 length + value per record) with bytes that are not UTF-8.
    QTemporaryDir tmp;
    const QString path = tmp.filePath("store");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    auto record = [&](const QByteArray& key, const QByteArray& value) {
        for (const QByteArray& s : {key, value}) {
            const quint32 n = quint32(s.size());
            const char le[4] = {char(n & 0xff), char((n >> 8) & 0xff), char((n >> 16) & 0xff), char(n >> 24)};
            f.write(le, 4);
            f.write(s);
        }
    };
    record("/ddpdesk/arrived/0", "\xff");
    record("/default_pg/0/0/rank_1", "host\xfe\xff");
    record("/odd\xff"
           "key",
           "x");
    f.close();
    Run r = doctor({"--store", "file:" + path, "--world-size", "3", "--json"});
    verifyJsonReport(r);
    QVERIFY2(r.out.contains("\xEF\xBF\xBD"), r.out); // U+FFFD in place of the bytes
}

void TestDoctorCli::invalidUtf8InATcpStore() {
    const QString script = QStringLiteral(
        "import datetime, time, torch.distributed as d\n"
        // PyTorch 2.4+ asks for libuv by default; builds without it (Debian's 2.6, Windows) refuse a server
        // that does.
        "kw = {'use_libuv': False} if 'use_libuv' in (d.TCPStore.__init__.__doc__ or '') else {}\n"
        "s = d.TCPStore('127.0.0.1', 0, 1, True, datetime.timedelta(seconds=60), wait_for_workers=False, "
        "**kw)\n"
        "s.set('ddpdesk/arrived/0', b'\\xff')\n"
        "print('ready', s.port, flush=True)\n"
        "time.sleep(3600)\n");
    Fault store;
    QVERIFY2(store.start(python(), {"-c", script}), qPrintable(store.error()));
    Run r = doctor({"--store", "tcp://127.0.0.1:" + QString::number(store.port()), "--node-rank", "1",
                    "--world-size", "2", "--json"});
    verifyJsonReport(r);
    QVERIFY2(hasCode(findingsOf(r), "RANKS_MISSING"), r.out);
    QVERIFY2(r.out.contains("\xEF\xBF\xBD"), r.out);
    Run text = doctor({"--store", "tcp://127.0.0.1:" + QString::number(store.port()), "--node-rank", "1",
                       "--world-size", "2"});
    QCOMPARE(text.exitCode, 0); // a joining node's pre-flight: missing ranks are a warning
    QVERIFY2(text.out.contains("RANKS_MISSING") && text.out.contains("\xEF\xBF\xBD"), text.out);
}

// The English is written once (core/doctor/finding_texts.cpp): every finding's message and fix, and a fix's
// outcome, are its key's templates filled with the args the GUI translates with.
void TestDoctorCli::wordingComesFromTheTable() {
    QCOMPARE(fill("%1 of %2 ranks", {"%2", "3"}),
             std::string("%2 of 3 ranks")); // one pass: values stay verbatim
    QCOMPARE(fill("rank %1, %3 and 5%", {"0"}), std::string("rank 0, %3 and 5%"));
    QVERIFY(!findingText("NO_SUCH_CODE"));
    QVERIFY(fixResultText("NOT_STALE/waiting") && !fixResultText("NOT_STALE"));

    QTemporaryDir tmp;
    std::vector<DoctorRequest> requests(3);
    requests[0].store = "file:" + tmp.filePath("no-folder/store").toStdString();
    requests[0].worldSize = -3;
    requests[0].nodeRank = -1;
    requests[1].store = "file:" + tmp.path().toStdString(); // a folder
    requests[1].worldSize = 2;
    requests[1].rank = 7;
    requests[2].store = "tcp://127.0.0.1:" + std::to_string(net::pickFreePort());
    requests[2].nodeRank = 1;
    int checked = 0;
    for (const DoctorRequest& request : requests) {
        for (const Finding& f : diagnose(request)) {
            const FindingText* text = findingText(findingTextKey(f.code, f.variant));
            QVERIFY2(text, f.code.c_str());
            QCOMPARE(f.message, fill(text->message, f.args));
            QCOMPARE(f.fix, text->fix ? fill(text->fix, f.args) : std::string());
            ++checked;
        }
    }
    QVERIFY2(checked >= 7, qPrintable(QString::number(checked)));
    const FixResult r = renameStaleStore(tmp.filePath("absent").toStdString());
    QCOMPARE(r.code, std::string("NOT_A_FILE"));
    QCOMPARE(r.message, fill(fixResultText(r.code)->message, r.args));
}

QTEST_GUILESS_MAIN(TestDoctorCli)
#include "test_doctor_cli.moc"
