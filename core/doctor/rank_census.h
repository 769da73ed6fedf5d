#pragma once

// Which ranks have reached the rendezvous, pieced together from the keys a store holds:
//   "ddpdesk/arrived/<rank>"                 our workers, JSON {"host","pid","t"} written before the process
//   group
//   ".../<device>/rank_<rank>"               Gloo's full-mesh rendezvous (value: the rank's hostname), 1.x
//   ".../<group>//<dev>//<ctx>/<rank>"        the same in PyTorch 2.x (value: hostname length + hostname +
//   addresses)
//   ".../store_based_barrier_key:<n>"        torch.distributed's post-init barrier counter (Python ranks)
//   "init/"                                  TCPStore's count of clients that joined (Python's env:// ranks)
//   "/worker/attempt_<n>/..."                torchrun's agent store in PyTorch 1.x: a restart's keys nest
//   under it
// The same census serves a FileStore (all keys, with history) and a TCPStore (known keys probed one by one).

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ddpdesk::doctor {

struct RankCensus {
    std::set<int> arrived;                        // ranks known by index
    std::map<int, nlohmann::json> ddpdeskRecords; // rank -> our worker's arrival record
    std::map<int, std::string> glooHosts;         // rank -> hostname Gloo published
    std::set<int> duplicates;      // ranks claimed by two different processes (FileStore history)
    long long initCount = -1;      // TCPStore clients that joined, -1 unknown
    long long barrierCount = -1;   // ranks past the process-group barrier, -1 unknown
    int agentAttempt = -1;         // torchrun agent store (1.x): the restart whose keys were read, -1 none
    std::set<std::string> sources; // which kinds of keys were seen

    bool empty() const { return arrived.empty() && initCount < 0 && barrierCount < 0; }
    long long
    arrivedCount() const; // best count of processes that joined: named ranks or a counter, the larger
    // Which counter arrivedCount() rests on when it exceeds the named ranks: "barrier", "clients" or ""
    // (names).
    std::string countedBy() const;
    // The world size our workers' arrival records claim: 0 when none does, or when they disagree (then
    // `sizes` holds every claimed size).
    int recordedWorldSize(std::set<int>* sizes = nullptr) const;
    nlohmann::json toJson() const;
};

// FileStore: every record, in order (overwrites reveal double launches).
RankCensus censusFromRecords(const std::vector<std::pair<std::string, std::string>>& records);

// TCPStore: keys cannot be listed, so probe the known names for ranks 0..maxRank.
using KeyReader = std::function<std::optional<std::string>(const std::string& rawKey)>;
RankCensus censusFromReader(const KeyReader& read, int maxRank);

} // namespace ddpdesk::doctor
