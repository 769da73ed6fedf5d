#pragma once

// The terminal the CLI's progress line is drawn on: whether stderr is one, and how wide; and the GUI's way to
// the console it was started from. isatty/ioctl in console_posix.cpp, the console API in console_win.cpp.

namespace ddpdesk::os {

bool stderrIsTerminal();
int terminalColumns(); // of stderr; 80 when unknown

// A Windows GUI-subsystem program has no console: when started from one (`ddpdesk --version` in cmd.exe or
// PowerShell), reattach stdout/stderr to it so the text appears. A no-op elsewhere.
void attachParentConsole();

} // namespace ddpdesk::os
