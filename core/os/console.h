#pragma once

// The terminal the CLI's progress line is drawn on: whether stderr is one, and how wide. isatty/ioctl in
// console_posix.cpp, the console API in console_win.cpp.

namespace ddpdesk::os {

bool stderrIsTerminal();
int terminalColumns(); // of stderr; 80 when unknown

} // namespace ddpdesk::os
