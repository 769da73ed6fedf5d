#include "file_lock.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace ddpdesk::testsupport {

HeldFileLock::HeldFileLock(const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        m_error = path.string() + ": " + std::strerror(errno);
        return;
    }
    m_handle = fd;
    if (::flock(fd, LOCK_EX) != 0) {
        m_error = path.string() + ": flock: " + std::strerror(errno);
        return;
    }
    m_ok = true;
}

HeldFileLock::~HeldFileLock() {
    if (m_handle < 0) return;
    if (m_ok) ::flock(int(m_handle), LOCK_UN);
    ::close(int(m_handle));
}

} // namespace ddpdesk::testsupport
