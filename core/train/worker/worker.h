#pragma once

namespace ddpdesk::train {

// The whole ddpdesk-worker program (the contract is in docs/engine.md): parses flags, resolves identity,
// loads data and model, rendezvous, trains. Returns the exit code; failures after rendezvous started end the
// process with std::_Exit after the `error` event, because c10d/Gloo threads may still be blocked and must
// not be joined.
int runWorker(int argc, const char* const* argv);

} // namespace ddpdesk::train
