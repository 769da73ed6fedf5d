// Windows half of console.h.
#include "os/console.h"

#include <windows.h>

#include <io.h>
#include <stdio.h>

#include <cstdio>

namespace ddpdesk::os {

bool stderrIsTerminal() {
    return _isatty(_fileno(stderr)) != 0;
}

int terminalColumns() {
    CONSOLE_SCREEN_BUFFER_INFO info;
    if (GetConsoleScreenBufferInfo(GetStdHandle(STD_ERROR_HANDLE), &info))
        return info.srWindow.Right - info.srWindow.Left + 1;
    return 80;
}

namespace {

// A stream the starter already pointed somewhere (`ddpdesk --version > file`, a pipe from an installer or CI)
// must stay there; only one with nowhere to go is pointed at the console.
bool hasDestination(DWORD which) {
    const HANDLE h = GetStdHandle(which);
    return h && h != INVALID_HANDLE_VALUE && GetFileType(h) != FILE_TYPE_UNKNOWN;
}

} // namespace

void attachParentConsole() {
    const bool out = hasDestination(STD_OUTPUT_HANDLE);
    const bool err = hasDestination(STD_ERROR_HANDLE);
    if (out && err) return;
    if (!AttachConsole(ATTACH_PARENT_PROCESS)) return;
    if (!out) std::freopen("CONOUT$", "w", stdout);
    if (!err) std::freopen("CONOUT$", "w", stderr);
}

} // namespace ddpdesk::os
