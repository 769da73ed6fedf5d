#include "monitor/monitor_sampler.h"
#include "os/caught.h"

#include "monitor/gpu_reader.h"
#include "protocol/telemetry.h"

#include <chrono>
#include <cmath>
#include <stdexcept>

namespace ddpdesk::monitor {

struct MonitorSampler::Shared {
    double interval = 0.5;
    bool sampleGpus = true;
    Callback callback;

    std::mutex mutex; // guards everything below
    std::condition_variable changed;
    bool stopRequested = false;
    bool running = false;
    std::vector<WatchedProcess> processes;

    // Held while the callback runs, so stop() can promise that no call is in flight once it returns.
    std::mutex callbackMutex;
    std::thread::id threadId;
};

MonitorSampler::MonitorSampler(MonitorOptions options, Callback callback)
    : m_interval(options.intervalSeconds), m_sampleGpus(options.sampleGpus), m_callback(std::move(callback)),
      m_initialProcesses(std::move(options.processes)) {
    if (!std::isfinite(m_interval) || m_interval < kMinIntervalSeconds || m_interval > kMaxIntervalSeconds)
        throw std::invalid_argument("monitor interval must be between 0.01 and 3600 seconds, got " +
                                    std::to_string(m_interval));
}

MonitorSampler::~MonitorSampler() {
    stop();
}

void MonitorSampler::start() {
    if (m_shared) {
        std::lock_guard<std::mutex> lock(m_shared->mutex);
        if (m_shared->running && !m_shared->stopRequested) return;
    }
    stop(); // a previous thread that was asked to end from its own callback
    if (m_thread.joinable())
        m_thread.detach(); // restarted from that callback: the old thread ends right after it
    auto shared = std::make_shared<Shared>();
    shared->interval = m_interval;
    shared->sampleGpus = m_sampleGpus;
    shared->callback = m_callback;
    if (m_shared) {
        std::lock_guard<std::mutex> lock(m_shared->mutex);
        shared->processes = m_shared->processes;
    } else {
        shared->processes = m_initialProcesses;
    }
    shared->running = true;
    m_shared = shared;
    m_thread = std::thread([shared] {
        // A sample that throws (bad_alloc, a driver library's surprise) ends the sampling, named, never the
        // process.
        os::runCaught("the monitor's sampler", [&] { MonitorSampler::run(shared); });
    });
}

bool MonitorSampler::stop(double timeoutSeconds) {
    if (!m_shared) return true;
    {
        std::lock_guard<std::mutex> lock(m_shared->mutex);
        m_shared->stopRequested = true;
        if (m_shared->threadId == std::this_thread::get_id())
            return true; // inside the callback: the thread ends right after it
    }
    m_shared->changed.notify_all();
    if (!m_thread.joinable()) return true;
    bool ended = false;
    {
        std::unique_lock<std::mutex> lock(m_shared->mutex);
        ended = m_shared->changed.wait_for(lock, std::chrono::duration<double>(timeoutSeconds),
                                           [&] { return !m_shared->running; });
    }
    if (ended) {
        m_thread.join();
        return true;
    }
    // A driver call hangs. Wait for a callback in flight, so none runs after we return, then let it go.
    std::lock_guard<std::mutex> callbackLock(m_shared->callbackMutex);
    m_thread.detach();
    return false;
}

bool MonitorSampler::isRunning() const {
    if (!m_shared) return false;
    std::lock_guard<std::mutex> lock(m_shared->mutex);
    return m_shared->running;
}

void MonitorSampler::setProcesses(std::vector<WatchedProcess> processes) {
    if (!m_shared) {
        m_initialProcesses = std::move(processes);
        return;
    }
    std::lock_guard<std::mutex> lock(m_shared->mutex);
    m_shared->processes = std::move(processes);
}

void MonitorSampler::run(std::shared_ptr<Shared> shared) {
    {
        std::lock_guard<std::mutex> lock(shared->mutex);
        shared->threadId = std::this_thread::get_id();
    }
    std::unique_ptr<GpuReader> gpus;
    NvmlStatus nvml;
    nvml.reason = "GPU sampling is switched off";
    if (shared->sampleGpus) {
        gpus = std::make_unique<GpuReader>();
        nvml = gpus->status();
    }
    ProcessSampler processSampler;
    const auto interval = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(shared->interval));
    auto next = std::chrono::steady_clock::now();

    for (int sequence = 0;; ++sequence) {
        std::vector<WatchedProcess> watched;
        {
            std::lock_guard<std::mutex> lock(shared->mutex);
            if (shared->stopRequested) break;
            watched = shared->processes;
        }
        MonitorSnapshot snapshot;
        snapshot.t = protocol::nowSeconds();
        snapshot.sequence = sequence;
        snapshot.nvml = nvml;
        if (sequence == 0 && shared->sampleGpus && !nvml.available)
            snapshot.notices.push_back("NVML not available, no GPU telemetry: " + nvml.reason);
        if (gpus && nvml.available) {
            snapshot.gpus = gpus->sample();
            for (std::string& notice : gpus->takeNotices())
                snapshot.notices.push_back(std::move(notice));
        }
        snapshot.processes = processSampler.sample(watched);
        {
            std::lock_guard<std::mutex> callbackLock(shared->callbackMutex);
            bool stopping = false;
            {
                std::lock_guard<std::mutex> lock(shared->mutex);
                stopping = shared->stopRequested;
            }
            try {
                if (!stopping && shared->callback) shared->callback(snapshot);
            } catch (...) {
                // The callback's failure is its own business; the run's telemetry must keep flowing.
            }
        }

        // Fixed-rate schedule; after a slow sample (or a suspended machine) skip ahead instead of bursting.
        next += interval;
        auto now = std::chrono::steady_clock::now();
        if (next < now) next = now + interval;
        std::unique_lock<std::mutex> lock(shared->mutex);
        shared->changed.wait_until(lock, next, [&] { return shared->stopRequested; });
    }
    gpus.reset(); // NVML shuts down here, on the thread that used it
    {
        std::lock_guard<std::mutex> lock(shared->mutex);
        shared->running = false;
    }
    shared->changed.notify_all();
}

} // namespace ddpdesk::monitor
