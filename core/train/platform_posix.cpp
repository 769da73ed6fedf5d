#include "train/platform.h"

#include <thread>

#include <limits.h>
#include <malloc.h>
#include <sched.h>
#include <unistd.h>

namespace ddpdesk::train {

std::string hostName() {
    char name[HOST_NAME_MAX + 1] = {};
    if (gethostname(name, sizeof(name) - 1) != 0)
        return "localhost";
    return name;
}

std::int64_t processId() { return static_cast<std::int64_t>(getpid()); }

int logicalCores() {
#ifdef CPU_COUNT
    // Respect taskset/cgroup CPU affinity: the cores we may actually use.
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n > 0)
            return n;
    }
#endif
    unsigned n = std::thread::hardware_concurrency();
    return n > 0 ? static_cast<int>(n) : 1;
}

void keepFreedMemory() {
#if defined(__GLIBC__)
    // Every step frees and re-allocates the same multi-megabyte activations and gradient buffers. glibc would hand
    // them back to the kernel (munmap / heap trim) and fault them in again zero-filled on the next step: hundreds of
    // page faults per step, and step times that jitter, which in DDP makes every rank wait for the slowest.
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 128 << 20);
#endif
}

} // namespace ddpdesk::train
