#pragma once

// What stands beside a straggler warning (launch/watch/straggler_watch.h), from the monitor's last readings:
// its process's CPU share and threads; on a GPU, that GPU's utilization, temperature and SM clock (against
// the fastest rank's GPU's clock: a hot or power-capped GPU clocks down) and the other processes on it.

#include <QJsonObject>
#include <QStringList>

namespace ddpdesk::launch {

class RunModel;

struct StragglerEvidence {
    QStringList text;   // "CPU 34 %", "GPU 1 at 97 % utilization", "83 °C", ...
    QJsonObject fields; // the diagnosis event's (protocol/telemetry_fields.h, diagnosis STRAGGLER)
};

// slowGpu / fastestGpu: the GPU index of each rank (on its node); -1 for a rank on the CPU.
StragglerEvidence stragglerEvidence(const RunModel& model, int slowIndex, int slowGpu, int fastestIndex,
                                    int fastestGpu);

} // namespace ddpdesk::launch
