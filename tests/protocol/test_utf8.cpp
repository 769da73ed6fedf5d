#include "protocol/utf8.h"

#include <QtTest>

using ddpdesk::protocol::isValidUtf8;
using ddpdesk::protocol::validUtf8;

class TestUtf8 : public QObject {
    Q_OBJECT
private slots:
    void validTextIsUnchanged() {
        const std::string text = "rank 0 \xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x98\x80 ok";
        QVERIFY(isValidUtf8(text));
        QCOMPARE(validUtf8(text), text);
        QCOMPARE(validUtf8(std::string("a\0b", 3)), std::string("a\0b", 3));
    }
    void invalidBytesBecomeReplacementCharacters() {
        const std::string r = "\xEF\xBF\xBD";
        QCOMPARE(validUtf8("\xff"), r);
        QCOMPARE(validUtf8("a\xff"
                           "b"),
                 "a" + r + "b");
        QCOMPARE(validUtf8("\xC0\xAF"), r + r);                 // overlong '/'
        QCOMPARE(validUtf8("\xED\xA0\x80"), r + r + r);         // a surrogate
        QCOMPARE(validUtf8("\xF4\x90\x80\x80"), r + r + r + r); // above U+10FFFF
        QCOMPARE(validUtf8("\xE6\x97"), r);                     // truncated: one maximal subpart
        QCOMPARE(validUtf8("\xE6\x97x"), r + "x");
        QVERIFY(!isValidUtf8("\xff"));
        QVERIFY(isValidUtf8(validUtf8("\x80\xC2\xE0\xA0\xF0\x90\x80")));
    }
};

QTEST_APPLESS_MAIN(TestUtf8)
#include "test_utf8.moc"
