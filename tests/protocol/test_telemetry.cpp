#include "protocol/telemetry.h"
#include "protocol/utf8.h"

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
    void checkLineLimits() {
        const std::string nest64 = "{\"v\":1,\"event\":\"step\",\"x\":" + std::string(63, '[') + std::string(63, ']') + "}";
        QVERIFY(checkLine(nest64) == LineCheck::Ok);
        QVERIFY(parseLine(nest64).has_value());
        const std::string nest65 = "{\"v\":1,\"event\":\"step\",\"x\":" + std::string(64, '[') + std::string(64, ']') + "}";
        QVERIFY(checkLine(nest65) == LineCheck::TooDeep);
        QVERIFY(!parseLine(nest65).has_value());
        // Brackets inside strings (also after an escaped quote) are text, not nesting.
        const std::string inString =
            "{\"v\":1,\"event\":\"log\",\"text\":\"\\\"" + std::string(1000, '[') + "\"}";
        QVERIFY(checkLine(inString) == LineCheck::Ok);
        QVERIFY(parseLine(inString).has_value());
        // 100,000 deep: refused before the parser sees it (no stack to overflow).
        const std::string deep = "{\"v\":1,\"event\":\"step\",\"x\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
        QVERIFY(checkLine(deep) == LineCheck::TooDeep);
        QVERIFY(!parseLine(deep).has_value());
        // Longer than kMaxLineBytes: refused, one byte less is fine.
        auto e = makeEvent(ev::Log, 0);
        e["text"] = "";
        const size_t envelope = encodeLine(e).size();
        e["text"] = std::string(kMaxLineBytes - envelope, 'a');
        QCOMPARE(encodeLine(e).size(), kMaxLineBytes);
        QVERIFY(parseLine(encodeLine(e)).has_value());
        e["text"] = std::string(kMaxLineBytes - envelope + 1, 'a');
        QVERIFY(checkLine(encodeLine(e)) == LineCheck::TooLong);
        QVERIFY(!parseLine(encodeLine(e)).has_value());
    }
    void invalidUtf8HostIsReplaced() {
        // What a worker sends: a hello whose host name came from a non-UTF-8 source (a Latin-1 "h\xe9te", a lone
        // continuation byte). The line must be strict JSON that any reader accepts.
        auto e = makeEvent(ev::Hello, 0);
        e["host"] = std::string("h\xe9te-\x80");
        const std::string line = encodeLine(e);
        nlohmann::json strict;
        try {
            strict = nlohmann::json::parse(line); // throws on invalid UTF-8
        } catch (const std::exception& x) {
            QFAIL(x.what());
        }
        QCOMPARE(QString::fromStdString(strict["host"].get<std::string>()), QStringLiteral("h\uFFFDte-\uFFFD"));
        QCOMPARE(QString::fromStdString(strict["host"].get<std::string>()),
                 QString::fromStdString(validUtf8(std::string("h\xe9te-\x80"))));
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
