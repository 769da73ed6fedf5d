#pragma once

// The Windows side of socket_headers_posix.h: Winsock's headers (gethostname included) and its handle type.

#include <winsock2.h>
#include <ws2tcpip.h>

namespace ddpdesk::os::detail {
using NativeSocket = SOCKET;
} // namespace ddpdesk::os::detail
