#pragma once

// Facts about processes on this machine, asked once for every layer: the worker (is a shared-memory peer
// still there?), the doctor (does the pid in an arrival record still run?) and the launcher (is a rank
// gone?). Plain C++17, no Qt, no LibTorch; OS calls in process_posix.cpp / process_win.cpp.

#include <cstdint>
#include <string>

namespace ddpdesk::os {

// Whether a process with this id is running. One that has exited but was not yet reaped by its parent (a
// POSIX zombie) is gone: it holds no lock, answers nothing and will never write again. A process we may not
// query (another user's) counts as running.
bool processAlive(std::int64_t pid);

std::int64_t currentPid();

// The short name of a process ("python3", "ddpdesk-worker.exe"); empty when it cannot be read. Linux shortens
// names to 15 bytes.
std::string processName(std::int64_t pid);

} // namespace ddpdesk::os
