#include "train/shared_memory.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ddpdesk::train {

struct SharedMemory::Impl {
    std::string name;
    bool named = false;
};

namespace {

std::string osName(const std::string& token) {
    return "/ddpdesk-" + token;
}

std::runtime_error osError(const std::string& what, const std::string& name, int err) {
    return std::runtime_error(what + " " + name + ": " + std::strerror(err));
}

unsigned char* mapShared(int fd, std::size_t bytes, const std::string& name) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    int err = errno;
    close(fd);
    if (p == MAP_FAILED) throw osError("cannot map shared memory", name, err);
    return static_cast<unsigned char*>(p);
}

} // namespace

std::unique_ptr<SharedMemory> SharedMemory::create(const std::string& token, std::size_t bytes) {
    std::unique_ptr<SharedMemory> shm(new SharedMemory);
    shm->m_impl = std::make_unique<Impl>();
    shm->m_impl->name = osName(token);
    const std::string& name = shm->m_impl->name;
    int fd = shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0) throw osError("cannot create shared memory", name, errno);
    shm->m_impl->named = true;
    // posix_fallocate, not just ftruncate: a tmpfs that is too small (a container's 64 MB /dev/shm) must fail
    // here, not with SIGBUS when a gradient is first written.
    int err = ftruncate(fd, static_cast<off_t>(bytes)) == 0
                  ? posix_fallocate(fd, 0, static_cast<off_t>(bytes))
                  : errno;
    if (err != 0) {
        close(fd);
        shm->removeName();
        throw osError("cannot reserve " + std::to_string(bytes >> 10) + " KiB of shared memory for", name,
                      err);
    }
    try {
        shm->m_data = mapShared(fd, bytes, name);
    } catch (...) {
        shm->removeName();
        throw;
    }
    shm->m_size = bytes;
    return shm;
}

std::unique_ptr<SharedMemory> SharedMemory::open(const std::string& token, std::size_t bytes) {
    std::unique_ptr<SharedMemory> shm(new SharedMemory);
    shm->m_impl = std::make_unique<Impl>();
    shm->m_impl->name = osName(token);
    const std::string& name = shm->m_impl->name;
    int fd = shm_open(name.c_str(), O_RDWR, 0600);
    if (fd < 0) throw osError("cannot open shared memory", name, errno);
    struct stat st {};
    if (fstat(fd, &st) != 0 || static_cast<std::size_t>(st.st_size) < bytes) {
        close(fd);
        throw std::runtime_error("shared memory " + name + " is smaller than expected");
    }
    shm->m_data = mapShared(fd, bytes, name);
    shm->m_size = bytes;
    return shm;
}

SharedMemory::~SharedMemory() {
    if (m_data) munmap(m_data, m_size);
    if (m_impl && m_impl->named) removeName();
}

void SharedMemory::removeName() {
    if (m_impl && m_impl->named) {
        shm_unlink(m_impl->name.c_str());
        m_impl->named = false;
    }
}

bool processAlive(std::int64_t pid) {
    if (pid <= 0) return false;
    if (kill(static_cast<pid_t>(pid), 0) != 0 && errno != EPERM) return false;
#ifdef __linux__
    // kill() succeeds on a zombie; its state letter in /proc says it is gone.
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (std::getline(stat, line)) {
        std::size_t close = line.rfind(')');
        if (close != std::string::npos && close + 2 < line.size())
            return line[close + 2] != 'Z' && line[close + 2] != 'X';
    }
#endif
    return true;
}

} // namespace ddpdesk::train
