#pragma once

// A Windows error code in words (UTF-8, FormatMessageW's text without its line end), for the *_win.cpp halves
// that report why a file call failed. Windows only: included by *_win.cpp files alone.

#include <string>

#include <windows.h>

namespace ddpdesk::os {

inline std::string windowsErrorText(DWORD code) {
    wchar_t* buf = nullptr;
    const DWORD n = FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM |
                                       FORMAT_MESSAGE_IGNORE_INSERTS,
                                   nullptr, code, 0, reinterpret_cast<LPWSTR>(&buf), 0, nullptr);
    std::string text;
    if (n && buf) {
        const int len = WideCharToMultiByte(CP_UTF8, 0, buf, int(n), nullptr, 0, nullptr, nullptr);
        text.resize(size_t(len > 0 ? len : 0));
        if (len > 0) WideCharToMultiByte(CP_UTF8, 0, buf, int(n), text.data(), len, nullptr, nullptr);
        while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
            text.pop_back();
    }
    if (buf) LocalFree(buf);
    return text.empty() ? "Windows error " + std::to_string(code) : text;
}

} // namespace ddpdesk::os
