#include "os/plain_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ddpdesk::os {

namespace {

const char* kindOf(mode_t m) {
    if (S_ISDIR(m)) return "a folder";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISSOCK(m)) return "a socket";
    if (S_ISCHR(m) || S_ISBLK(m)) return "a device";
    if (S_ISLNK(m)) return "a symbolic link";
    return "not a regular file";
}

} // namespace

void PlainFile::close() {
    if (m_handle != kNone) ::close(int(m_handle));
    m_handle = kNone;
}

PlainFile PlainFile::open(const std::filesystem::path& path, Mode mode, bool ownerOnly) {
    PlainFile f;
    int flags = O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK; // O_NONBLOCK: a FIFO's open must not wait for a writer
    switch (mode) {
    case Mode::CreateNew:
        flags |= O_WRONLY | O_CREAT | O_EXCL;
        break;
    case Mode::AppendExisting:
        flags |= O_WRONLY | O_APPEND;
        break;
    case Mode::ReadExisting:
        flags |= O_RDONLY;
        break;
    }
    int fd = -1;
    do {
        fd = ::open(path.c_str(), flags, ownerOnly ? 0600 : 0644);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        const int err = errno;
        if (err == ELOOP) { // O_NOFOLLOW met a link
            f.m_status = Status::NotRegular;
            f.m_error = path.string() + " is a symbolic link, not a regular file";
        } else if (err == EEXIST) {
            f.m_status = Status::AlreadyThere;
            f.m_error = path.string() + " exists already";
        } else if (err == ENOENT) {
            f.m_status = Status::Missing;
            f.m_error = path.string() + " does not exist";
        } else if (err == ENXIO || err == EISDIR) { // a FIFO without a reader, a folder opened to write
            f.m_status = Status::NotRegular;
            f.m_error = path.string() + " is not a regular file";
        } else {
            f.m_error = "cannot open " + path.string() + ": " + std::strerror(err);
        }
        return f;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        f.m_status = Status::NotRegular;
        f.m_error = path.string() + " is " + kindOf(st.st_mode) + ", not a regular file";
        ::close(fd);
        return f;
    }
    // Blocking again for the regular file's reads and writes (O_NONBLOCK means nothing for them, but be
    // plain).
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    f.m_handle = fd;
    f.m_status = Status::Open;
    return f;
}

bool PlainFile::writeAll(const char* data, std::size_t size) {
    if (m_handle == kNone) return false;
    for (std::size_t done = 0; done < size;) {
        const ssize_t n = ::write(int(m_handle), data + done, size - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            m_error = std::strerror(n < 0 ? errno : EIO);
            return false;
        }
        done += std::size_t(n);
    }
    return true;
}

std::int64_t PlainFile::readAt(std::uint64_t offset, char* data, std::size_t size) {
    if (m_handle == kNone) return -1;
    for (;;) {
        const ssize_t n = ::pread(int(m_handle), data, size, off_t(offset));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) m_error = std::strerror(errno);
        return n;
    }
}

bool PlainFile::sync() {
    if (m_handle == kNone) return false;
    if (::fsync(int(m_handle)) == 0) return true;
    m_error = std::strerror(errno);
    return false;
}

bool isPlainFileEntry(const std::filesystem::path& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool replaceFileContent(const std::filesystem::path& path, const std::string& bytes, std::string* error) {
    std::random_device rd;
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, ".ddpdesk-new-%08x", unsigned(rd()));
    std::filesystem::path temp = path;
    temp += suffix;
    PlainFile f = PlainFile::open(temp, PlainFile::Mode::CreateNew);
    if (!f.isOpen()) {
        if (error) *error = f.error();
        return false;
    }
    if (!f.writeAll(bytes.data(), bytes.size()) || !f.sync()) {
        if (error) *error = "cannot write " + temp.string() + ": " + f.error();
        f.close();
        ::unlink(temp.c_str());
        return false;
    }
    f.close();
    // rename() replaces the entry at `path` itself: a link there is replaced, its target never touched.
    if (::rename(temp.c_str(), path.c_str()) != 0) {
        if (error) *error = "cannot replace " + path.string() + ": " + std::strerror(errno);
        ::unlink(temp.c_str());
        return false;
    }
    return true;
}

} // namespace ddpdesk::os
