#include "console.h"

namespace ddpdesk {

void attachParentConsole() {} // stdout is already the terminal (or wherever the caller sent it)

} // namespace ddpdesk
