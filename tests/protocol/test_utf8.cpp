// validUtf8: valid text passes unchanged (NUL bytes included), every invalid sequence becomes U+FFFD per
// maximal subpart, as the Unicode standard recommends.
#include "protocol/utf8.h"

#include "mini_test.h"

using ddpdesk::protocol::isValidUtf8;
using ddpdesk::protocol::validUtf8;

TEST_CASE(validTextIsUnchanged) {
    const std::string text = "rank 0 \xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x98\x80 ok";
    TEST_REQUIRE(isValidUtf8(text));
    TEST_REQUIRE_EQ(validUtf8(text), text);
    TEST_REQUIRE_EQ(validUtf8(std::string("a\0b", 3)), std::string("a\0b", 3));
}

TEST_CASE(invalidBytesBecomeReplacementCharacters) {
    const std::string r = "\xEF\xBF\xBD";
    TEST_REQUIRE_EQ(validUtf8("\xff"), r);
    TEST_REQUIRE_EQ(validUtf8("a\xff"
                              "b"),
                    "a" + r + "b");
    TEST_REQUIRE_EQ(validUtf8("\xC0\xAF"), r + r);                 // overlong '/'
    TEST_REQUIRE_EQ(validUtf8("\xED\xA0\x80"), r + r + r);         // a surrogate
    TEST_REQUIRE_EQ(validUtf8("\xF4\x90\x80\x80"), r + r + r + r); // above U+10FFFF
    TEST_REQUIRE_EQ(validUtf8("\xE6\x97"), r);                     // truncated: one maximal subpart
    TEST_REQUIRE_EQ(validUtf8("\xE6\x97x"), r + "x");
    TEST_REQUIRE(!isValidUtf8("\xff"));
    TEST_REQUIRE(isValidUtf8(validUtf8("\x80\xC2\xE0\xA0\xF0\x90\x80")));
}

DDPDESK_TEST_MAIN()
