// Windows side of private_file.h: the file's attributes only.
#include "os/private_file.h"

#include <windows.h>

#include <aclapi.h>
#include <sddl.h>

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

FolderOwnerAnswer folderOwner(const std::string& path, bool followLink) {
    std::wstring wide(path.size() + 1, L'\0');
    if (MultiByteToWideChar(CP_UTF8, 0, path.c_str(), -1, wide.data(), static_cast<int>(wide.size())) <= 0)
        return {};
    const DWORD attributes = GetFileAttributesW(wide.c_str());
    if (attributes == INVALID_FILE_ATTRIBUTES) return {};
    FolderOwnerAnswer a;
    if (!(attributes & FILE_ATTRIBUTE_DIRECTORY) ||
        (!followLink && (attributes & FILE_ATTRIBUTE_REPARSE_POINT))) {
        a.answer = FolderOwner::NotAFolder;
        return a;
    }
    PSID owner = nullptr;
    PSECURITY_DESCRIPTOR sd = nullptr;
    if (GetNamedSecurityInfoW(wide.c_str(), SE_FILE_OBJECT, OWNER_SECURITY_INFORMATION, &owner, nullptr,
                              nullptr, nullptr, &sd) != ERROR_SUCCESS) {
        a.answer = FolderOwner::OtherOwner; // an owner that cannot be read is not known to be the user
        return a;
    }
    bool own = false;
    HANDLE token = nullptr;
    if (OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token)) {
        DWORD size = 0;
        GetTokenInformation(token, TokenUser, nullptr, 0, &size);
        std::string buffer(size, '\0');
        if (size && GetTokenInformation(token, TokenUser, buffer.data(), size, &size))
            own = EqualSid(owner, reinterpret_cast<TOKEN_USER*>(buffer.data())->User.Sid) != FALSE;
        CloseHandle(token);
    }
    if (!own && IsWellKnownSid(owner, WinBuiltinAdministratorsSid)) { // what an elevated process creates
        BOOL member = FALSE;
        own = CheckTokenMembership(nullptr, owner, &member) && member;
    }
    LocalFree(sd);
    a.answer = own ? FolderOwner::Own : FolderOwner::OtherOwner;
    return a;
}

// Gloo on Windows selects devices by address, not interface name: callers use 127.0.0.1 instead.
std::string loopbackInterfaceName() {
    return {};
}

} // namespace ddpdesk::os
