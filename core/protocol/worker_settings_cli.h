#pragma once

// The WorkerSettings flags on a CLI11 command line: the worker's own and the CLI's `run`/`sweep` register
// them from the one table, so both accept the same spelling. Header-only, so core/protocol itself needs no
// CLI11 (its Windows cross build has none). Values are checked after parsing by settingProblems(), which
// names the flag, not here.

#include "protocol/worker_settings.h"

#include <CLI/CLI.hpp>

#include <type_traits>

namespace ddpdesk::protocol {

inline void addSettingOptions(CLI::App& app, WorkerSettings& s) {
    visitSettings(s, [&app](const SettingInfo& info, auto& field) {
        using T = std::decay_t<decltype(field)>;
        if constexpr (std::is_same_v<T, bool>)
            app.add_flag(info.flag, field, info.help);
        else
            app.add_option(info.flag, field, info.help);
    });
}

} // namespace ddpdesk::protocol
