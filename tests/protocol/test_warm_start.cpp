// The warm worker's configuration line (protocol/warm_start.h): what the launcher writes, the worker reads
// back unchanged (arguments with spaces and quotes, UTF-8 paths, variables to set and to remove); a line that
// is not such a request is refused with a reason, never half-read.
#include "protocol/warm_start.h"

#include "mini_test.h"

using namespace ddpdesk::protocol;

TEST_CASE(aRequestSurvivesTheLine) {
    WarmStartRequest r;
    r.args = {"--workload", "fashion-mnist", "--out", "C:\\Users\\\xE5\xB1\xB1\xE7\x94\xB0\\runs\\a b",
              "--x=\"q\""};
    r.env = {{"RANK", "1"}, {"DDPDESK_RUN_SECRET", std::string(64, 'a')}, {"EMPTY", ""}};
    r.unset = {"PYTHONPATH"};
    r.cwd = "\\\\server\\share\\runs";
    const std::string line = encodeWarmStart(r);
    TEST_REQUIRE(line.find('\n') == std::string::npos); // one line, whatever the values hold
    WarmStartRequest back;
    std::string error;
    TEST_REQUIRE_MSG(decodeWarmStart(line, &back, &error), error);
    TEST_CHECK(back.args == r.args);
    TEST_CHECK(back.env == r.env);
    TEST_CHECK(back.unset == r.unset);
    TEST_CHECK_EQ(back.cwd, r.cwd);
}

TEST_CASE(otherLinesAreRefusedWithAReason) {
    for (const char* line : {"", "garbage", "[1,2]", "{\"argz\":[]}", "{\"args\":\"--steps 3\"}",
                             "{\"args\":[1,2]}", "{\"args\":[],\"env\":{\"A\":1}}"}) {
        WarmStartRequest r;
        std::string error;
        TEST_CHECK_MSG(!decodeWarmStart(line, &r, &error), line);
        TEST_CHECK_MSG(!error.empty(), line);
    }
}

DDPDESK_TEST_MAIN()
