#include "file_lock.h"

#include <windows.h>

namespace ddpdesk::testsupport {

HeldFileLock::HeldFileLock(const std::filesystem::path& path) {
    // Shared read/write like c10d's FileStore, which other ranks open beside the lock holder.
    HANDLE h =
        CreateFileW(path.wstring().c_str(), GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE,
                    nullptr, OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (h == INVALID_HANDLE_VALUE) {
        m_error = path.string() + ": CreateFileW error " + std::to_string(GetLastError());
        return;
    }
    m_handle = reinterpret_cast<std::intptr_t>(h);
    OVERLAPPED at = {};
    if (!LockFileEx(h, LOCKFILE_EXCLUSIVE_LOCK, 0, MAXDWORD, MAXDWORD, &at)) {
        m_error = path.string() + ": LockFileEx error " + std::to_string(GetLastError());
        return;
    }
    m_ok = true;
}

HeldFileLock::~HeldFileLock() {
    if (m_handle == -1) return;
    HANDLE h = reinterpret_cast<HANDLE>(m_handle);
    OVERLAPPED at = {};
    if (m_ok) UnlockFileEx(h, 0, MAXDWORD, MAXDWORD, &at);
    CloseHandle(h);
}

} // namespace ddpdesk::testsupport
