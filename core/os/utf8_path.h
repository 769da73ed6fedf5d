#pragma once

// A path as UTF-8 text in a std::string, and back, the same in C++17 and C++20. std::filesystem's u8string()
// returns std::string in C++17 and std::u8string in C++20, and u8path() is deprecated there: every conversion
// between a path and the UTF-8 text that telemetry, messages and Qt carry goes through these two instead, so
// the sources need no dialect switch (-fno-char8_t) to build as either standard.

#include <filesystem>
#include <string>

namespace ddpdesk::os {

inline std::string utf8(const std::filesystem::path& path) {
#if defined(__cpp_char8_t)
    const std::u8string text = path.u8string();
    return std::string(text.begin(), text.end());
#else
    return path.u8string();
#endif
}

inline std::filesystem::path pathFromUtf8(const std::string& text) {
#if defined(__cpp_char8_t)
    return std::filesystem::path(std::u8string(text.begin(), text.end()));
#else
    return std::filesystem::u8path(text);
#endif
}

} // namespace ddpdesk::os
