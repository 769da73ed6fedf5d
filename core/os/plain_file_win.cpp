#include "os/plain_file.h"

#include <algorithm>
#include <random>

#include <windows.h>

#include "os/error_text_win.h"

namespace ddpdesk::os {

namespace {

HANDLE handleOf(std::intptr_t h) {
    return reinterpret_cast<HANDLE>(h);
}

} // namespace

void PlainFile::close() {
    if (m_handle != kNone) CloseHandle(handleOf(m_handle));
    m_handle = kNone;
}

PlainFile PlainFile::open(const std::filesystem::path& path, Mode mode, bool ownerOnly) {
    PlainFile f;
    // FILE_FLAG_OPEN_REPARSE_POINT opens a symbolic link or junction itself, not its target: refused below.
    // CREATE_NEW fails on any existing name. Shared for deleting: node 0 removes a segment another node's
    // launcher may still hold.
    const DWORD access = mode == Mode::ReadExisting     ? GENERIC_READ
                         : mode == Mode::AppendExisting ? FILE_APPEND_DATA | SYNCHRONIZE
                                                        : GENERIC_WRITE;
    HANDLE h = CreateFileW(path.c_str(), access, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                           nullptr, mode == Mode::CreateNew ? CREATE_NEW : OPEN_EXISTING,
                           FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
    (void)ownerOnly; // the folder's inherited ACL, as for any file a user makes there
    if (h == INVALID_HANDLE_VALUE) {
        const DWORD err = GetLastError();
        if (err == ERROR_FILE_EXISTS || err == ERROR_ALREADY_EXISTS) {
            f.m_status = Status::AlreadyThere;
            f.m_error = path.string() + " exists already";
        } else if (err == ERROR_FILE_NOT_FOUND || err == ERROR_PATH_NOT_FOUND) {
            f.m_status = Status::Missing;
            f.m_error = path.string() + " does not exist";
        } else {
            f.m_error = "cannot open " + path.string() + ": " + windowsErrorText(err);
        }
        return f;
    }
    BY_HANDLE_FILE_INFORMATION info{};
    const bool regular = GetFileType(h) == FILE_TYPE_DISK && GetFileInformationByHandle(h, &info) &&
                         !(info.dwFileAttributes & (FILE_ATTRIBUTE_REPARSE_POINT | FILE_ATTRIBUTE_DIRECTORY));
    if (!regular) {
        f.m_status = Status::NotRegular;
        f.m_error = path.string() + " is a link, a folder or a device, not a regular file";
        CloseHandle(h);
        return f;
    }
    f.m_handle = reinterpret_cast<std::intptr_t>(h);
    f.m_status = Status::Open;
    return f;
}

bool PlainFile::writeAll(const char* data, std::size_t size) {
    if (m_handle == kNone) return false;
    for (std::size_t done = 0; done < size;) {
        const DWORD chunk = DWORD(std::min<std::size_t>(size - done, 1u << 30));
        DWORD n = 0;
        if (!WriteFile(handleOf(m_handle), data + done, chunk, &n, nullptr) || n == 0) {
            m_error = windowsErrorText(GetLastError());
            return false;
        }
        done += n;
    }
    return true;
}

std::int64_t PlainFile::readAt(std::uint64_t offset, char* data, std::size_t size) {
    if (m_handle == kNone) return -1;
    OVERLAPPED at{};
    at.Offset = DWORD(offset & 0xffffffffu);
    at.OffsetHigh = DWORD(offset >> 32);
    DWORD n = 0;
    if (!ReadFile(handleOf(m_handle), data, DWORD(std::min<std::size_t>(size, 1u << 30)), &n, &at)) {
        const DWORD err = GetLastError();
        if (err == ERROR_HANDLE_EOF) return 0;
        m_error = windowsErrorText(err);
        return -1;
    }
    return std::int64_t(n);
}

bool PlainFile::sync() {
    if (m_handle == kNone) return false;
    if (FlushFileBuffers(handleOf(m_handle))) return true;
    m_error = windowsErrorText(GetLastError());
    return false;
}

bool isPlainFileEntry(const std::filesystem::path& path) {
    WIN32_FILE_ATTRIBUTE_DATA data{};
    return GetFileAttributesExW(path.c_str(), GetFileExInfoStandard, &data) &&
           !(data.dwFileAttributes &
             (FILE_ATTRIBUTE_REPARSE_POINT | FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_DEVICE));
}

bool replaceFileContent(const std::filesystem::path& path, const std::string& bytes, std::string* error) {
    std::random_device rd;
    std::filesystem::path temp = path;
    temp += ".ddpdesk-new-" + std::to_string(rd());
    PlainFile f = PlainFile::open(temp, PlainFile::Mode::CreateNew);
    if (!f.isOpen()) {
        if (error) *error = f.error();
        return false;
    }
    if (!f.writeAll(bytes.data(), bytes.size()) || !f.sync()) {
        if (error) *error = "cannot write " + temp.string() + ": " + f.error();
        f.close();
        DeleteFileW(temp.c_str());
        return false;
    }
    f.close();
    // MOVEFILE_REPLACE_EXISTING replaces the entry at `path`; a symbolic link there is replaced itself.
    if (!MoveFileExW(temp.c_str(), path.c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) {
        if (error) *error = "cannot replace " + path.string() + ": " + windowsErrorText(GetLastError());
        DeleteFileW(temp.c_str());
        return false;
    }
    return true;
}

} // namespace ddpdesk::os
