#include "os/owned_file.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ddpdesk::launch {

namespace {

bool writeAll(int fd, const std::string& bytes) {
    for (std::size_t done = 0; done < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += std::size_t(n);
    }
    return true;
}

} // namespace

CreateResult createOwnedFile(const std::filesystem::path& path, OwnedFile* id, std::string* error,
                             const std::string* privateContent) {
    // O_EXCL with O_CREAT fails on any existing name, a symbolic link included (it is not followed).
    const int fd =
        ::open(path.c_str(), (privateContent ? O_RDWR : O_RDONLY) | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
               privateContent ? 0600 : 0644);
    if (fd < 0) {
        const int err = errno;
        if (error) *error = std::strerror(err);
        return err == EEXIST ? CreateResult::AlreadyThere : CreateResult::Failed;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !id || (privateContent && !writeAll(fd, *privateContent))) {
        if (error) *error = std::strerror(errno);
        ::unlink(path.c_str());
        ::close(fd);
        return CreateResult::Failed;
    }
    *id = OwnedFile{std::uint64_t(st.st_dev), std::uint64_t(st.st_ino), std::intptr_t(fd), true};
    return CreateResult::Created;
}

bool removeOwnedFile(const std::filesystem::path& path, OwnedFile& id) {
    if (!id.valid) return false;
    struct stat st {};
    // lstat: a symbolic link put in its place is a different entry and is left alone.
    const bool same = ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
                      std::uint64_t(st.st_dev) == id.device && std::uint64_t(st.st_ino) == id.index;
    const bool removed = same && ::unlink(path.c_str()) == 0;
    ::close(int(id.handle)); // only now may the file number go to another file
    id = OwnedFile();
    return removed;
}

} // namespace ddpdesk::launch
