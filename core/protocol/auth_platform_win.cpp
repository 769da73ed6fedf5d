#include "protocol/auth_platform.h"

#include <windows.h>

namespace ddpdesk::protocol {

std::string secretFileProblem(const std::string& path) {
    // Windows protects files by ACLs inherited from the folder (a user profile folder is private by default);
    // checking a DACL for other readers is not done here, documented in docs/launcher.md.
    std::wstring wide(path.size() + 1, L'\0');
    const int n =
        MultiByteToWideChar(CP_UTF8, 0, path.c_str(), -1, wide.data(), static_cast<int>(wide.size()));
    if (n <= 0) return path + " is not a valid UTF-8 path";
    const DWORD attributes = GetFileAttributesW(wide.c_str());
    if (attributes == INVALID_FILE_ATTRIBUTES) return path + " cannot be read (missing?)";
    if (attributes & FILE_ATTRIBUTE_DIRECTORY) return path + " is not a regular file";
    return {};
}

// Gloo on Windows selects devices by address, not interface name: callers use 127.0.0.1 instead.
std::string loopbackInterfaceName() {
    return {};
}

} // namespace ddpdesk::protocol
