// The rank proof's building blocks: SHA-256 against FIPS 180 examples, HMAC-SHA256 against every RFC 4231
// test case, the secret's hex form, the secret file's permission check (real files, real modes, a folder, a
// symlink) and the record: what verifies, and each way a record from outside the run fails.
#include "protocol/run_auth.h"
#include "protocol/sha256.h"

#include "os/private_file.h"

#include "mini_test.h"
#include "temp_dir.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>

using namespace ddpdesk::protocol;
namespace fs = std::filesystem;

namespace {

std::string bytes(const char* hex) {
    std::string out;
    if (!fromHex(hex, &out)) throw std::runtime_error("bad hex in the test");
    return out;
}

void writeFile(const std::string& path, const std::string& content, fs::perms perms) {
    {
        std::ofstream f(path, std::ios::binary | std::ios::trunc);
        TEST_REQUIRE(f.is_open());
        f << content;
    }
    std::error_code ec;
    fs::permissions(path, perms, fs::perm_options::replace, ec);
    TEST_REQUIRE_MSG(!ec, ec.message());
}

} // namespace

TEST_CASE(sha256Fips180) {
    TEST_REQUIRE_EQ(toHex(sha256("abc")),
                    std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    TEST_REQUIRE_EQ(toHex(sha256("")),
                    std::string("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
    TEST_REQUIRE_EQ(toHex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
                    std::string("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
    TEST_REQUIRE_EQ(toHex(sha256(std::string(1000000, 'a'))),
                    std::string("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
    // Padding edges: 55 bytes fit one final block, 56 need two, 64 is a whole block.
    TEST_REQUIRE_EQ(toHex(sha256(std::string(55, 'a'))),
                    std::string("9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"));
    TEST_REQUIRE_EQ(toHex(sha256(std::string(56, 'a'))),
                    std::string("b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"));
    TEST_REQUIRE_EQ(toHex(sha256(std::string(64, 'a'))),
                    std::string("ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"));
}

TEST_CASE(hmacRfc4231) {
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
        TEST_REQUIRE_EQ(toHex(hmacSha256(c.key, c.data)), std::string(c.mac));
    // Test case 5 is specified truncated to 128 bits.
    TEST_REQUIRE_EQ(toHex(hmacSha256(std::string(20, '\x0c'), "Test With Truncation")).substr(0, 32),
                    std::string("a3b6167473100ee06e0c796c2955552b"));
}

TEST_CASE(secretHex) {
    const std::string a = newRunSecretHex(), b = newRunSecretHex();
    TEST_REQUIRE_EQ(a.size(), 2 * kRunSecretBytes);
    TEST_REQUIRE(a != b);
    std::string secret, error;
    TEST_REQUIRE(decodeRunSecret("  " + a + "\n", &secret, &error));
    TEST_REQUIRE_EQ(secret.size(), kRunSecretBytes);
    TEST_REQUIRE_EQ(toHex(secret), a);
    TEST_REQUIRE(!decodeRunSecret(a.substr(2), &secret, &error));
    TEST_REQUIRE_MSG(error.find("64 hexadecimal") != std::string::npos, error);
    TEST_REQUIRE(!decodeRunSecret("zz" + a.substr(2), &secret, &error));
    TEST_REQUIRE(!decodeRunSecret("", &secret, &error));
}

TEST_CASE(secretFilePermissions) {
#ifdef _WIN32
    TEST_SKIP("POSIX mode bits only");
#endif
    ddpdesk::testsupport::TempDir dir;
    const std::string hex = newRunSecretHex();
    const std::string path = dir.filePath("secret");
    std::string secret, error;
    using P = fs::perms;

    writeFile(path, hex + "\n", P::owner_read | P::owner_write);
    TEST_REQUIRE_MSG(readRunSecretFile(path, &secret, &error), error);
    TEST_REQUIRE_EQ(toHex(secret), hex);

    writeFile(path, hex, P::owner_read | P::owner_write | P::group_read | P::others_read);
    TEST_REQUIRE(!readRunSecretFile(path, &secret, &error));
    TEST_REQUIRE_MSG(error.find("group or others") != std::string::npos &&
                         error.find("0644") != std::string::npos && error.find(path) != std::string::npos,
                     error);

    writeFile(path, hex, P::owner_read | P::group_read);
    TEST_REQUIRE(!readRunSecretFile(path, &secret, &error));

    // A private symlink name does not make a readable target private.
    writeFile(path, hex, P::owner_read | P::owner_write | P::others_read);
    std::error_code ec;
    fs::create_symlink(path, dir.filePath("link"), ec);
    TEST_REQUIRE_MSG(!ec, ec.message());
    TEST_REQUIRE(!readRunSecretFile(dir.filePath("link"), &secret, &error));

    TEST_REQUIRE(!readRunSecretFile(dir.str(), &secret, &error));
    TEST_REQUIRE_MSG(error.find("not a regular file") != std::string::npos, error);
    TEST_REQUIRE(!readRunSecretFile(dir.filePath("missing"), &secret, &error));

    writeFile(path, "not a secret", P::owner_read | P::owner_write);
    TEST_REQUIRE(!readRunSecretFile(path, &secret, &error));
    TEST_REQUIRE_MSG(error.find(path) != std::string::npos, error);
}

TEST_CASE(recordVerifiesOnlyWithTheSecret) {
    std::string secret, other;
    TEST_REQUIRE(decodeRunSecret(newRunSecretHex(), &secret, nullptr));
    TEST_REQUIRE(decodeRunSecret(newRunSecretHex(), &other, nullptr));
    const std::string ctx = authContext(2);
    const std::string record = makeAuthRecord(secret, 1, "node-b", 4242, ctx);
    TEST_REQUIRE(record.find(toHex(secret)) == std::string::npos);          // never the secret itself
    TEST_REQUIRE(makeAuthRecord(secret, 1, "node-b", 4242, ctx) != record); // a fresh nonce each time

    AuthCheck ok = verifyAuthRecord(record, 1, secret, ctx);
    TEST_REQUIRE_MSG(ok.ok, ok.why);
    TEST_REQUIRE_EQ(ok.host, std::string("node-b"));
    TEST_REQUIRE_EQ(ok.pid, std::int64_t(4242));

    AuthCheck wrongSecret = verifyAuthRecord(record, 1, other, ctx);
    TEST_REQUIRE(!wrongSecret.ok);
    TEST_REQUIRE_EQ(wrongSecret.host, std::string("node-b"));
    TEST_REQUIRE_EQ(wrongSecret.pid, std::int64_t(4242));
    TEST_REQUIRE(!verifyAuthRecord(record, 0, secret, ctx).ok);            // copied under another rank's key
    TEST_REQUIRE(!verifyAuthRecord(record, 1, secret, authContext(3)).ok); // replayed into another job shape
    nlohmann::json tampered = nlohmann::json::parse(record);
    tampered["pid"] = 4243;
    TEST_REQUIRE(!verifyAuthRecord(tampered.dump(), 1, secret, ctx).ok);
    tampered = nlohmann::json::parse(record);
    tampered["host"] = "node-c";
    TEST_REQUIRE(!verifyAuthRecord(tampered.dump(), 1, secret, ctx).ok);
    TEST_REQUIRE(!verifyAuthRecord("\xff{not json", 1, secret, ctx).ok);
    TEST_REQUIRE(!verifyAuthRecord(R"({"rank":1,"host":"x","pid":1})", 1, secret, ctx).ok);
    TEST_REQUIRE_EQ(authKey(3), std::string("ddpdesk/auth/3"));
}

// What os::fileReaders answers on every OS (wine.run_auth runs this against private_file_win.cpp): a private
// file is read, a folder and a missing file are refused with the reason.
TEST_CASE(secretFileKinds) {
    ddpdesk::testsupport::TempDir dir;
    const std::string hex = newRunSecretHex();
    const std::string path = dir.filePath("secret");
    std::string secret, error;
    writeFile(path, hex + "\n", fs::perms::owner_read | fs::perms::owner_write);
    TEST_REQUIRE_MSG(readRunSecretFile(path, &secret, &error), error);
    TEST_REQUIRE_EQ(toHex(secret), hex);
    TEST_REQUIRE(!readRunSecretFile(dir.str(), &secret, &error));
    TEST_REQUIRE_MSG(error.find("not a regular file") != std::string::npos, error);
    TEST_REQUIRE(!readRunSecretFile(dir.filePath("missing"), &secret, &error));
    TEST_REQUIRE_MSG(error.find("cannot be read") != std::string::npos, error);
}

TEST_CASE(loopbackName) {
#ifdef __linux__
    TEST_REQUIRE_EQ(ddpdesk::os::loopbackInterfaceName(), std::string("lo"));
#endif
}

DDPDESK_TEST_MAIN()
