// The telemetry line format: round trip, what is log text rather than telemetry, the nesting and length
// limits, and invalid UTF-8 from the worker's side turned into strict JSON.
#include "protocol/telemetry.h"
#include "protocol/utf8.h"

#include "mini_test.h"

using namespace ddpdesk::protocol;
using ddpdesk::testsupport::testRow;

TEST_CASE(roundTrip) {
    auto e = makeEvent(ev::Step, 3);
    e["loss"] = 0.25;
    e["step"] = 17;
    auto parsed = parseLine(encodeLine(e) + "\r\n");
    TEST_REQUIRE(parsed.has_value());
    TEST_REQUIRE_EQ(parsed->type, std::string("step"));
    TEST_REQUIRE_EQ(parsed->rank, 3);
    TEST_REQUIRE_EQ(parsed->body["step"].get<int>(), 17);
    TEST_REQUIRE(parsed->t > 1.6e9);
}

TEST_CASE(nonTelemetryIsLogText) {
    const std::pair<const char*, std::string> rows[] = {
        {"empty", ""},
        {"plain", "Epoch 3 : 0.45"},
        {"truncated", "{\"v\":1,\"event\":\"step\",\"ra"},
        {"array", "[1,2,3]"},
        {"no event", "{\"v\":1,\"rank\":0}"},
        {"event not string", "{\"v\":1,\"event\":5}"},
        {"future version", "{\"v\":2,\"event\":\"step\"}"},
        {"binary", "{\xff\xfe\x01"},
    };
    for (const auto& row : rows) // not a structured binding: clang 14 cannot capture one in a lambda
        testRow(row.first, [&] { TEST_REQUIRE(!parseLine(std::string_view(row.second)).has_value()); });
}

TEST_CASE(checkLineLimits) {
    const std::string nest64 =
        "{\"v\":1,\"event\":\"step\",\"x\":" + std::string(63, '[') + std::string(63, ']') + "}";
    TEST_REQUIRE(checkLine(nest64) == LineCheck::Ok);
    TEST_REQUIRE(parseLine(nest64).has_value());
    const std::string nest65 =
        "{\"v\":1,\"event\":\"step\",\"x\":" + std::string(64, '[') + std::string(64, ']') + "}";
    TEST_REQUIRE(checkLine(nest65) == LineCheck::TooDeep);
    TEST_REQUIRE(!parseLine(nest65).has_value());
    // Brackets inside strings (also after an escaped quote) are text, not nesting.
    const std::string inString =
        "{\"v\":1,\"event\":\"log\",\"text\":\"\\\"" + std::string(1000, '[') + "\"}";
    TEST_REQUIRE(checkLine(inString) == LineCheck::Ok);
    TEST_REQUIRE(parseLine(inString).has_value());
    // 100,000 deep: refused before the parser sees it (no stack to overflow).
    const std::string deep =
        "{\"v\":1,\"event\":\"step\",\"x\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
    TEST_REQUIRE(checkLine(deep) == LineCheck::TooDeep);
    TEST_REQUIRE(!parseLine(deep).has_value());
    // Longer than kMaxLineBytes: refused, one byte less is fine.
    auto e = makeEvent(ev::Log, 0);
    e["text"] = "";
    const size_t envelope = encodeLine(e).size();
    e["text"] = std::string(kMaxLineBytes - envelope, 'a');
    TEST_REQUIRE_EQ(encodeLine(e).size(), kMaxLineBytes);
    TEST_REQUIRE(parseLine(encodeLine(e)).has_value());
    e["text"] = std::string(kMaxLineBytes - envelope + 1, 'a');
    TEST_REQUIRE(checkLine(encodeLine(e)) == LineCheck::TooLong);
    TEST_REQUIRE(!parseLine(encodeLine(e)).has_value());
}

TEST_CASE(invalidUtf8HostIsReplaced) {
    // What a worker sends: a hello whose host name came from a non-UTF-8 source (a Latin-1 "h\xe9te", a lone
    // continuation byte). The line must be strict JSON that any reader accepts.
    auto e = makeEvent(ev::Hello, 0);
    e["host"] = std::string("h\xe9te-\x80");
    const std::string line = encodeLine(e);
    nlohmann::json strict;
    try {
        strict = nlohmann::json::parse(line); // throws on invalid UTF-8
    } catch (const std::exception& x) {
        TEST_FAIL(x.what());
    }
    // U+FFFD is EF BF BD in UTF-8.
    TEST_REQUIRE_EQ(strict["host"].get<std::string>(), std::string("h\xEF\xBF\xBDte-\xEF\xBF\xBD"));
    TEST_REQUIRE_EQ(strict["host"].get<std::string>(), validUtf8(std::string("h\xe9te-\x80")));
}

TEST_CASE(invalidUtf8IsEncodable) {
    auto e = makeEvent(ev::Log, 0);
    e["text"] = std::string("bad \xff byte");
    auto parsed = parseLine(encodeLine(e));
    TEST_REQUIRE(parsed.has_value());
}

DDPDESK_TEST_MAIN()
