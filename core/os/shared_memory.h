#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace ddpdesk::train {

// What SharedMemory::open() throws for a block that exists but is not this user's own (another user owns it,
// or others than its owner may write it): its contents may be anyone's, and waiting will not change that.
class UntrustedSharedMemory : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A named block of memory that processes on one machine map together (POSIX shm_open / Windows file mapping;
// shared_memory_posix.cpp / shared_memory_win.cpp). The memory starts zeroed.
class SharedMemory {
public:
    // `token` is a short [0-9a-z-] name; the OS name is derived from it. create() fails if the name exists,
    // and reserves the pages up front so a full /dev/shm is an error here rather than a crash on first write.
    // Both throw std::runtime_error with the OS reason.
    static std::unique_ptr<SharedMemory> create(const std::string& token, std::size_t bytes);
    // open() maps only a block this user owns and nobody else may open (POSIX: same uid, no group/other
    // permission bits; Windows: its owner is this process's user or default owner), else it throws
    // UntrustedSharedMemory: a name derived from something an attacker can learn may have been taken first.
    static std::unique_ptr<SharedMemory> open(const std::string& token, std::size_t bytes);
    // The OS name for `token` ("/ddpdesk-TOKEN" for shm_open, "Local\ddpdesk-TOKEN" on Windows).
    static std::string osName(const std::string& token);
    ~SharedMemory();
    SharedMemory(const SharedMemory&) = delete;
    SharedMemory& operator=(const SharedMemory&) = delete;

    unsigned char* data() const { return m_data; }
    std::size_t size() const { return m_size; }

    // Removes the name once every process has mapped the block, so nothing is left behind when a process
    // crashes (POSIX; Windows mappings vanish with their last handle anyway). Until then a SIGTERM, SIGINT or
    // SIGHUP removes the name too (a handler installed by create(), which then lets the signal take its
    // course); only SIGKILL in that window can leave it behind.
    void removeName();
    // Removes the name of a block another process created (the last of the processes that had to open it).
    static void removeName(const std::string& token);
    // Removes the name of every block this process created and still names: for an exit that skips
    // destructors (std::_Exit after an error).
    static void removeCreatedNames();

    struct Impl;

private:
    SharedMemory() = default;
    std::unique_ptr<Impl> m_impl;
    unsigned char* m_data = nullptr;
    std::size_t m_size = 0;
};

} // namespace ddpdesk::train
