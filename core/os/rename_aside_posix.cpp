// POSIX side of rename_aside.h.
#include "os/rename_aside.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace ddpdesk::os {

RenameStatus renameNoReplace(const std::filesystem::path& from, const std::filesystem::path& to,
                             std::string& error) {
#if defined(__linux__) && defined(RENAME_NOREPLACE)
    if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0)
        return RenameStatus::Done;
    if (errno == EEXIST) return RenameStatus::TargetExists;
    // Filesystems without RENAME_NOREPLACE (some network mounts) answer EINVAL: fall back to link + unlink.
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP) {
        error = std::strerror(errno);
        return RenameStatus::Failed;
    }
#endif
    // link() never replaces an existing name and does not follow a symlink at `from`.
    if (::link(from.c_str(), to.c_str()) != 0) {
        if (errno == EEXIST) return RenameStatus::TargetExists;
        error = std::strerror(errno);
        return RenameStatus::Failed;
    }
    if (::unlink(from.c_str()) != 0) {
        error = std::strerror(errno);
        ::unlink(to.c_str()); // the second name was ours; the original stays as it was
        return RenameStatus::Failed;
    }
    return RenameStatus::Done;
}

} // namespace ddpdesk::os
