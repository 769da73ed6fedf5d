#pragma once

// One UTF-8 sanitiser for every text that crosses into JSON or Qt: store values, process output, host names
// come from outside and may hold any bytes, and nlohmann::json::dump throws (type_error 316) on invalid
// UTF-8.

#include <string>
#include <string_view>

namespace ddpdesk::protocol {

// `bytes` unchanged when it is valid UTF-8; otherwise every maximal invalid subsequence becomes U+FFFD (the
// Unicode "substitution of maximal subparts" practice, as Qt and browsers do). Overlong forms, surrogates and
// code points above U+10FFFF are invalid.
std::string validUtf8(std::string_view bytes);

// True when `bytes` is valid UTF-8 (validUtf8 would return it unchanged).
bool isValidUtf8(std::string_view bytes);

} // namespace ddpdesk::protocol
