// Windows side of private_file.h: the file's attributes only.
#include "os/private_file.h"

#include <windows.h>

namespace ddpdesk::os {

FileReadersAnswer fileReaders(const std::string& path) {
    // Windows protects files by ACLs inherited from the folder (a user profile folder is private by default);
    // checking a DACL for other readers is not done here, documented in docs/launcher.md.
    std::wstring wide(path.size() + 1, L'\0');
    const int n =
        MultiByteToWideChar(CP_UTF8, 0, path.c_str(), -1, wide.data(), static_cast<int>(wide.size()));
    if (n <= 0) return {FileReaders::InvalidName, 0};
    const DWORD attributes = GetFileAttributesW(wide.c_str());
    if (attributes == INVALID_FILE_ATTRIBUTES) return {FileReaders::Missing, 0};
    if (attributes & FILE_ATTRIBUTE_DIRECTORY) return {FileReaders::NotRegular, 0};
    return {FileReaders::OwnerOnly, 0};
}

// Gloo on Windows selects devices by address, not interface name: callers use 127.0.0.1 instead.
std::string loopbackInterfaceName() {
    return {};
}

} // namespace ddpdesk::os
