#include "os/platform.h"
#include "os/utf8_path.h"

#include <algorithm>
#include <cstdlib>
#include <thread>

// winsock2.h must come before windows.h (which would pull in the old winsock.h).
#include <winsock2.h>

#include <windows.h>

namespace ddpdesk::train {

namespace {

// The wide API, converted to UTF-8: the ANSI one returns the name in the local code page, which is not UTF-8
// for a non-ASCII name and would make every JSON record carrying the host invalid.
std::string utf8(const wchar_t* w, int length) {
    const int n = WideCharToMultiByte(CP_UTF8, 0, w, length, nullptr, 0, nullptr, nullptr);
    if (n <= 0) return std::string();
    std::string out(static_cast<size_t>(n), '\0');
    WideCharToMultiByte(CP_UTF8, 0, w, length, out.data(), n, nullptr, nullptr);
    return out;
}

} // namespace

std::string hostName() {
    // The DNS host name (what other nodes resolve), else the NetBIOS name.
    wchar_t name[256] = {};
    DWORD size = sizeof(name) / sizeof(name[0]);
    std::string host;
    if (GetComputerNameExW(ComputerNamePhysicalDnsHostname, name, &size) && size > 0)
        host = utf8(name, static_cast<int>(size));
    if (host.empty()) {
        wchar_t netbios[MAX_COMPUTERNAME_LENGTH + 1] = {};
        DWORD n = MAX_COMPUTERNAME_LENGTH + 1;
        if (GetComputerNameW(netbios, &n) && n > 0) host = utf8(netbios, static_cast<int>(n));
    }
    return host.empty() ? std::string("localhost") : host;
}

int logicalCores() {
    unsigned n = std::thread::hardware_concurrency();
    return n > 0 ? static_cast<int>(n) : 1;
}

// The Windows heap keeps freed blocks of the process for reuse by itself; nothing to tune.
void keepFreedMemory() {}

std::string replaceFileDurably(const std::filesystem::path& tmp, const std::filesystem::path& target,
                               const char* data, std::size_t size, bool* tmpTaken) {
    if (tmpTaken) *tmpTaken = false;
    // CREATE_NEW fails on any existing name, a symbolic link or junction included.
    HANDLE h =
        CreateFileW(tmp.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (h == INVALID_HANDLE_VALUE) {
        const DWORD err = GetLastError();
        if (tmpTaken) *tmpTaken = err == ERROR_FILE_EXISTS || err == ERROR_ALREADY_EXISTS;
        return "cannot create " + os::utf8(tmp) + " (Windows error " + std::to_string(err) + ")";
    }
    std::string why;
    for (std::size_t done = 0; done < size && why.empty();) {
        const DWORD chunk = static_cast<DWORD>(std::min<std::size_t>(size - done, 1u << 30));
        DWORD written = 0;
        if (!WriteFile(h, data + done, chunk, &written, nullptr) || written == 0)
            why =
                "writing " + os::utf8(tmp) + " failed (Windows error " + std::to_string(GetLastError()) + ")";
        done += written;
    }
    if (why.empty() && !FlushFileBuffers(h))
        why = "flushing " + os::utf8(tmp) + " to the disk failed (Windows error " +
              std::to_string(GetLastError()) + ")";
    CloseHandle(h);
    // WRITE_THROUGH: returns once the rename itself is on the disk (the folder flush of POSIX).
    if (why.empty() &&
        !MoveFileExW(tmp.c_str(), target.c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
        why =
            "cannot replace " + os::utf8(target) + " (Windows error " + std::to_string(GetLastError()) + ")";
    if (!why.empty()) DeleteFileW(tmp.c_str());
    return why;
}

namespace {

std::wstring wide(const std::string& utf8) {
    const int n = MultiByteToWideChar(CP_UTF8, 0, utf8.data(), static_cast<int>(utf8.size()), nullptr, 0);
    std::wstring out(static_cast<std::size_t>(n), L'\0');
    if (n > 0) MultiByteToWideChar(CP_UTF8, 0, utf8.data(), static_cast<int>(utf8.size()), out.data(), n);
    return out;
}

} // namespace

// _wputenv_s updates the C runtime's copies that getenv reads; SetEnvironmentVariableW the process block that
// child processes inherit. The C runtime cannot hold an empty value: an empty variable reads as unset there.
bool setEnvironmentVariable(const std::string& name, const std::string* value) {
    const std::wstring n = wide(name), v = value ? wide(*value) : std::wstring();
    const bool block = SetEnvironmentVariableW(n.c_str(), value ? v.c_str() : nullptr) != 0;
    return _wputenv_s(n.c_str(), v.c_str()) == 0 && block;
}

} // namespace ddpdesk::train

namespace ddpdesk::os {

std::string executableName(const std::string& base) {
    return base + ".exe";
}

std::string defaultPythonCommand() {
    return "python";
}

bool windowSystemAlwaysPresent() {
    return true;
}

bool printedCommandsAreForCmd() {
    return true;
}

bool standardOutputHasRoom() {
    return true; // an anonymous pipe does not tell its free space
}

} // namespace ddpdesk::os
