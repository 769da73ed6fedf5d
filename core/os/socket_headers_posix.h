#pragma once

// The system headers the socket code both systems share (tcp_socket.cpp) needs on POSIX, and the native
// handle type; socket_headers_win.h is the Windows side. Kept apart so POSIX headers stay in *_posix files.

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h> // gethostname

namespace ddpdesk::os::detail {
using NativeSocket = int;
} // namespace ddpdesk::os::detail
