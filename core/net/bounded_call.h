#pragma once

// Internal: runs a call that has no timeout of its own (getaddrinfo, stat on a network mount that went away)
// in a detached helper thread and stops waiting for it after a deadline. The helper is abandoned, not
// cancelled: it finishes (or stays blocked in the OS) on its own, holding only what it captured by value.

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>

namespace ddpdesk::net::detail {

template <typename T, typename Fn> std::optional<T> callBounded(Fn fn, std::chrono::milliseconds timeout) {
    struct Shared {
        std::mutex mutex;
        std::condition_variable done;
        std::optional<T> value;
    };
    auto shared = std::make_shared<Shared>();
    try {
        std::thread([shared, fn = std::move(fn)]() mutable {
            T value = fn();
            std::lock_guard<std::mutex> lock(shared->mutex);
            shared->value = std::move(value);
            shared->done.notify_all();
        }).detach();
    } catch (const std::system_error&) {
        return std::nullopt; // no thread to be had: treat as "no answer" rather than block without a bound
    }
    std::unique_lock<std::mutex> lock(shared->mutex);
    if (!shared->done.wait_for(lock, timeout, [&] { return shared->value.has_value(); })) return std::nullopt;
    return std::move(shared->value);
}

} // namespace ddpdesk::net::detail
