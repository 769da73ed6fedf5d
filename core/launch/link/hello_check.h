#pragma once

// What node 0 checks of another node's launcher, whichever way its frames come (a connection or a folder):
// its hello, and that each event it forwards is one of its own ranks'. Plain C++.

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ddpdesk::launch::link {

struct RunShape {
    int nnodes = 0, worldSize = 0, nproc = 0;
};

// Why a verified hello is not one of this run's nodes ("" when it is).
std::string helloRefusal(const nlohmann::json& hello, const RunShape& run);

// The events of an events frame that are node `node`'s to say (its ranks', or its launcher's own: rank -1),
// each tagged with that node; the rest are left out.
std::vector<nlohmann::json> nodeEvents(nlohmann::json& frame, int node, int nproc);

} // namespace ddpdesk::launch::link
