#pragma once

// Every thread body of DDP Desk runs inside runCaught(): an exception that leaves a thread's function calls
// std::terminate and ends the whole process (a launcher with every rank of the run, a store host with its
// run). Bytes from peers, scripts and shares are read without throwing (protocol/json_fields.h), but a thread
// also meets std::bad_alloc, std::system_error and what a library throws; here each becomes one named notice
// ("node link session: std::bad_alloc") handed to `notice`, and the thread ends as if its work were done.
// Header only, no OS calls.

#include <cstdio>
#include <exception>
#include <string>
#include <utility>

namespace ddpdesk::os {

// Runs fn(); true when it returned, false when it threw (then notice(what + ": " + why) was called; a notice
// that throws itself, or none given, falls back to one line on stderr).
template <typename Fn, typename Notice> bool runCaught(const char* what, Fn&& fn, Notice&& notice) noexcept {
    const char* why = nullptr;
    std::string text;
    try {
        std::forward<Fn>(fn)();
        return true;
    } catch (const std::exception& e) {
        try {
            text = e.what();
        } catch (...) {
        }
        why = text.empty() ? "an exception" : nullptr;
    } catch (...) {
        why = "an exception that is not a std::exception";
    }
    try {
        notice(std::string(what) + ": " + (why ? std::string(why) : text));
    } catch (...) {
        std::fprintf(stderr, "ddpdesk: %s ended by %s\n", what, why ? why : text.c_str());
    }
    return false;
}

template <typename Fn> bool runCaught(const char* what, Fn&& fn) noexcept {
    return runCaught(what, std::forward<Fn>(fn),
                     [](const std::string& line) { std::fprintf(stderr, "ddpdesk: %s\n", line.c_str()); });
}

} // namespace ddpdesk::os
