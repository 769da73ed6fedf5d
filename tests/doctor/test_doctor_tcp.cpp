// TCPStore faults created for real: a bad port, an unresolvable host, a port held by another process, nothing
// listening, a listener that drops connections (full accept queue), listeners that are not stores, and a real
// python3-torch TCPStore that the doctor must read without changing.

#include "doctor_test_support.h"

#include "doctor/net_socket.h"

#include <QtTest>

using namespace ddpdesk::doctor;
using namespace ddpdesk::doctor::test;

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
    QVERIFY2(f->evidence["answer"].get<std::string>().find("HTTP") != std::string::npos, f->evidence.dump().c_str());

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
        "s = d.TCPStore('127.0.0.1', 0, 1, True, datetime.timedelta(seconds=60), wait_for_workers=False)\n"
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
    QCOMPARE(ok->evidence["dialect"].get<std::string>(), std::string("v1"));
    const auto keysBefore = ok->evidence["keys"].get<long long>();
    const Finding* missing = find(findings, "RANKS_MISSING");
    QVERIFY2(missing, dump(findings));
    QCOMPARE(missing->severity, Severity::Warning); // a joining node's pre-flight: the job may still be forming
    QCOMPARE(missing->evidence["missing"], nlohmann::json::array({1}));

    findings = diagnose(r);
    QCOMPARE(find(findings, "STORE_REACHABLE")->evidence["keys"].get<long long>(), keysBefore);

    auto asHost = diagnose(tcp(store.port(), 0));
    const Finding* held = find(asHost, "PORT_IN_USE");
    QVERIFY2(held && held->message.find("TCPStore") != std::string::npos, dump(asHost));
}

QTEST_GUILESS_MAIN(TestDoctorTcp)
#include "test_doctor_tcp.moc"
