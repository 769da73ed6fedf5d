#pragma once

#include <cstdint>
#include <string>

namespace ddpdesk::train {

// The few facts about the running process that need OS calls (platform_posix.cpp / platform_win.cpp).
std::string hostName();
std::int64_t processId();
// Logical CPU cores visible to this process (at least 1).
int logicalCores();
// Keeps freed memory in the process for reuse instead of returning it to the OS after each step.
void keepFreedMemory();

} // namespace ddpdesk::train
