#pragma once

// Internal: the OS calls under net_socket.cpp's portable logic (resolving, trying each address, binding each
// family), one definition each in net_socket_posix.cpp and net_socket_win.cpp. Error codes are the OS's own
// (errno, WSA errors); only these functions read them.

#include "net/net_socket.h"

#include <string>

namespace ddpdesk::net::detail {

// Whether `host` is a numeric address: one that answers without asking any resolver.
bool isNumericHost(const std::string& host);

// getaddrinfo, blocking, without a bound of its own: each address of `host` once, numeric.
Resolved resolveBlocking(const std::string& host);

// One connection attempt to a numeric address, bounded by `deadline`: true when connected
// (result.connection set); false with result saying why, or untouched when `numeric` is not numeric.
bool connectNumeric(const std::string& numeric, int port, TimePoint deadline, ConnectResult& result);

// Binds (not listens) one family's wildcard address on `port` the way a TCPStore server would, then releases
// it: 0, or the OS's error code. 0 where the family is not supported here: nothing to conflict with.
int bindWildcard(bool ipv6, int port);

// A bind error as tryBind reports it.
BindStatus bindStatusOf(int error);
std::string socketErrorText(int error);

} // namespace ddpdesk::net::detail
