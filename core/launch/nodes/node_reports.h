#pragma once

// Node 0 of a multi-node run: what the other nodes' launchers told it (the node table of the run's model), in
// the form the doctor sets beside the store's facts (doctor::NodeReport: NODE_* findings).

#include "doctor/doctor.h"

#include <vector>

namespace ddpdesk::launch {

class RunModel;

// Empty unless the model holds the other nodes (node 0 with the link up). nowT: unix seconds.
std::vector<doctor::NodeReport> nodeReports(const RunModel& model, double nowT);

} // namespace ddpdesk::launch
