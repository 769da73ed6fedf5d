// The rank proof's building blocks: SHA-256 against FIPS 180 examples, HMAC-SHA256 against every RFC 4231
// test case, the secret's hex form, the secret file's permission check (real files, real modes, a folder, a
// symlink) and the record: what verifies, and each way a record from outside the run fails.
#include "protocol/auth_platform.h"
#include "protocol/run_auth.h"
#include "protocol/sha256.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace ddpdesk::protocol;

namespace {

std::string bytes(const char* hex) {
    std::string out;
    if (!fromHex(hex, &out)) qFatal("bad hex in the test");
    return out;
}

void writeFile(const QString& path, const QByteArray& content, QFile::Permissions perms) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(content);
    f.close();
    QVERIFY(f.setPermissions(perms));
}

} // namespace

class TestRunAuth : public QObject {
    Q_OBJECT
private slots:
    void sha256Fips180() {
        QCOMPARE(toHex(sha256("abc")),
                 std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        QCOMPARE(toHex(sha256("")),
                 std::string("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
        QCOMPARE(toHex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
                 std::string("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
        QCOMPARE(toHex(sha256(std::string(1000000, 'a'))),
                 std::string("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
        // Padding edges: 55 bytes fit one final block, 56 need two, 64 is a whole block.
        QCOMPARE(toHex(sha256(std::string(55, 'a'))),
                 std::string("9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"));
        QCOMPARE(toHex(sha256(std::string(56, 'a'))),
                 std::string("b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"));
        QCOMPARE(toHex(sha256(std::string(64, 'a'))),
                 std::string("ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"));
    }

    void hmacRfc4231() {
        const std::string aa131(131, '\xaa');
        struct Case {
            std::string key, data;
            const char* mac;
        } cases[] = {
            {std::string(20, '\x0b'), "Hi There",
             "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
            {"Jefe", "what do ya want for nothing?",
             "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
            {std::string(20, '\xaa'), std::string(50, '\xdd'),
             "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"},
            {bytes("0102030405060708090a0b0c0d0e0f10111213141516171819"), std::string(50, '\xcd'),
             "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"},
            {aa131, "Test Using Larger Than Block-Size Key - Hash Key First",
             "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
            {aa131,
             "This is a test using a larger than block-size key and a larger than block-size data. The key "
             "needs to "
             "be hashed before being used by the HMAC algorithm.",
             "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"},
        };
        for (const Case& c : cases)
            QCOMPARE(toHex(hmacSha256(c.key, c.data)), std::string(c.mac));
        // Test case 5 is specified truncated to 128 bits.
        QCOMPARE(toHex(hmacSha256(std::string(20, '\x0c'), "Test With Truncation")).substr(0, 32),
                 std::string("a3b6167473100ee06e0c796c2955552b"));
    }

    void secretHex() {
        const std::string a = newRunSecretHex(), b = newRunSecretHex();
        QCOMPARE(a.size(), 2 * kRunSecretBytes);
        QVERIFY(a != b);
        std::string secret, error;
        QVERIFY(decodeRunSecret("  " + a + "\n", &secret, &error));
        QCOMPARE(secret.size(), kRunSecretBytes);
        QCOMPARE(toHex(secret), a);
        QVERIFY(!decodeRunSecret(a.substr(2), &secret, &error));
        QVERIFY2(error.find("64 hexadecimal") != std::string::npos, error.c_str());
        QVERIFY(!decodeRunSecret("zz" + a.substr(2), &secret, &error));
        QVERIFY(!decodeRunSecret("", &secret, &error));
    }

    void secretFilePermissions() {
#ifdef Q_OS_WIN
        QSKIP("POSIX mode bits only");
#endif
        QTemporaryDir dir;
        const QString hex = QString::fromStdString(newRunSecretHex());
        const QString path = dir.filePath("secret");
        std::string secret, error;

        writeFile(path, hex.toUtf8() + "\n", QFile::ReadOwner | QFile::WriteOwner);
        QVERIFY2(readRunSecretFile(path.toStdString(), &secret, &error), error.c_str());
        QCOMPARE(toHex(secret), hex.toStdString());

        writeFile(path, hex.toUtf8(),
                  QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
        QVERIFY(!readRunSecretFile(path.toStdString(), &secret, &error));
        QVERIFY2(error.find("group or others") != std::string::npos &&
                     error.find("0644") != std::string::npos &&
                     error.find(path.toStdString()) != std::string::npos,
                 error.c_str());

        writeFile(path, hex.toUtf8(), QFile::ReadOwner | QFile::ReadGroup);
        QVERIFY(!readRunSecretFile(path.toStdString(), &secret, &error));

        // A private symlink name does not make a readable target private.
        writeFile(path, hex.toUtf8(), QFile::ReadOwner | QFile::WriteOwner | QFile::ReadOther);
        QVERIFY(QFile::link(path, dir.filePath("link")));
        QVERIFY(!readRunSecretFile(dir.filePath("link").toStdString(), &secret, &error));

        QVERIFY(!readRunSecretFile(dir.path().toStdString(), &secret, &error));
        QVERIFY2(error.find("not a regular file") != std::string::npos, error.c_str());
        QVERIFY(!readRunSecretFile(dir.filePath("missing").toStdString(), &secret, &error));

        writeFile(path, "not a secret", QFile::ReadOwner | QFile::WriteOwner);
        QVERIFY(!readRunSecretFile(path.toStdString(), &secret, &error));
        QVERIFY2(error.find(path.toStdString()) != std::string::npos, error.c_str());
    }

    void recordVerifiesOnlyWithTheSecret() {
        std::string secret, other;
        QVERIFY(decodeRunSecret(newRunSecretHex(), &secret, nullptr));
        QVERIFY(decodeRunSecret(newRunSecretHex(), &other, nullptr));
        const std::string ctx = authContext(2);
        const std::string record = makeAuthRecord(secret, 1, "node-b", 4242, ctx);
        QVERIFY(record.find(toHex(secret)) == std::string::npos);          // never the secret itself
        QVERIFY(makeAuthRecord(secret, 1, "node-b", 4242, ctx) != record); // a fresh nonce each time

        AuthCheck ok = verifyAuthRecord(record, 1, secret, ctx);
        QVERIFY2(ok.ok, ok.why.c_str());
        QCOMPARE(ok.host, std::string("node-b"));
        QCOMPARE(ok.pid, std::int64_t(4242));

        AuthCheck wrongSecret = verifyAuthRecord(record, 1, other, ctx);
        QVERIFY(!wrongSecret.ok);
        QCOMPARE(wrongSecret.host, std::string("node-b"));
        QCOMPARE(wrongSecret.pid, std::int64_t(4242));
        QVERIFY(!verifyAuthRecord(record, 0, secret, ctx).ok);            // copied under another rank's key
        QVERIFY(!verifyAuthRecord(record, 1, secret, authContext(3)).ok); // replayed into another job shape
        nlohmann::json tampered = nlohmann::json::parse(record);
        tampered["pid"] = 4243;
        QVERIFY(!verifyAuthRecord(tampered.dump(), 1, secret, ctx).ok);
        tampered = nlohmann::json::parse(record);
        tampered["host"] = "node-c";
        QVERIFY(!verifyAuthRecord(tampered.dump(), 1, secret, ctx).ok);
        QVERIFY(!verifyAuthRecord("\xff{not json", 1, secret, ctx).ok);
        QVERIFY(!verifyAuthRecord(R"({"rank":1,"host":"x","pid":1})", 1, secret, ctx).ok);
        QCOMPARE(authKey(3), std::string("ddpdesk/auth/3"));
    }

    void loopbackName() {
#ifdef Q_OS_LINUX
        QCOMPARE(loopbackInterfaceName(), std::string("lo"));
#endif
    }
};

QTEST_GUILESS_MAIN(TestRunAuth)
#include "test_run_auth.moc"
