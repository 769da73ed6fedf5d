#include "train/platform.h"

#include <thread>

#include <limits.h>
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

} // namespace ddpdesk::train
