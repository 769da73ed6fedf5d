#pragma once

// One UTF-8 sanitiser for every text that crosses into JSON or Qt: store values, process output, host names
// come from outside and may hold any bytes, and nlohmann::json::dump throws (type_error 316) on invalid
// UTF-8.

#include <cstddef>
#include <string>
#include <string_view>

namespace ddpdesk::protocol {

// `bytes` unchanged when it is valid UTF-8; otherwise every maximal invalid subsequence becomes U+FFFD (the
// Unicode "substitution of maximal subparts" practice, as Qt and browsers do). Overlong forms, surrogates and
// code points above U+10FFFF are invalid.
std::string validUtf8(std::string_view bytes);

// A claimed name or reason from outside, fit for one line of a log or a message: valid UTF-8, every control
// character (a newline would forge a log line of its own) shown as '?', at most maxChars bytes (then "...").
std::string printableLine(std::string_view text, std::size_t maxChars = 64);

// True when `bytes` is valid UTF-8 (validUtf8 would return it unchanged).
bool isValidUtf8(std::string_view bytes);

} // namespace ddpdesk::protocol
