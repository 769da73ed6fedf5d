// The one store-string parser that the worker, the launcher and the doctor share: every spelling users paste
// (Windows drive letters, UNC shares, file:// URLs, IPv6) must mean the same path or address to all three.
#include "protocol/store_spec.h"

#include "mini_test.h"
#include "os/utf8_path.h"

using namespace ddpdesk::protocol;
using ddpdesk::testsupport::testRow;

TEST_CASE(filePaths) {
    struct Row {
        const char *name, *spec, *path;
    };
    const Row rows[] = {
        {"posix", "file:/tmp/run/store", "/tmp/run/store"},
        {"relative", "file:runs/store", "runs/store"},
        {"url posix", "file:///tmp/x", "/tmp/x"},
        {"drive backslash", "file:C:\\runs\\store", "C:\\runs\\store"},
        {"drive slash", "file:C:/runs/store", "C:/runs/store"},
        {"url drive", "file:///C:/runs/store", "C:/runs/store"},
        {"url drive two slashes", "file://C:/runs/store", "C:/runs/store"},
        {"unc backslash", "file:\\\\server\\share\\store", "\\\\server\\share\\store"},
        {"unc url", "file://server/share/store", "//server/share/store"},
        {"non-ascii", "file:/tmp/\xE5\xAE\x9F\xE9\xA8\x93/store",
         "/tmp/\xE5\xAE\x9F\xE9\xA8\x93/store"}, // 実験
    };
    for (const Row& row : rows)
        testRow(row.name, [&] {
            StoreSpec s = parseStoreSpec(row.spec);
            TEST_REQUIRE_EQ(int(s.kind), int(StoreSpec::Kind::File));
            TEST_REQUIRE_EQ(ddpdesk::os::utf8(s.path), std::string(row.path));
            TEST_REQUIRE(s.error.empty());
        });
}

TEST_CASE(tcpAddresses) {
    struct Row {
        const char *name, *spec, *host;
        int port;
        const char* canonical;
    };
    const Row rows[] = {
        {"ipv4", "tcp://127.0.0.1:29500", "127.0.0.1", 29500, "tcp://127.0.0.1:29500"},
        {"name", "tcp://node0.cluster:29400", "node0.cluster", 29400, "tcp://node0.cluster:29400"},
        {"ipv6", "tcp://[::1]:29500", "::1", 29500, "tcp://[::1]:29500"},
        {"trailing slash", "tcp://10.0.0.4:29500/", "10.0.0.4", 29500, "tcp://10.0.0.4:29500"},
        {"no port", "tcp://node0", "node0", -1, ""},
        {"port not a number", "tcp://node0:http", "node0", -1, ""},
        {"port too large", "tcp://node0:70000", "node0", -1, ""},
    };
    for (const Row& row : rows)
        testRow(row.name, [&] {
            StoreSpec s = parseStoreSpec(row.spec);
            TEST_REQUIRE_EQ(int(s.kind), int(StoreSpec::Kind::Tcp));
            TEST_REQUIRE_EQ(s.host, std::string(row.host));
            TEST_REQUIRE_EQ(s.port, row.port);
            if (*row.canonical) TEST_REQUIRE_EQ(tcpStoreSpec(s.host, s.port), std::string(row.canonical));
        });
}

TEST_CASE(ipv6Literals) {
    for (const char* good :
         {"::1", "::", "fe80::1", "2001:db8::8a2e:370:7334", "1:2:3:4:5:6:7:8", "::ffff:10.0.0.1",
          "64:ff9b::192.0.2.33", "fe80::1%eth0", "1::", "1:2:3:4:5:6:7::"})
        TEST_CHECK_MSG(isIpv6Literal(good), good);
    for (const char* bad :
         {"", ":", ":::", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "1::2::3", "12345::1", "g::1", "10.0.0.1",
          "::ffff:10.0.0.256", "::1.2.3", "fe80::1%", "localhost", "1:2:3:4:5:6:7:8::"})
        TEST_CHECK_MSG(!isIpv6Literal(bad), bad);
}

TEST_CASE(invalid) {
    struct Row {
        const char *name, *spec, *mentions;
    };
    const Row rows[] = {
        {"empty file path", "file:", "file:PATH"},    {"no host", "tcp://:29500", "no host"},
        {"unclosed ipv6", "tcp://[::1:29500", "']'"}, {"other scheme", "redis://x:6379", "neither"},
        {"bare path", "/tmp/store", "file:PATH"},
    };
    for (const Row& row : rows)
        testRow(row.name, [&] {
            StoreSpec s = parseStoreSpec(row.spec);
            TEST_REQUIRE_EQ(int(s.kind), int(StoreSpec::Kind::Invalid));
            TEST_REQUIRE_MSG(s.error.find(row.mentions) != std::string::npos, s.error);
        });
}

DDPDESK_TEST_MAIN()
