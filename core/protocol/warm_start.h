#pragma once

// A warm worker: ddpdesk-worker started ahead of a run with kWaitForConfigFlag as its only argument. It loads
// LibTorch, then waits on stdin for one line, a WarmStartRequest as JSON, and runs as if it had been started
// with those arguments, environment and folder. End of input before the line: it exits 0 without a word (the
// launcher no longer needs it). The launcher writes the line (launch/warm_workers.h), the worker reads it
// (train/worker.cpp).

#include <map>
#include <string>
#include <vector>

namespace ddpdesk::protocol {

inline constexpr const char* kWaitForConfigFlag = "--wait-for-config";

struct WarmStartRequest {
    std::vector<std::string> args;          // the worker's arguments, without the program
    std::map<std::string, std::string> env; // variables to set (UTF-8)
    std::vector<std::string> unset;         // variables to remove
    std::string cwd;                        // working folder (UTF-8); empty: unchanged
};

// One line of JSON, without the newline.
std::string encodeWarmStart(const WarmStartRequest& request);
// False with a reason naming what is wrong when `line` is not such a request.
bool decodeWarmStart(const std::string& line, WarmStartRequest* request, std::string* error);

} // namespace ddpdesk::protocol
