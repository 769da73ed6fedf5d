#pragma once

namespace ddpdesk {

// A Windows GUI-subsystem program has no console: when started from one (`ddpdesk --version` in cmd.exe or
// PowerShell), reattach stdout/stderr to it so the text appears. A no-op elsewhere.
void attachParentConsole();

} // namespace ddpdesk
