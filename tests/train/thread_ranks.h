#pragma once

// Ranks as threads of this test process, each running the worker's own program (train::runRankInGroup: its
// flags, checks, data, model and Trainer) over one testsupport::ThreadProcessGroup instead of a store and
// Gloo, the way c10d tests its logic against FakeProcessGroup. The engine tests whose point is the training
// (accumulation, compression, precision, checkpoints) use it; what needs the process boundary (rendezvous,
// Gloo, exit codes of a process, the shared-memory exchange between processes) keeps real workers
// (worker_harness_std.h). No LibTorch header here: thread_ranks.cpp holds the group (model_compare.h says
// why).

#include <string>
#include <vector>

namespace ddpdesk::traintest {

// What one rank thread left: its exit code and the lines its process would have written.
struct ThreadRankOutput {
    int exitCode = -1;
    std::string events; // telemetry lines (the worker's stdout)
    std::string log;    // log lines (the worker's stderr)
};

// Runs ranks 0..world-1 of `common` + --rank R --world-size W at once, one thread each, and waits for all. A
// rank that ends (done or failed) leaves the group, so a peer still waiting for it fails as a lost peer at
// once, as it would when a process exits.
std::vector<ThreadRankOutput> runRankThreads(int world, const std::vector<std::string>& common);

} // namespace ddpdesk::traintest
