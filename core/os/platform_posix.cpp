#include "os/platform.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <poll.h>
#include <sched.h>
#include <unistd.h>

namespace ddpdesk::train {

std::string hostName() {
    char name[HOST_NAME_MAX + 1] = {};
    if (gethostname(name, sizeof(name) - 1) != 0) return "localhost";
    return name;
}

int logicalCores() {
#ifdef CPU_COUNT
    // Respect taskset/cgroup CPU affinity: the cores we may actually use.
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n > 0) return n;
    }
#endif
    unsigned n = std::thread::hardware_concurrency();
    return n > 0 ? static_cast<int>(n) : 1;
}

void keepFreedMemory() {
#if defined(__GLIBC__)
    // Every step frees and re-allocates the same multi-megabyte activations and gradient buffers. glibc would
    // hand them back to the kernel (munmap / heap trim) and fault them in again zero-filled on the next step:
    // hundreds of page faults per step, and step times that jitter, which in DDP makes every rank wait for
    // the slowest.
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 128 << 20);
#endif
}

std::string replaceFileDurably(const std::filesystem::path& tmp, const std::filesystem::path& target,
                               const char* data, std::size_t size, bool* tmpTaken) {
    if (tmpTaken) *tmpTaken = false;
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
        const int err = errno;
        if (tmpTaken) *tmpTaken = err == EEXIST;
        return "cannot create " + tmp.string() + ": " + std::strerror(err);
    }
    std::string why;
    for (std::size_t done = 0; done < size && why.empty();) {
        const ssize_t n = ::write(fd, data + done, size - done);
        if (n < 0 && errno != EINTR)
            why = "writing " + tmp.string() + " failed: " + std::strerror(errno);
        else if (n == 0)
            why = "writing " + tmp.string() + " failed: no progress";
        else if (n > 0)
            done += static_cast<std::size_t>(n);
    }
    if (why.empty() && ::fsync(fd) != 0)
        why = "flushing " + tmp.string() + " to the disk failed: " + std::strerror(errno);
    if (::close(fd) != 0 && why.empty()) why = "writing " + tmp.string() + " failed: " + std::strerror(errno);
    if (why.empty() && ::rename(tmp.c_str(), target.c_str()) != 0)
        why = "cannot replace " + target.string() + ": " + std::strerror(errno);
    if (!why.empty()) {
        ::unlink(tmp.c_str());
        return why;
    }
    // The new name is on the disk only once the folder is: without this a power cut can bring back the old
    // file.
    const std::filesystem::path dir =
        target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
    return std::string();
}

bool setEnvironmentVariable(const std::string& name, const std::string* value) {
    return (value ? ::setenv(name.c_str(), value->c_str(), 1) : ::unsetenv(name.c_str())) == 0;
}

} // namespace ddpdesk::train

namespace ddpdesk::os {

std::string executableName(const std::string& base) {
    return base;
}

std::string defaultPythonCommand() {
    return "/usr/bin/python3";
}

bool windowSystemAlwaysPresent() {
    return false;
}

bool printedCommandsAreForCmd() {
    return false;
}

bool standardOutputHasRoom() {
    // A pipe polls writable while one of its buffers is free, which holds a line of up to a page.
    pollfd p{STDOUT_FILENO, POLLOUT, 0};
    return ::poll(&p, 1, 0) != 0 && (p.revents & (POLLOUT | POLLERR | POLLHUP)) != 0;
}

} // namespace ddpdesk::os
