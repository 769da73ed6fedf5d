#pragma once

// Why this header exists: tcp_socket.cpp writes resolving, listening, the local-address check and the free
// port once for both systems; these are the few OS calls those bodies need, defined in tcp_socket_posix.cpp
// and tcp_socket_win.cpp, which keep only handles, polling and error codes. The two numeric-address helpers
// go the other way, shared for the halves' connectNumeric. Internal: included by those three files alone.

#include <cstdint>
#include <string>

struct addrinfo;

namespace ddpdesk::os::detail {

// Defined in tcp_socket.cpp:
// A numeric address as a socket address without asking any resolver (free it with freeaddrinfo), or nullptr.
addrinfo* numericAddrinfo(const std::string& numeric, int port);
// The address of `ai` in numeric form, "?" when it has none.
std::string numericAddress(const addrinfo* ai);

// Defined in each half:
// Winsock must be started before the first socket or resolver call; nothing to do on POSIX.
void ensureSockets();
// The error code of the socket call that just failed: errno, or WSAGetLastError().
int lastSocketError();
// getaddrinfo's failure in words: POSIX has gai_strerror, Winsock returns WSA error codes.
std::string resolveErrorText(int rc);
// A stream socket of `family` (close-on-exec on POSIX); false when none could be made.
bool openStreamSocket(int family, std::intptr_t& handle);
// A non-blocking stream socket of `family` with this OS's rule for sharing its port (SO_REUSEADDR on POSIX,
// SO_EXCLUSIVEADDRUSE on Windows) and IPv6 alone on an IPv6 one, ready to bind and listen; false with the OS
// error code in `error` when none could be made.
bool openListenSocket(int family, std::intptr_t& handle, int& error);
void closeSocket(std::intptr_t handle);

} // namespace ddpdesk::os::detail
