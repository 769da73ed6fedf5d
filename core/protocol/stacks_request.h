#pragma once

// "Where does it hang?": how the launcher asks a live rank what it is doing, written once for both sides.
// The launcher gives each rank two paths in its environment. The rank keeps the stacks file open, announces
// itself in it once it can answer ("ddpdesk-stacks ready pid P rank R", plus " request-file" when it answers
// the request file rather than a signal) and appends its answer when asked. The last announcement holds: a
// rank may announce itself again, moving to the request file. Python ranks write every thread's stack
// (resources/python/ddpdesk_instrument.py: SIGUSR1 on POSIX until the script installs a SIGUSR1 handler of
// its own, which DDP Desk must never call, then the request file; always the request file on Windows),
// ddpdesk-worker ranks what they wait in (core/train/base/wait_report.h, always through the request file: a
// worker has no handler for SIGUSR1, whose default action would end it). The rank removes the request file
// once it answered.

namespace ddpdesk::protocol {

constexpr const char* kStacksFileEnv = "DDPDESK_STACKS_FILE";
constexpr const char* kStacksRequestEnv = "DDPDESK_STACKS_REQUEST";
constexpr const char* kStacksReadyPrefix = "ddpdesk-stacks ready";
constexpr const char* kStacksByRequestFile = "request-file";

} // namespace ddpdesk::protocol
