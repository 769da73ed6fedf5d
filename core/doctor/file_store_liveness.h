#pragma once

// Is a FileStore file in use right now? c10d opens the file only for the instant of each operation, so an
// open handle is rarely caught; the answer combines every sign: locks and open handles, processes that name
// the file on their command line, our workers' arrival records whose pid is alive here, and a very recent
// write.

#include "doctor/doctor.h"
#include "doctor/os_probes.h"
#include "doctor/rank_census.h"

#include <filesystem>
#include <string>
#include <vector>

namespace ddpdesk::doctor {

struct StoreLiveness {
    std::vector<os::ProcessRef> holders; // lock / open handle: hard evidence
    std::vector<os::ProcessRef> users;   // command line / arrival record
    double ageSeconds = 0;               // since the last write
    bool recentlyWritten = false;

    bool live() const { return !holders.empty() || !users.empty() || recentlyWritten; }
    std::string describe() const;
    nlohmann::json processesJson() const;
};

StoreLiveness fileStoreLiveness(const std::filesystem::path& path, const RankCensus& census);

// Whether a store no process here is seen using may still be waited on. Ranks in Gloo's rendezvous only read
// the file, and ranks on other nodes sharing the folder are invisible here, so "nobody seen" is not "nobody
// there": a store is stale only when no rank can still be waiting on it.
struct StaleVerdict {
    bool stale = false;
    std::string
        variant; // why it is, or is not: "complete", "expired" / "other_node", "waiting", "world_unknown"
    std::string reason; // plain words, e.g. "1 of 2 ranks arrived 40 s ago; ranks may wait up to 30 min"
    std::vector<std::string> args; // the values `reason` embeds, in order (for a translated view)
    long long arrived = 0;
    int worldSize = 0; // 0: unknown
};

// `ageSeconds`: since the store's last write. Uses request.worldSize (else the world size the store records),
// rendezvousTimeoutSec, nodeRank and force.
StaleVerdict judgeStale(const DoctorRequest& request, const RankCensus& census, double ageSeconds);

// "30 min", "90 s": how long ranks may wait, for messages.
std::string durationText(double seconds);

} // namespace ddpdesk::doctor
