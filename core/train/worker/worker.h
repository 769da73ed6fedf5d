#pragma once

#include <string>
#include <vector>

namespace ddpdesk::train {

class Collectives;

// The whole ddpdesk-worker program (the contract is in docs/engine.md): parses flags, resolves identity,
// loads data and model, rendezvous, trains. Returns the exit code; failures after rendezvous started end the
// process with std::_Exit after the `error` event, because c10d/Gloo threads may still be blocked and must
// not be joined.
int runWorker(int argc, const char* const* argv);

// The same rank with its group given instead of made by a rendezvous: the engine tests run ranks as threads
// of one process (tests/train/thread_ranks.h) through the worker's own flags, checks, data, model and
// trainer. `args` are the flags after the program name (no store needed). Returns the exit code the process
// would give, after the same `error` event; it never ends the process. Telemetry goes to
// TelemetryEmitter::instance() of the calling thread (TelemetryEmitter::ThreadSink).
int runRankInGroup(const std::vector<std::string>& args, Collectives& group);

} // namespace ddpdesk::train
