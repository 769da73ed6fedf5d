#include "os/shared_memory.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ddpdesk::train {

struct SharedMemory::Impl {
    std::string name;
    bool named = false;
    int pendingSlot = -1; // this name's slot for the signal handler while it is on disk
};

namespace {

// Names created but not yet unlinked, readable from a signal handler: a rank stopped by SIGTERM/SIGINT/SIGHUP
// between shm_open and removeName() (rank 0 waits there for every rank to map the block) would otherwise
// leave the block in /dev/shm until reboot. Fixed slots, lock-free flags: no allocation or lock in the
// handler.
constexpr int kPendingSlots = 8;
constexpr std::size_t kNameBytes = 64;
char g_pendingName[kPendingSlots][kNameBytes];
std::atomic<int> g_pendingUsed[kPendingSlots];
std::mutex g_pendingMutex; // slot allocation only (never taken in the handler)

constexpr int kCleanupSignals[] = {SIGTERM, SIGINT, SIGHUP};
struct sigaction g_previous[3];
bool g_handlersInstalled = false;

void unlinkPendingNames() {
    for (int i = 0; i < kPendingSlots; ++i)
        if (g_pendingUsed[i].load(std::memory_order_acquire))
            shm_unlink(g_pendingName[i]); // async-signal-safe on Linux (an unlink() under /dev/shm)
}

void onCleanupSignal(int sig, siginfo_t* info, void* context) {
    const int saved = errno;
    unlinkPendingNames();
    for (int i = 0; i < 3; ++i) {
        if (kCleanupSignals[i] != sig) continue;
        const struct sigaction& previous = g_previous[i];
        if (previous.sa_flags & SA_SIGINFO) {
            if (previous.sa_sigaction) previous.sa_sigaction(sig, info, context);
        } else if (previous.sa_handler == SIG_DFL) {
            // The default action, so the exit status still says "killed by SIGTERM": the signal is blocked
            // while this handler runs and is delivered again, to the default action, when it returns.
            sigaction(sig, &previous, nullptr);
            raise(sig);
        } else if (previous.sa_handler != SIG_IGN) {
            previous.sa_handler(sig);
        }
    }
    errno = saved;
}

// Called with g_pendingMutex held. A signal the process ignores stays ignored.
void installCleanupHandlers() {
    if (g_handlersInstalled) return;
    g_handlersInstalled = true;
    for (int i = 0; i < 3; ++i) {
        struct sigaction current {};
        sigaction(kCleanupSignals[i], nullptr, &current);
        g_previous[i] = current;
        if (!(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_IGN) continue;
        struct sigaction sa {};
        sa.sa_sigaction = onCleanupSignal;
        sa.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&sa.sa_mask);
        sigaction(kCleanupSignals[i], &sa, nullptr);
    }
}

// Registered before shm_open, so no moment exists in which the name is on disk but unknown to the handler.
int registerPendingName(const std::string& name) {
    if (name.size() >= kNameBytes) return -1;
    std::lock_guard<std::mutex> lock(g_pendingMutex);
    installCleanupHandlers();
    for (int i = 0; i < kPendingSlots; ++i) {
        if (g_pendingUsed[i].load(std::memory_order_relaxed)) continue;
        std::memcpy(g_pendingName[i], name.c_str(), name.size() + 1);
        g_pendingUsed[i].store(1, std::memory_order_release);
        return i;
    }
    return -1; // more blocks than slots at once: that one is only cleaned up by removeName()/the destructor
}

void forgetPendingName(int slot) {
    if (slot < 0) return;
    std::lock_guard<std::mutex> lock(g_pendingMutex);
    g_pendingUsed[slot].store(0, std::memory_order_release);
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

std::string SharedMemory::osName(const std::string& token) {
    return "/ddpdesk-" + token;
}

std::unique_ptr<SharedMemory> SharedMemory::create(const std::string& token, std::size_t bytes) {
    std::unique_ptr<SharedMemory> shm(new SharedMemory);
    shm->m_impl = std::make_unique<Impl>();
    shm->m_impl->name = osName(token);
    const std::string& name = shm->m_impl->name;
    const int slot = registerPendingName(name);
    int fd = shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0) {
        const int err = errno;
        forgetPendingName(slot); // EEXIST: the name is someone else's and must not be unlinked by us
        throw osError("cannot create shared memory", name, err);
    }
    shm->m_impl->named = true;
    shm->m_impl->pendingSlot = slot;
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
    if (fstat(fd, &st) != 0) {
        const int err = errno;
        close(fd);
        throw osError("cannot inspect shared memory", name, err);
    }
    // create() makes blocks 0600: anything else was made by someone else, or opened up to others since.
    if (st.st_uid != geteuid()) {
        close(fd);
        throw UntrustedSharedMemory("shared memory " + name + " belongs to another user (uid " +
                                    std::to_string(st.st_uid) + "; this process runs as uid " +
                                    std::to_string(geteuid()) + "): not used");
    }
    if ((st.st_mode & 077) != 0) {
        close(fd);
        char mode[8];
        std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
        throw UntrustedSharedMemory("shared memory " + name + " is open to other users (mode " + mode +
                                    "; this process makes its blocks 0600): not used");
    }
    if (static_cast<std::size_t>(st.st_size) < bytes) {
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
        forgetPendingName(std::exchange(m_impl->pendingSlot, -1));
    }
}

void SharedMemory::removeName(const std::string& token) {
    shm_unlink(osName(token).c_str());
}

void SharedMemory::removeCreatedNames() {
    unlinkPendingNames();
}

} // namespace ddpdesk::train
