#include "protocol/telemetry.h"

#include <QtTest>

using namespace ddpdesk::protocol;

class TestTelemetry : public QObject {
    Q_OBJECT
private slots:
    void roundTrip() {
        auto e = makeEvent(ev::Step, 3);
        e["loss"] = 0.25;
        e["step"] = 17;
        auto parsed = parseLine(encodeLine(e) + "\r\n");
        QVERIFY(parsed.has_value());
        QCOMPARE(QString::fromStdString(parsed->type), QStringLiteral("step"));
        QCOMPARE(parsed->rank, 3);
        QCOMPARE(parsed->body["step"].get<int>(), 17);
        QVERIFY(parsed->t > 1.6e9);
    }
    void nonTelemetryIsLogText_data() {
        QTest::addColumn<QString>("line");
        QTest::newRow("empty") << "";
        QTest::newRow("plain") << "Epoch 3 : 0.45";
        QTest::newRow("truncated") << "{\"v\":1,\"event\":\"step\",\"ra";
        QTest::newRow("array") << "[1,2,3]";
        QTest::newRow("no event") << "{\"v\":1,\"rank\":0}";
        QTest::newRow("event not string") << "{\"v\":1,\"event\":5}";
        QTest::newRow("future version") << "{\"v\":2,\"event\":\"step\"}";
        QTest::newRow("binary") << QString::fromLatin1("{\xff\xfe\x01");
    }
    void nonTelemetryIsLogText() {
        QFETCH(QString, line);
        QByteArray bytes = line.toLatin1();
        QVERIFY(!parseLine(std::string_view(bytes.constData(), size_t(bytes.size()))).has_value());
    }
    void invalidUtf8IsEncodable() {
        auto e = makeEvent(ev::Log, 0);
        e["text"] = std::string("bad \xff byte");
        auto parsed = parseLine(encodeLine(e));
        QVERIFY(parsed.has_value());
    }
};

QTEST_GUILESS_MAIN(TestTelemetry)
#include "test_telemetry.moc"
