#pragma once

// Node 0 of a multi-node run: what another node's launcher forwarded (node_link_feed.h), applied to the run's
// model the way a replay of node 0's metrics.jsonl applies it: its ranks' telemetry, log lines, starts and
// exits, and the stacks node 0 asked for. A failed rank's exit comes back to the supervisor, whose failure it
// may be.

#include "launch/model/run_model.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace ddpdesk::launch {

struct RemoteExit {
    int index = -1;
    int exitCode = -1;
    QString text; // "killed by signal 9 (SIGKILL)"
};

// `nproc`: this node's ranks come first in the model; an event for one of them (or for no rank) changes
// nothing here. Returns a failed rank's exit.
std::optional<RemoteExit> applyRemoteEvent(RunModel& model, int nproc, const nlohmann::json& event);

} // namespace ddpdesk::launch
