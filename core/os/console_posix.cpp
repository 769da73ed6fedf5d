// POSIX half of console.h.
#include "os/console.h"

#include <sys/ioctl.h>
#include <unistd.h>

namespace ddpdesk::os {

bool stderrIsTerminal() {
    return isatty(STDERR_FILENO) == 1;
}

int terminalColumns() {
    struct winsize ws = {};
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    return 80;
}

void attachParentConsole() {} // stdout is already the terminal (or wherever the caller sent it)

} // namespace ddpdesk::os
