// Windows side of dynamic_library.h: LoadLibraryExW, full paths only.
#include "os/dynamic_library.h"

#include <windows.h>

namespace ddpdesk::monitor {

namespace {

std::wstring widen(const std::string& utf8) {
    if (utf8.empty()) return {};
    int n = MultiByteToWideChar(CP_UTF8, 0, utf8.data(), int(utf8.size()), nullptr, 0);
    std::wstring out(size_t(n > 0 ? n : 0), L'\0');
    if (n > 0) MultiByteToWideChar(CP_UTF8, 0, utf8.data(), int(utf8.size()), out.data(), n);
    return out;
}

std::string systemMessage(DWORD code) {
    char* buffer = nullptr;
    DWORD n = FormatMessageA(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM |
                                 FORMAT_MESSAGE_IGNORE_INSERTS,
                             nullptr, code, 0, reinterpret_cast<char*>(&buffer), 0, nullptr);
    std::string text = (n && buffer) ? std::string(buffer, n) : std::string();
    if (buffer) LocalFree(buffer);
    while (!text.empty() &&
           (text.back() == '\n' || text.back() == '\r' || text.back() == ' ' || text.back() == '.'))
        text.pop_back();
    return text.empty() ? "error " + std::to_string(code) : text + " (error " + std::to_string(code) + ")";
}

// C:\x, C:/x or a UNC \\server\x: anything else is resolved against the current folder or PATH.
bool isFullPath(const std::wstring& path) {
    const auto slash = [](wchar_t c) { return c == L'\\' || c == L'/'; };
    if (path.size() >= 3 && path[1] == L':' && slash(path[2]))
        return (path[0] >= L'A' && path[0] <= L'Z') || (path[0] >= L'a' && path[0] <= L'z');
    return path.size() >= 3 && slash(path[0]) && slash(path[1]) && !slash(path[2]);
}

} // namespace

void* DynamicLibrary::openHandle(const std::string& nameOrPath, std::string* error) {
    const std::wstring path = widen(nameOrPath);
    // A bare name or relative path would search the current folder and PATH first, where a planted DLL wins.
    if (!isFullPath(path)) {
        *error = "refusing to load '" + nameOrPath +
                 "': not a full path (a bare name would be searched in the current folder and on PATH)";
        return nullptr;
    }
    // No "cannot find DLL" message box for a missing driver: the caller reports it in words.
    DWORD previousMode = 0;
    SetThreadErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX, &previousMode);
    // The library's own dependencies come from its folder and System32 only, never the current folder or
    // PATH.
    HMODULE module = LoadLibraryExW(path.c_str(), nullptr,
                                    LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_SYSTEM32);
    DWORD code = module ? 0 : GetLastError();
    SetThreadErrorMode(previousMode, nullptr);
    if (!module) *error = systemMessage(code);
    return reinterpret_cast<void*>(module);
}

void DynamicLibrary::closeHandle(void* handle) {
    FreeLibrary(reinterpret_cast<HMODULE>(handle));
}

void* DynamicLibrary::symbolAddress(void* handle, const char* name) {
    return reinterpret_cast<void*>(GetProcAddress(reinterpret_cast<HMODULE>(handle), name));
}

} // namespace ddpdesk::monitor
