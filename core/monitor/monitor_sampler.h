#pragma once

// The background sampler: every interval (default 0.5 s = 2 Hz) it reads all GPUs (NVML) and the watched
// processes and hands one MonitorSnapshot to a callback. NVML is loaded on the sampler thread, so starting
// never blocks the caller on the driver. stop() wakes the thread at once (condition variable) and joins it.

#include "monitor/gpu_sample.h"
#include "monitor/nvml_status.h"
#include "monitor/process_stats.h"

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ddpdesk::monitor {

struct MonitorSnapshot {
    double t = 0.0;                       // Unix seconds when sampling began
    int sequence = 0;                     // 0 for the first snapshot of this sampler, then 1, 2, ...
    NvmlStatus nvml;                      // whether GPUs could be read, and why not
    std::vector<GpuSample> gpus;          // empty when NVML is unavailable or GPU sampling is off
    std::vector<ProcessSample> processes; // one per watched process, in the order given
    std::vector<std::string> notices;     // one-time news: NVML not available (first snapshot), GPU lost
};

struct MonitorOptions {
    double intervalSeconds = 0.5;
    bool sampleGpus = true; // false: never load NVML (CPU-only runs that want no driver probing)
    std::vector<WatchedProcess> processes; // can be changed later with setProcesses()
};

class MonitorSampler {
public:
    // Called on the sampler thread. Keep it short; marshal to a GUI thread yourself (e.g.
    // QMetaObject::invokeMethod with Qt::QueuedConnection). An exception escaping it is swallowed so sampling
    // goes on. It is never called once stop() has returned.
    using Callback = std::function<void(const MonitorSnapshot&)>;

    // Throws std::invalid_argument when intervalSeconds is not within [0.01, 3600].
    MonitorSampler(MonitorOptions options, Callback callback);
    ~MonitorSampler(); // stop()
    MonitorSampler(const MonitorSampler&) = delete;
    MonitorSampler& operator=(const MonitorSampler&) = delete;

    // Starts the thread; the first snapshot is taken immediately. Does nothing when already running.
    void start();

    // Wakes the thread and waits (at most timeoutSeconds) for it to end; a sample in progress finishes first.
    // Returns false when it did not end in time, which only a hung driver call causes: the thread is then
    // left to end by itself when the call returns, and it never calls back again. Safe to call twice, and
    // from the callback (then it only asks the thread to end and returns true).
    bool stop(double timeoutSeconds = kStopTimeoutSeconds);
    bool isRunning() const;

    // Replaces the watched processes (e.g. when workers start or restart); used from the next snapshot on.
    void setProcesses(std::vector<WatchedProcess> processes);

    static constexpr double kMinIntervalSeconds = 0.01;
    static constexpr double kMaxIntervalSeconds = 3600.0;
    static constexpr double kStopTimeoutSeconds = 10.0;

private:
    struct Shared; // what the thread uses: it may outlive this object after a stop() that timed out
    static void run(std::shared_ptr<Shared> shared);

    const double m_interval;
    const bool m_sampleGpus;
    const Callback m_callback;
    std::vector<WatchedProcess> m_initialProcesses;
    std::shared_ptr<Shared> m_shared;
    std::thread m_thread;
};

} // namespace ddpdesk::monitor
