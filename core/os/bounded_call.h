#pragma once

// Calls that have no timeout of their own and may block far longer than the caller may wait: getaddrinfo,
// stat on a network mount that went away, a c10d store connect to a peer that is not a store, a Gloo pair
// connect to an unreachable address. Each runs on a helper thread; the caller stops waiting after its limit.
// The helper is abandoned, not cancelled: it finishes (or stays blocked in the OS) on its own, holding only
// what it captured by value, so results travel through holders it owns a share of. Header only, no OS calls.

#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>

namespace ddpdesk::os {

// Runs `fn` on a helper thread and waits at most `limit`. true: it finished (what it threw is rethrown here);
// false: it did not, and stays abandoned on its detached thread - a caller that cannot know what the call
// still holds should end the process soon (std::_Exit). Throws std::system_error when no thread can be had.
template <typename Fn> bool runBounded(Fn fn, std::chrono::milliseconds limit) {
    struct State {
        std::mutex mutex;
        std::condition_variable cv;
        bool done = false;
        std::exception_ptr error;
    };
    auto state = std::make_shared<State>();
    std::thread worker([state, fn = std::move(fn)]() mutable {
        std::exception_ptr error;
        try {
            fn();
        } catch (...) {
            error = std::current_exception();
        }
        std::lock_guard<std::mutex> lock(state->mutex);
        state->error = error;
        state->done = true;
        state->cv.notify_all();
    });
    std::unique_lock<std::mutex> lock(state->mutex);
    const bool finished = state->cv.wait_for(lock, limit, [&] { return state->done; });
    lock.unlock();
    if (!finished) {
        worker.detach();
        return false;
    }
    worker.join();
    if (state->error) std::rethrow_exception(state->error);
    return true;
}

// What `fn` returned within `limit`, or nothing. Also nothing when no helper thread can be had: a probe then
// reads "no answer" rather than block without a bound.
template <typename T, typename Fn> std::optional<T> callBounded(Fn fn, std::chrono::milliseconds limit) {
    auto value = std::make_shared<std::optional<T>>();
    try {
        if (!runBounded([value, fn = std::move(fn)]() mutable { *value = fn(); }, limit)) return std::nullopt;
    } catch (const std::system_error&) {
        return std::nullopt;
    }
    return std::move(*value);
}

} // namespace ddpdesk::os
