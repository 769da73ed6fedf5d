#pragma once

// "Where does it hang?" for ddpdesk-worker: what this rank blocks in right now. Every blocking wait (store
// connect, arrivals, Gloo connect, each collective, each gradient bucket) is wrapped in a WaitScope; when the
// launcher asks (protocol/stacks_request.h), a watcher thread appends the current wait to the rank's stacks
// file: what, which phase and collective, which bucket, for how long, at which step.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace ddpdesk::train {

struct WaitPoint {
    std::string what;       // "the gradient allreduce", "ranks arriving at tcp://127.0.0.1:29500", ...
    std::string phase;      // rendezvous | training | evaluation | finish
    std::string collective; // allreduce | broadcast | barrier | store | connect
    int bucket = -1;        // 0-based gradient bucket, -1 when not one
    int buckets = 0;
    std::int64_t bytes = 0; // the collective's payload on this rank, when known
    std::string dtype = {}; // its element type ("float32"), when known
};

// Marks the wait for its lifetime; nests (the innermost one is reported). One thread at a time: the
// rendezvous thread until the rendezvous ends (the main thread meanwhile loads data, which it does not wait
// on), then the rank's training thread.
class WaitScope {
public:
    explicit WaitScope(WaitPoint point);
    ~WaitScope();
    WaitScope(const WaitScope&) = delete;
    WaitScope& operator=(const WaitScope&) = delete;

private:
    int m_depth;
};

void noteProgress(std::int64_t step, int epoch); // the step and epoch now being computed (1-based)

// {"waiting": true, "what", "phase", "collective", "bucket", "buckets", "waiting_s", "step", "epoch"}, or
// {"waiting": false, "step", "epoch"} between waits (computing).
nlohmann::json waitReport();
std::string waitReportText(const nlohmann::json& report); // one line for people

// Starts the watcher when the launcher gave this rank a stacks file and request file (no-op otherwise), and
// the live collective record (protocol/collective_progress.h) and its last collectives
// (protocol/collective_history.h) when it gave a collectives file: each outermost WaitScope of an allreduce,
// broadcast or barrier counts as one collective entered, and completed when it ends.
void startWaitReporter(int rank, std::int64_t pid);

} // namespace ddpdesk::train
