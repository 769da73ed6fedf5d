// The one store-string parser that the worker, the launcher and the doctor share: every spelling users paste
// (Windows drive letters, UNC shares, file:// URLs, IPv6) must mean the same path or address to all three.
#include "protocol/store_spec.h"

#include <QtTest>

using namespace ddpdesk::protocol;

class TestStoreSpec : public QObject {
    Q_OBJECT
private slots:
    void filePaths_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("path");
        QTest::newRow("posix") << "file:/tmp/run/store" << "/tmp/run/store";
        QTest::newRow("relative") << "file:runs/store" << "runs/store";
        QTest::newRow("url posix") << "file:///tmp/x" << "/tmp/x";
        QTest::newRow("drive backslash") << "file:C:\\runs\\store" << "C:\\runs\\store";
        QTest::newRow("drive slash") << "file:C:/runs/store" << "C:/runs/store";
        QTest::newRow("url drive") << "file:///C:/runs/store" << "C:/runs/store";
        QTest::newRow("url drive two slashes") << "file://C:/runs/store" << "C:/runs/store";
        QTest::newRow("unc backslash") << "file:\\\\server\\share\\store" << "\\\\server\\share\\store";
        QTest::newRow("unc url") << "file://server/share/store" << "//server/share/store";
        QTest::newRow("non-ascii") << QString::fromUtf8("file:/tmp/実験/store") << QString::fromUtf8("/tmp/実験/store");
    }
    void filePaths() {
        QFETCH(QString, spec);
        QFETCH(QString, path);
        StoreSpec s = parseStoreSpec(spec.toStdString());
        QCOMPARE(int(s.kind), int(StoreSpec::Kind::File));
        QCOMPARE(QString::fromStdString(s.path.u8string()), path);
        QVERIFY(s.error.empty());
    }

    void tcpAddresses_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("canonical");
        QTest::newRow("ipv4") << "tcp://127.0.0.1:29500" << "127.0.0.1" << 29500 << "tcp://127.0.0.1:29500";
        QTest::newRow("name") << "tcp://node0.cluster:29400" << "node0.cluster" << 29400 << "tcp://node0.cluster:29400";
        QTest::newRow("ipv6") << "tcp://[::1]:29500" << "::1" << 29500 << "tcp://[::1]:29500";
        QTest::newRow("trailing slash") << "tcp://10.0.0.4:29500/" << "10.0.0.4" << 29500 << "tcp://10.0.0.4:29500";
        QTest::newRow("no port") << "tcp://node0" << "node0" << -1 << "";
        QTest::newRow("port not a number") << "tcp://node0:http" << "node0" << -1 << "";
        QTest::newRow("port too large") << "tcp://node0:70000" << "node0" << -1 << "";
    }
    void tcpAddresses() {
        QFETCH(QString, spec);
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(QString, canonical);
        StoreSpec s = parseStoreSpec(spec.toStdString());
        QCOMPARE(int(s.kind), int(StoreSpec::Kind::Tcp));
        QCOMPARE(QString::fromStdString(s.host), host);
        QCOMPARE(s.port, port);
        if (!canonical.isEmpty())
            QCOMPARE(QString::fromStdString(tcpStoreSpec(s.host, s.port)), canonical);
    }

    void invalid_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("empty file path") << "file:" << "file:PATH";
        QTest::newRow("no host") << "tcp://:29500" << "no host";
        QTest::newRow("unclosed ipv6") << "tcp://[::1:29500" << "']'";
        QTest::newRow("other scheme") << "redis://x:6379" << "neither";
        QTest::newRow("bare path") << "/tmp/store" << "file:PATH";
    }
    void invalid() {
        QFETCH(QString, spec);
        QFETCH(QString, mentions);
        StoreSpec s = parseStoreSpec(spec.toStdString());
        QCOMPARE(int(s.kind), int(StoreSpec::Kind::Invalid));
        QVERIFY2(QString::fromStdString(s.error).contains(mentions), s.error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestStoreSpec)
#include "test_store_spec.moc"
