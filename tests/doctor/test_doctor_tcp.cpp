// TCPStore faults created for real: a bad port, an unresolvable host, a port held by another process, nothing
// listening, a listener that drops connections (full accept queue), listeners that are not stores, and a real
// python3-torch TCPStore that the doctor must read without changing.

#include "doctor_test_support.h"

#include "net/net_socket.h"

#include <QtTest>

using namespace ddpdesk::doctor;
using namespace ddpdesk::doctor::test;
namespace net = ddpdesk::net;

namespace {

DoctorRequest tcp(int port, int nodeRank, double timeoutSec = 1.0) {
    DoctorRequest r;
    r.store = "tcp://127.0.0.1:" + std::to_string(port);
    r.nodeRank = nodeRank;
    r.probeTimeoutSec = timeoutSec;
    return r;
}

} // namespace

class TestDoctorTcp : public QObject {
    Q_OBJECT

private slots:
    void portInvalid_data();
    void portInvalid();
    void hostUnresolved();
    void hostnameLoopbackMatchesResolver();
    void portBoundByAnotherProcess();
    void nothingListens();
    void droppedConnections();
    void listenerThatIsNotAStore();
    void silentListenerIsNotAStore();
    void liveTorchStoreIsReadNotChanged();
    void tricklingPeerEndsAtTheDeadline();
    void oversizedValueIsNotRead();
    void storeOnEveryInterfaceIsExposed();
    void invalidUtf8ValueIsReported();
    void silentLibuvServerCostsNoTimeout();
};

void TestDoctorTcp::portInvalid_data() {
    QTest::addColumn<QString>("store");
    QTest::newRow("too big") << "tcp://127.0.0.1:70000";
    QTest::newRow("not a number") << "tcp://127.0.0.1:http";
    QTest::newRow("missing") << "tcp://127.0.0.1";
    QTest::newRow("zero") << "tcp://127.0.0.1:0";
}

void TestDoctorTcp::portInvalid() {
    QFETCH(QString, store);
    DoctorRequest r;
    r.store = store.toStdString();
    auto findings = diagnose(r);
    const Finding* f = find(findings, "PORT_INVALID");
    QVERIFY2(f, dump(findings));
    QCOMPARE(f->severity, Severity::Error);
    QVERIFY(f->evidence["suggested_port"].get<int>() > 0);
}

void TestDoctorTcp::hostUnresolved() {
    DoctorRequest r;
    r.store = "tcp://no-such-host.invalid:29500"; // .invalid never resolves (RFC 2606)
    auto findings = diagnose(r);
    QVERIFY2(find(findings, "HOST_UNRESOLVED"), dump(findings));
    QVERIFY(hasError(findings));
}

void TestDoctorTcp::hostnameLoopbackMatchesResolver() {
    // Ask python's resolver independently whether this machine's name maps only to loopback.
    QProcess p;
    p.start(python(), {"-c", "import socket; a = socket.getaddrinfo(socket.gethostname(), None); "
                             "print(all(x[4][0].startswith('127.') or x[4][0] == '::1' for x in a))"});
    QVERIFY(p.waitForFinished(30000));
    const bool loopback = p.readAllStandardOutput().trimmed() == "True";
    auto findings = diagnose(tcp(net::pickFreePort(), 0));
    QCOMPARE(find(findings, "HOSTNAME_LOOPBACK") != nullptr, loopback);
    if (loopback)
        QVERIFY(find(findings, "HOSTNAME_LOOPBACK")->fix.find("GLOO_SOCKET_IFNAME") != std::string::npos);
}

void TestDoctorTcp::portBoundByAnotherProcess() {
    // A listener that never answers: the usual shape of "another job sits on 29500".
    Fault holder;
    QVERIFY2(holder.startHelper({"silent"}), qPrintable(holder.error()));
    auto findings = diagnose(tcp(holder.port(), 0, 0.3));
    const Finding* f = find(findings, "PORT_IN_USE");
    QVERIFY2(f, dump(findings));
    QVERIFY2(f->evidence.contains("pid"), f->evidence.dump().c_str());
    QCOMPARE(f->evidence["pid"].get<qint64>(), holder.pid());
    QVERIFY(f->evidence["process"].get<std::string>().rfind("python", 0) == 0);
    const int suggested = f->evidence["suggested_port"].get<int>();
    QVERIFY(suggested > 0 && suggested != holder.port());
    QCOMPARE(net::tryBind(suggested).status, net::BindStatus::Free);

    // Bound but not listening: Linux lists such sockets nowhere, so only the bind attempt can tell.
    Fault bound;
    QVERIFY2(bound.startHelper({"bind"}), qPrintable(bound.error()));
    findings = diagnose(tcp(bound.port(), 0, 0.3));
    QVERIFY2(find(findings, "PORT_IN_USE"), dump(findings));
}

void TestDoctorTcp::nothingListens() {
    const int port = net::pickFreePort();
    QVERIFY(port > 0);
    auto asClient = diagnose(tcp(port, 1));
    const Finding* f = find(asClient, "MASTER_REFUSED");
    QVERIFY2(f, dump(asClient));
    QCOMPARE(f->severity, Severity::Error);

    auto asHost = diagnose(tcp(port, 0)); // node 0 will host the store there: that is fine
    QVERIFY2(find(asHost, "PORT_FREE"), dump(asHost));
    QVERIFY(!find(asHost, "MASTER_REFUSED"));
}

void TestDoctorTcp::droppedConnections() {
    Fault full;
    QVERIFY2(full.startHelper({"backlog"}), qPrintable(full.error()));
    QElapsedTimer t;
    t.start();
    auto findings = diagnose(tcp(full.port(), 1, 0.5));
    const Finding* f = find(findings, "MASTER_TIMEOUT");
    QVERIFY2(f, dump(findings));
    QVERIFY(f->message.find("Gloo") != std::string::npos && f->message.find("ports") != std::string::npos);
    QCOMPARE(f->evidence["timeout_ms"].get<int>(), 500);
}

void TestDoctorTcp::listenerThatIsNotAStore() {
    Fault http;
    QVERIFY2(http.startHelper({"garbage"}), qPrintable(http.error()));
    auto asClient = diagnose(tcp(http.port(), 1));
    const Finding* f = find(asClient, "NOT_A_STORE");
    QVERIFY2(f, dump(asClient));
    QVERIFY2(f->evidence["answer"].get<std::string>().find("HTTP") != std::string::npos,
             f->evidence.dump().c_str());

    auto asHost = diagnose(tcp(http.port(), 0));
    const Finding* held = find(asHost, "PORT_IN_USE");
    QVERIFY2(held && held->evidence.contains("pid"), dump(asHost));
    QCOMPARE(held->evidence["pid"].get<qint64>(), http.pid());
}

void TestDoctorTcp::silentListenerIsNotAStore() {
    Fault silent;
    QVERIFY2(silent.startHelper({"silent"}), qPrintable(silent.error()));
    auto findings = diagnose(tcp(silent.port(), 1, 0.3));
    QVERIFY2(find(findings, "NOT_A_STORE"), dump(findings));
}

void TestDoctorTcp::liveTorchStoreIsReadNotChanged() {
    const QString script = QStringLiteral(
        "import datetime, time, torch.distributed as d\n"
        // PyTorch 2.4+ asks for libuv by default; builds without it (Debian's 2.6, Windows) refuse a server
        // that does.
        "kw = {'use_libuv': False} if 'use_libuv' in (d.TCPStore.__init__.__doc__ or '') else {}\n"
        "s = d.TCPStore('127.0.0.1', 0, 1, True, datetime.timedelta(seconds=60), wait_for_workers=False, "
        "**kw)\n"
        "s.set('ddpdesk/arrived/0', '{\"host\": \"elsewhere\", \"pid\": 1}')\n"
        "print('ready', s.port, flush=True)\n"
        "time.sleep(3600)\n");
    Fault store;
    QVERIFY2(store.start(python(), {"-c", script}), qPrintable(store.error()));

    DoctorRequest r = tcp(store.port(), 1);
    r.worldSize = 2;
    auto findings = diagnose(r);
    const Finding* ok = find(findings, "STORE_REACHABLE");
    QVERIFY2(ok, dump(findings));
    // PyTorch 2.x's server answers the VALIDATE handshake of its protocol; 1.13's the original one.
    QCOMPARE(ok->evidence["dialect"].get<std::string>(), std::string(pythonTorchMajor() >= 2 ? "v2" : "v1"));
    const auto keysBefore = ok->evidence["keys"].get<long long>();
    const Finding* missing = find(findings, "RANKS_MISSING");
    QVERIFY2(missing, dump(findings));
    QCOMPARE(missing->severity,
             Severity::Warning); // a joining node's pre-flight: the job may still be forming
    QCOMPARE(missing->evidence["missing"], nlohmann::json::array({1}));

    findings = diagnose(r);
    QCOMPARE(find(findings, "STORE_REACHABLE")->evidence["keys"].get<long long>(), keysBefore);

    auto asHost = diagnose(tcp(store.port(), 0));
    const Finding* held = find(asHost, "PORT_IN_USE");
    QVERIFY2(held && held->message.find("TCPStore") != std::string::npos, dump(asHost));
}

void TestDoctorTcp::tricklingPeerEndsAtTheDeadline() {
    // One byte every 1.5 s keeps every single read within a 2 s timeout: only the absolute deadline stops it.
    Fault trickle;
    QVERIFY2(trickle.startHelper({"trickle"}), qPrintable(trickle.error()));
    DoctorRequest r = tcp(trickle.port(), 1, 2.0);
    r.deadlineSec = 3;
    QElapsedTimer t;
    t.start();
    auto findings = diagnose(r);
    const qint64 ms = t.elapsed();
    QVERIFY2(ms < 6000, qPrintable(QString::number(ms) + " ms\n" + dump(findings)));
    const Finding* f = find(findings, "DEADLINE_REACHED");
    QVERIFY2(f, dump(findings));
    QCOMPARE(f->severity, Severity::Warning);
    const std::string activity = f->evidence["activity"].get<std::string>();
    QVERIFY2(activity.find(std::to_string(trickle.port())) != std::string::npos, activity.c_str());
    QCOMPARE(f->evidence["deadline_s"].get<double>(), 3.0);
    // What the cut-short probe saw proves nothing about the peer.
    QVERIFY2(!find(findings, "NOT_A_STORE") && !find(findings, "MASTER_TIMEOUT"), dump(findings));
}

void TestDoctorTcp::oversizedValueIsNotRead() {
    Fault fake; // every key exists, every GET announces 16 MiB that never come
    QVERIFY2(fake.startHelper({"bigvalue"}), qPrintable(fake.error()));
    DoctorRequest r = tcp(fake.port(), 1, 2.0);
    r.worldSize = 2;
    QElapsedTimer t;
    t.start();
    auto findings = diagnose(r);
    const qint64 ms = t.elapsed();
    QVERIFY2(find(findings, "STORE_REACHABLE"), dump(findings));
    const Finding* f = find(findings, "STORE_VALUE_TOO_LARGE");
    QVERIFY2(f, dump(findings));
    QCOMPARE(f->evidence["bytes"].get<long long>(), 16LL << 20);
    QCOMPARE(f->evidence["key"].get<std::string>(), std::string("init/"));
    QVERIFY2(!find(findings, "DEADLINE_REACHED"), dump(findings));
    // Waiting for the announced bytes would take a 2 s timeout per key: tens of seconds.
    QVERIFY2(ms < 5000, qPrintable(QString::number(ms) + " ms"));
    // A census that could not read the values must not call the ranks missing.
    QVERIFY2(!find(findings, "RANKS_MISSING") && !find(findings, "RANKS_NONE"), dump(findings));

    // The fake listens on loopback only: not exposed.
    QVERIFY2(!find(findings, "STORE_EXPOSED"), dump(findings));
}

void TestDoctorTcp::storeOnEveryInterfaceIsExposed() {
    // PyTorch 1.13's TCPStore server listens on every interface whatever host it is given.
    const QString script = QStringLiteral(
        "import datetime, time, torch.distributed as d\n"
        // PyTorch 2.4+ asks for libuv by default; builds without it (Debian's 2.6, Windows) refuse a server
        // that does.
        "kw = {'use_libuv': False} if 'use_libuv' in (d.TCPStore.__init__.__doc__ or '') else {}\n"
        "s = d.TCPStore('0.0.0.0', 0, 1, True, datetime.timedelta(seconds=60), wait_for_workers=False, "
        "**kw)\n"
        "print('ready', s.port, flush=True)\n"
        "time.sleep(3600)\n");
    Fault store;
    QVERIFY2(store.start(python(), {"-c", script}), qPrintable(store.error()));
    // Which address it listens on, as the kernel tells anyone (ss), independently of the doctor.
    QProcess ss;
    ss.start("ss", {"-Htln", "sport = :" + QString::number(store.port())});
    QVERIFY(ss.waitForFinished(10000));
    const QString listening = QString::fromUtf8(ss.readAllStandardOutput());
    QVERIFY2(listening.contains("0.0.0.0:") || listening.contains("[::]:") || listening.contains("*:"),
             qPrintable(listening));

    DoctorRequest r = tcp(store.port(), 0);
    r.jobRunning = true;
    auto findings = diagnose(r);
    const Finding* f = find(findings, "STORE_EXPOSED");
    QVERIFY2(f, dump(findings));
    QCOMPARE(f->severity, Severity::Warning);
    QCOMPARE(f->evidence["port"].get<int>(), store.port());
    const std::string address = f->evidence["address"].get<std::string>();
    QVERIFY2(address == "0.0.0.0" || address == "::", address.c_str());
    QVERIFY2(f->message.find("listens on " + address) != std::string::npos, f->message.c_str());
    QVERIFY(f->fix.find("firewall") != std::string::npos && f->fix.find("127.0.0.1") != std::string::npos);
}

void TestDoctorTcp::invalidUtf8ValueIsReported() {
    const QString script = QStringLiteral(
        "import datetime, time, torch.distributed as d\n"
        // PyTorch 2.4+ asks for libuv by default; builds without it (Debian's 2.6, Windows) refuse a server
        // that does.
        "kw = {'use_libuv': False} if 'use_libuv' in (d.TCPStore.__init__.__doc__ or '') else {}\n"
        "s = d.TCPStore('127.0.0.1', 0, 1, True, datetime.timedelta(seconds=60), wait_for_workers=False, "
        "**kw)\n"
        "s.set('ddpdesk/arrived/0', b'\\xff')\n"
        "s.set('default_pg/0/0/rank_1', b'host\\xfe\\xff')\n"
        "print('ready', s.port, flush=True)\n"
        "time.sleep(3600)\n");
    Fault store;
    QVERIFY2(store.start(python(), {"-c", script}), qPrintable(store.error()));
    DoctorRequest r = tcp(store.port(), 1);
    r.worldSize = 3;
    auto findings = diagnose(r);
    const Finding* missing = find(findings, "RANKS_MISSING");
    QVERIFY2(missing, dump(findings));
    QCOMPARE(missing->evidence["missing"], nlohmann::json::array({2}));
    // Every finding is valid UTF-8 now: the strict dump (which throws type_error 316 otherwise) succeeds.
    std::string json;
    try {
        json = toJson(findings).dump();
    } catch (const nlohmann::json::exception& e) {
        QFAIL(e.what());
    }
    QVERIFY2(json.find("\xEF\xBF\xBD") != std::string::npos, json.c_str()); // U+FFFD where the bytes were

    // A huge world is not probed rank by rank: 64 ranks at most, and the census says so.
    r.worldSize = 100000;
    QElapsedTimer t;
    t.start();
    findings = diagnose(r);
    QVERIFY2(t.elapsed() < 5000, qPrintable(QString::number(t.elapsed()) + " ms"));
    const Finding* capped = find(findings, "RANKS_MISSING");
    QVERIFY2(capped, dump(findings));
    QVERIFY2(capped->message.find("Not all ranks probed") != std::string::npos, capped->message.c_str());
    QCOMPARE(capped->evidence["probed_ranks_up_to"].get<int>(), 63);
    QCOMPARE(capped->evidence["missing"].size(), size_t(62)); // 2..63: only ranks that were looked up
    QVERIFY2(!find(findings, "DEADLINE_REACHED"), dump(findings));
}

void TestDoctorTcp::silentLibuvServerCostsNoTimeout() {
    // The libuv backend (PyTorch 2.4+ default) never answers a 1.x query: the 2.x handshake, sent at the same
    // time, must find the store long before a 1.x probe's timeout, and the census reads 2.x's Gloo key of
    // rank 0.
    Fault store;
    QVERIFY2(store.startHelper({"libuvstore"}), qPrintable(store.error()));
    DoctorRequest r = tcp(store.port(), 1, 30.0);
    r.worldSize = 2;
    QElapsedTimer t;
    t.start();
    auto findings = diagnose(r);
    const qint64 ms = t.elapsed();
    const Finding* ok = find(findings, "STORE_REACHABLE");
    QVERIFY2(ok, dump(findings));
    QCOMPARE(ok->evidence["dialect"].get<std::string>(), std::string("v2"));
    QVERIFY2(ms < 15000, qPrintable(QString("the diagnosis waited %1 ms: a 1.x probe's timeout").arg(ms)));
    const Finding* missing = find(findings, "RANKS_MISSING");
    QVERIFY2(missing, dump(findings));
    QVERIFY2(missing->evidence["arrived"] == nlohmann::json::array({0}), dump(findings));
    QVERIFY2(missing->evidence["missing"] == nlohmann::json::array({1}), dump(findings));
}

QTEST_GUILESS_MAIN(TestDoctorTcp)
#include "test_doctor_tcp.moc"
