#pragma once

// Is a FileStore file in use right now? c10d opens the file only for the instant of each operation, so an open
// handle is rarely caught; the answer combines every sign: locks and open handles, processes that name the file on
// their command line, our workers' arrival records whose pid is alive here, and a very recent write.

#include "doctor/os_probes.h"
#include "doctor/rank_census.h"

#include <filesystem>
#include <string>
#include <vector>

namespace ddpdesk::doctor {

struct StoreLiveness {
    std::vector<os::ProcessRef> holders;  // lock / open handle: hard evidence
    std::vector<os::ProcessRef> users;    // command line / arrival record
    double ageSeconds = 0;                // since the last write
    bool recentlyWritten = false;

    bool live() const { return !holders.empty() || !users.empty() || recentlyWritten; }
    std::string describe() const;
    nlohmann::json processesJson() const;
};

StoreLiveness fileStoreLiveness(const std::filesystem::path& path, const RankCensus& census);

} // namespace ddpdesk::doctor
