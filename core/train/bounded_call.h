#pragma once

#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace ddpdesk::train {

// Runs `fn` on a helper thread and waits at most `limit`. Returns true when it finished (rethrowing what it
// threw), false when it did not: the call is then abandoned on its detached thread, and the caller must end
// the process soon (std::_Exit) because the call may still hold resources. Used for library calls that can
// block longer than the user's --timeout (c10d store connects to a non-store peer, Gloo pair connects to an
// unreachable address).
inline bool runBounded(const std::function<void()>& fn, std::chrono::milliseconds limit) {
    struct State {
        std::mutex mutex;
        std::condition_variable cv;
        bool done = false;
        std::exception_ptr error;
    };
    auto state = std::make_shared<State>();
    std::thread worker([state, fn]() {
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
    bool finished = state->cv.wait_for(lock, limit, [&] { return state->done; });
    lock.unlock();
    if (!finished) {
        worker.detach();
        return false;
    }
    worker.join();
    if (state->error) std::rethrow_exception(state->error);
    return true;
}

} // namespace ddpdesk::train
