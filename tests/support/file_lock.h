#pragma once

// Holds a file open with an exclusive lock the way c10d's FileStore locks its file (POSIX flock, Windows
// LockFileEx), for tests whose helper process must look like a rank inside a store operation. OS calls in
// file_lock_posix.cpp / file_lock_win.cpp.

#include <cstdint>
#include <filesystem>
#include <string>

namespace ddpdesk::testsupport {

class HeldFileLock {
public:
    // Opens (creating when missing) and locks `path`; ok() says whether both worked, error() why not.
    explicit HeldFileLock(const std::filesystem::path& path);
    ~HeldFileLock(); // unlocks and closes
    HeldFileLock(const HeldFileLock&) = delete;
    HeldFileLock& operator=(const HeldFileLock&) = delete;

    bool ok() const { return m_ok; }
    const std::string& error() const { return m_error; }

private:
    std::intptr_t m_handle = -1;
    bool m_ok = false;
    std::string m_error;
};

} // namespace ddpdesk::testsupport
