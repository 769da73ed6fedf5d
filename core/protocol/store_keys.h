#pragma once

// Keys ddpdesk-worker writes into the rendezvous store, read back by the doctor's rank census
// (core/doctor/rank_census.cpp). Keys as the worker passes them to c10d; c10d's stores add their own "/"
// prefix.

#include <string>

namespace ddpdesk::protocol {

// "ddpdesk/arrived/<rank>" = {"host", "pid", "t", "local_rank", ...}: written before the process group forms.
inline constexpr const char* kArrivedKeyPrefix = "ddpdesk/arrived/";
inline std::string arrivedKey(int rank) {
    return kArrivedKeyPrefix + std::to_string(rank);
}

} // namespace ddpdesk::protocol
