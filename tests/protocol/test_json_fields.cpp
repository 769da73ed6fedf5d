// The one accessor for JSON from outside the process (protocol/json_fields.h): every read of a missing or
// wrong-typed field gives the fallback without throwing, and the first wrong type is named as a refusal. The
// parsers built on it (collective-progress records here; the node link, the telemetry reader and the mark in
// their own tests and fuzz targets) take any bytes without throwing.
#include "protocol/collective_progress.h"
#include "protocol/json_fields.h"
#include "protocol/output_mark.h"
#include "protocol/utf8.h"

#include "mini_test.h"
#include "temp_dir.h"

#include <limits>

using ddpdesk::protocol::JsonFields;
using nlohmann::json;

TEST_CASE(rightTypesAreRead) {
    const json j =
        json::parse(R"({"s":"x","i":-3,"u":18446744073709551615,"f":1.5,"b":true,"o":{},"a":[1]})");
    const JsonFields f(j);
    TEST_REQUIRE_EQ(f.text("s"), std::string("x"));
    TEST_REQUIRE_EQ(f.integer("i", 0), -3);
    TEST_REQUIRE_EQ(f.integer64("i", 0), std::int64_t(-3));
    TEST_REQUIRE_EQ(f.count("u", 0), std::numeric_limits<std::uint64_t>::max());
    TEST_REQUIRE_EQ(f.number("f", 0), 1.5);
    TEST_REQUIRE_EQ(f.number("i", 0), -3.0);
    TEST_REQUIRE(f.flag("b", false));
    TEST_REQUIRE(f.object("o") != nullptr);
    TEST_REQUIRE(f.array("a") != nullptr);
    TEST_REQUIRE(f.ok());
    TEST_REQUIRE_EQ(f.text("missing", "fallback"), std::string("fallback"));
    TEST_REQUIRE(f.ok()); // absent is not wrong
}

TEST_CASE(wrongTypesGiveTheFallbackAndAreNamed) {
    const json j = json::parse(R"({"host":5,"rank":"0","big":9223372036854775808,"neg":-1,"half":0.5})");
    {
        const JsonFields f(j);
        TEST_REQUIRE_EQ(f.text("host", "?"), std::string("?"));
        TEST_REQUIRE_EQ(f.refusal(), std::string("field 'host' is an integer, not a string"));
        TEST_REQUIRE_EQ(f.integer("rank", -1), -1); // the first refusal is the one kept
        TEST_REQUIRE_EQ(f.refusal(), std::string("field 'host' is an integer, not a string"));
    }
    TEST_REQUIRE_EQ(JsonFields(j).integer("big", 7), 7); // out of int's range
    TEST_REQUIRE_EQ(JsonFields(j).integer64("big", 7), std::int64_t(7));
    TEST_REQUIRE_EQ(JsonFields(j).count("neg", 7), std::uint64_t(7)); // a count is never negative
    TEST_REQUIRE_EQ(JsonFields(j).integer("half", 7), 7);             // 0.5 is not a whole number
    TEST_REQUIRE(!JsonFields(j).flag("rank", false));
    TEST_REQUIRE(JsonFields(j).object("host") == nullptr);
    const json notObject = json::parse("[1,2]");
    const JsonFields a(notObject);
    TEST_REQUIRE_EQ(a.text("x", "f"), std::string("f"));
    TEST_REQUIRE_EQ(a.refusal(), std::string("it is an array, not a JSON object"));
}

TEST_CASE(shownTextIsShortAndNeverThrows) {
    json j;
    j["bad"] = std::string("\xff\xfe", 2); // invalid UTF-8 made in memory: dump() would throw type_error 316
    j["long"] = std::string(500, 'x');
    const JsonFields f(j);
    TEST_REQUIRE(f.shown("bad").find("\xEF\xBF\xBD") != std::string::npos);
    TEST_REQUIRE(f.shown("long", 20).size() <= 23);
    TEST_REQUIRE_EQ(f.shown("missing"), std::string("null"));
}

TEST_CASE(aClaimedNameFitsOneLine) {
    using ddpdesk::protocol::printableLine;
    TEST_REQUIRE_EQ(printableLine("node-b"), std::string("node-b"));
    TEST_REQUIRE_EQ(printableLine("evil\nnode link: forged"), std::string("evil?node link: forged"));
    TEST_REQUIRE_EQ(printableLine(std::string(100, 'h'), 8), std::string("hhhhhhhh..."));
    TEST_REQUIRE_EQ(printableLine("\xE6\x97\xA5\xE6\x9C\xAC", 4), std::string("\xE6\x97\xA5..."));
}

TEST_CASE(collectiveRecordsOfTheWrongTypesAreRefused) {
    using ddpdesk::protocol::parseCollectiveRecord;
    TEST_REQUIRE(!parseCollectiveRecord(R"({"entered":"3","completed":2})"
                                        "\n"));
    TEST_REQUIRE(!parseCollectiveRecord(R"({"entered":1e300,"completed":1})"
                                        "\n"));
    const auto r = parseCollectiveRecord(R"({"entered":3,"completed":2,"kind":5,"pid":"x","t":"now"})"
                                         "\n");
    TEST_REQUIRE(r.has_value());
    TEST_REQUIRE_EQ(r->entered, std::int64_t(3));
    TEST_REQUIRE_EQ(r->kind, std::string());
    TEST_REQUIRE_EQ(r->pid, std::int64_t(0));
}

// The folder's mark of DDP Desk's own files: one with a field of the wrong type is named, by path and field,
// never thrown through (it once gave a raw type_error.302) and never silently rewritten.
TEST_CASE(aMalformedOutputMarkIsNamed) {
    ddpdesk::testsupport::TempDir dir;
    const auto mark = dir.path() / ddpdesk::protocol::kOutputMarkName;
    ddpdesk::testsupport::writeFileText(mark, R"({"format":7,"files":["summary.json"]})");
    TEST_REQUIRE(ddpdesk::protocol::markedOutputs(dir.path()).empty());
    TEST_REQUIRE(ddpdesk::protocol::outputState(dir.path(), "summary.json") ==
                 ddpdesk::protocol::OutputState::Free);
    const std::string why = ddpdesk::protocol::markOutputs(dir.path(), {"metrics.jsonl"});
    TEST_REQUIRE(why.find(mark.string()) != std::string::npos);
    TEST_REQUIRE(why.find("field 'format' is an integer, not a string") != std::string::npos);
    ddpdesk::testsupport::writeFileText(mark, R"({"format":"ddpdesk-output-1","files":["a"]})");
    TEST_REQUIRE_EQ(ddpdesk::protocol::markOutputs(dir.path(), {"b"}), std::string());
    TEST_REQUIRE_EQ(ddpdesk::protocol::markedOutputs(dir.path()).size(), std::size_t(2));
}

DDPDESK_TEST_MAIN()
