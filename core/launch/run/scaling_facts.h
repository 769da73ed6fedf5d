#pragma once

// What a run measured and was given, as diagnoseScaling (diagnose/scaling.h) reads it: its ranks' figures
// from the model, the threads each rank got (the user's OMP_NUM_THREADS for a script where it was set), this
// machine's cores, each rank's device, and where Gloo's traffic between the nodes goes.

#include "launch/config/run_config.h"
#include "launch/diagnose/scaling.h"
#include "launch/model/run_model.h"

namespace ddpdesk::launch {

ScalingFacts scalingFacts(const RunConfig& config, const RunModel& model);

} // namespace ddpdesk::launch
