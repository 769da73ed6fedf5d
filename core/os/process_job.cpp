// The portable part of process_job.h.
#include "os/process_job.h"

#include <chrono>
#include <thread>

namespace ddpdesk::launch {

void ProcessJob::endLeftovers(int graceMs) {
    if (!anyRunning()) return;
    if (stop(false, false)) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(graceMs);
        while (anyRunning() && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    stop(true, false);
}

} // namespace ddpdesk::launch
