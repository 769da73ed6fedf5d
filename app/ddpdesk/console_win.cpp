#include "console.h"

#include <windows.h>

#include <cstdio>

namespace ddpdesk {

void attachParentConsole() {
    if (AttachConsole(ATTACH_PARENT_PROCESS)) {
        std::freopen("CONOUT$", "w", stdout);
        std::freopen("CONOUT$", "w", stderr);
    }
}

} // namespace ddpdesk
