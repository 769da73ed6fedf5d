#include "os/owned_file.h"

#include <windows.h>

#include "os/error_text_win.h"

namespace ddpdesk::launch {

namespace {

OwnedFile identityOf(HANDLE h) {
    BY_HANDLE_FILE_INFORMATION info{};
    if (!GetFileInformationByHandle(h, &info)) return {};
    return OwnedFile{info.dwVolumeSerialNumber,
                     (std::uint64_t(info.nFileIndexHigh) << 32) | std::uint64_t(info.nFileIndexLow), -1,
                     true};
}

} // namespace

CreateResult createOwnedFile(const std::filesystem::path& path, OwnedFile* id, std::string* error,
                             const std::string* privateContent) {
    // CREATE_NEW fails on any existing name, a symbolic link or junction included. Shared for reading,
    // writing and deleting: the workers use the file while this handle keeps its file index from being
    // reused.
    HANDLE h = CreateFileW(path.c_str(), GENERIC_READ | (privateContent ? GENERIC_WRITE : 0),
                           FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, CREATE_NEW,
                           FILE_ATTRIBUTE_NORMAL, nullptr);
    if (h == INVALID_HANDLE_VALUE) {
        const DWORD err = GetLastError();
        if (error) *error = os::windowsErrorText(err);
        return err == ERROR_FILE_EXISTS || err == ERROR_ALREADY_EXISTS ? CreateResult::AlreadyThere
                                                                       : CreateResult::Failed;
    }
    OwnedFile created = identityOf(h);
    DWORD written = 0;
    const bool filled = !privateContent || (WriteFile(h, privateContent->data(),
                                                      DWORD(privateContent->size()), &written, nullptr) &&
                                            written == privateContent->size());
    if (!created.valid || !id || !filled) {
        if (error) *error = os::windowsErrorText(GetLastError());
        CloseHandle(h);
        DeleteFileW(path.c_str());
        return CreateResult::Failed;
    }
    created.handle = reinterpret_cast<std::intptr_t>(h);
    *id = created;
    return CreateResult::Created;
}

bool removeOwnedFile(const std::filesystem::path& path, OwnedFile& id) {
    if (!id.valid) return false;
    // Opened as the link itself (OPEN_REPARSE_POINT) and deleted through the same handle: what is compared is
    // what is removed.
    HANDLE h = CreateFileW(path.c_str(), DELETE | FILE_READ_ATTRIBUTES,
                           FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
                           FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
    bool removed = false;
    if (h != INVALID_HANDLE_VALUE) {
        BY_HANDLE_FILE_INFORMATION info{};
        if (GetFileInformationByHandle(h, &info) &&
            !(info.dwFileAttributes & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_REPARSE_POINT))) {
            const OwnedFile now = identityOf(h);
            if (now.valid && now.device == id.device && now.index == id.index) {
                FILE_DISPOSITION_INFO disposition{};
                disposition.DeleteFile = TRUE;
                removed = SetFileInformationByHandle(h, FileDispositionInfo, &disposition,
                                                     sizeof(disposition)) != 0;
            }
        }
        CloseHandle(h);
    }
    CloseHandle(reinterpret_cast<HANDLE>(id.handle)); // only now may the file index go to another file
    id = OwnedFile();
    return removed;
}

} // namespace ddpdesk::launch
