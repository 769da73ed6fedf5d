#pragma once

// The WorkerSettings flags on a CLI11 command line: the worker's own and the CLI's `run`/`sweep` register
// them from the one table, so both accept the same spelling. Header-only, so core/protocol itself needs no
// CLI11 (its Windows cross build has none). Values are checked after parsing by settingProblems(), which
// names the flag, not here.

#include "protocol/worker_settings.h"

#include <CLI/CLI.hpp>

#include <charconv>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

namespace ddpdesk::protocol {

template <class T> struct Unwrapped { using type = T; };
template <class T> struct Unwrapped<std::optional<T>> { using type = T; };

// An integer's text that its type cannot hold is refused by name: CLI11 alone would clamp it silently
// (18446744073709551616 read as 2^63-1).
template <class T> CLI::Validator fitsInteger() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            T v{};
            const char* end = text.data() + text.size();
            const auto [ptr, ec] = std::from_chars(text.data(), end, v);
            if (ec == std::errc::result_out_of_range)
                return "'" + text + "' is out of range (" + std::to_string(std::numeric_limits<T>::min()) +
                       " to " + std::to_string(std::numeric_limits<T>::max()) + ")";
            return {}; // not a number at all: CLI11's own conversion says so
        },
        "INT");
}

inline void addSettingOptions(CLI::App& app, WorkerSettings& s) {
    visitSettings(s, [&app](const SettingInfo& info, auto& field) {
        using T = std::decay_t<decltype(field)>;
        if constexpr (std::is_same_v<T, bool>) {
            app.add_flag(info.flag, field, info.help);
        } else {
            CLI::Option* option = app.add_option(info.flag, field, info.help);
            using V = typename Unwrapped<T>::type;
            if constexpr (std::is_integral_v<V>) option->check(fitsInteger<V>());
        }
    });
}

} // namespace ddpdesk::protocol
