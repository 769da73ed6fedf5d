#pragma once

// Who is holding everyone up: the ranks' live collective records (protocol/collective_progress.h) compared.
// Ranks waiting inside collective #N while others have not entered it yet: those others hold the run up
// (RANK_BEHIND). Every rank inside collective #N, but not the same one (another op, another size): their code
// paths diverged and none can finish (COLLECTIVE_MISMATCH). Every rank inside the same collective and none
// behind: nobody here is late, so a peer elsewhere or the network is (COLLECTIVE_WAIT_ALL). Plain C++: the
// launcher's watch and tests feed it.

#include "protocol/collective_progress.h"

#include <optional>
#include <string>
#include <vector>

namespace ddpdesk::launch {

struct RankCollectives {
    int rank = -1;
    protocol::CollectiveRecord record;
};

// What one rank waits in (COLLECTIVE_MISMATCH names each).
struct RankWait {
    int rank = -1;
    std::string kind, detail;
    std::int64_t bytes = 0;
};

struct HoldUp {
    std::string code;         // protocol::diagnosis::RankBehind, CollectiveWaitAll or CollectiveMismatch
    std::vector<int> behind;  // ranks that have not entered the collective (RANK_BEHIND)
    std::vector<int> waiting; // ranks inside it
    std::int64_t number = 0;  // the collective's number (entered count of the ranks inside)
    std::string kind, detail;
    std::int64_t bytes = 0;
    double waitedS =
        0; // since the first waiting rank entered (RANK_BEHIND), the last one (COLLECTIVE_WAIT_ALL)
    std::vector<RankWait> each; // COLLECTIVE_MISMATCH: the ranks inside collective #number, each as it is
};

struct HoldUpThresholds {
    double behindS = 2.5; // a rank this late into a collective others wait in is named (jitter is not)
    double allWaitS =
        15; // every rank this long inside one collective (a big allreduce on a slow link is not)
};

// Needs two ranks or more with records; nullopt while nothing holds the run up.
std::optional<HoldUp> findHoldUp(const std::vector<RankCollectives>& ranks, double now,
                                 const HoldUpThresholds& thresholds = {});

// findHoldUp on the counts the ranks keep themselves, else, where every rank has PyTorch's Flight Recorder,
// on its counts: a collective reached past torch.distributed's functions (ProcessGroup.allreduce, DDP's own
// broadcasts) is only there.
std::optional<HoldUp> findHoldUpByAnyCount(const std::vector<RankCollectives>& ranks, double now,
                                           const HoldUpThresholds& thresholds = {});

// "allreduce #57 (DDP gradients, 4.1 MB)"
std::string describeCollective(const HoldUp& h);

} // namespace ddpdesk::launch
