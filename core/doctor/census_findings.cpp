// RANKS_MISSING, RANKS_EXCESS, RANK_DUPLICATE, RANK_OUT_OF_RANGE, WORLD_SIZE_MISMATCH, RANK_EXITED from a
// census.

#include "doctor/checks.h"
#include "doctor/os_probes.h"
#include "net/net_socket.h"

#include <sstream>

namespace ddpdesk::doctor::detail {

namespace {

std::string joinRanks(const std::vector<int>& ranks) {
    std::ostringstream s;
    for (std::size_t i = 0; i < ranks.size(); ++i)
        s << (i ? ", " : "") << ranks[i];
    return s.str();
}

const char* const kMissingFix =
    "Start the missing rank(s) with the same store and world size, or check why they "
    "failed (their log, their node's reachability of the store).";

} // namespace

void reportCensus(const DoctorRequest& request, const RankCensus& census, bool pending,
                  std::vector<Finding>& out) {
    const nlohmann::json evidence = census.toJson();
    std::set<int> sizes;
    int recorded = census.recordedWorldSize(&sizes);
    int world = request.worldSize > 0 ? request.worldSize : recorded;

    if (sizes.size() > 1 || (request.worldSize > 0 && recorded > 0 && recorded != request.worldSize)) {
        auto e = evidence;
        e["world_size"] = request.worldSize;
        e["recorded_world_sizes"] = sizes;
        out.push_back(withArgs(
            makeFinding("WORLD_SIZE_MISMATCH", Severity::Error,
                        "The ranks in this store were started with a different world size than " +
                            std::string(request.worldSize > 0 ? "the one given" : "each other") + ".",
                        e, "Start every rank with the same --world-size (the total number of ranks)."),
            request.worldSize > 0 ? "given" : "each_other", {}));
    }

    if (census.empty()) {
        out.push_back(
            makeFinding("RANKS_NONE", Severity::Info, "No rank has arrived in this store yet.", evidence));
        return;
    }

    if (!census.duplicates.empty()) {
        std::vector<int> dup(census.duplicates.begin(), census.duplicates.end());
        auto e = evidence;
        e["ranks"] = dup;
        out.push_back(
            withArgs(makeFinding("RANK_DUPLICATE", Severity::Error,
                                 "Rank(s) " + joinRanks(dup) +
                                     " joined this store more than once: two launches "
                                     "(or a stale store from an earlier run) share it.",
                                 e, "Stop the other launch, or delete the stale store file and start once."),
                     "census", {joinRanks(dup)}));
    }
    if (request.rank >= 0 && !request.jobRunning && census.arrived.count(request.rank)) {
        auto e = evidence;
        e["rank"] = request.rank;
        out.push_back(
            withArgs(makeFinding("RANK_DUPLICATE", Severity::Error,
                                 "Rank " + std::to_string(request.rank) +
                                     " has already joined this store; starting "
                                     "it again makes two processes claim the same rank.",
                                 e, "Give each process its own rank 0..world_size-1, or use a fresh store."),
                     "request", {std::to_string(request.rank)}));
    }

    if (world > 0) {
        std::vector<int> outside;
        for (int r : census.arrived)
            if (r >= world) outside.push_back(r);
        if (!outside.empty()) {
            auto e = evidence;
            e["world_size"] = world;
            e["ranks"] = outside;
            out.push_back(
                withArgs(makeFinding("RANK_OUT_OF_RANGE", Severity::Error,
                                     "Rank(s) " + joinRanks(outside) + " arrived, but with world size " +
                                         std::to_string(world) + " ranks must be 0.." +
                                         std::to_string(world - 1) + ".",
                                     e, "Use ranks 0..world_size-1 and the same world size on every node."),
                         "census", {joinRanks(outside), std::to_string(world), std::to_string(world - 1)}));
            if (sizes.empty()) { // no recorded sizes: the ranks themselves prove the job was started larger
                auto m = evidence;
                m["world_size"] = world;
                m["job_world_size_at_least"] = outside.back() + 1;
                out.push_back(
                    withArgs(makeFinding("WORLD_SIZE_MISMATCH", Severity::Error,
                                         "The job in this store runs with a world size of at least " +
                                             std::to_string(outside.back() + 1) + ", not " +
                                             std::to_string(world) + ".",
                                         m,
                                         "Start every rank with the same --world-size (the total number of "
                                         "ranks over all nodes)."),
                             "ranks", {std::to_string(outside.back() + 1), std::to_string(world)}));
            }
        }
        const long long count = census.arrivedCount();
        if (count > world || census.barrierCount > world || !census.duplicates.empty()) {
            auto e = evidence;
            e["world_size"] = world;
            e["arrived_count"] = std::max(count, census.barrierCount);
            out.push_back(
                withArgs(makeFinding("RANKS_EXCESS", Severity::Error,
                                     "More processes joined this store (" +
                                         std::to_string(std::max(count, census.barrierCount)) +
                                         ") than the world size (" + std::to_string(world) +
                                         "): a stale store or a double launch; "
                                         "torch's store-based barrier then waits forever.",
                                     e,
                                     "Stop the other launch that uses this store, or delete the stale store "
                                     "file / pick a fresh "
                                     "port, then start all ranks once."),
                         "", {std::to_string(std::max(count, census.barrierCount)), std::to_string(world)}));
        } else if (count < world) {
            std::vector<int> missing;
            for (int r = 0; r < world; ++r)
                if (!census.arrived.count(r)) missing.push_back(r);
            // A counter (init/, the barrier) can know more arrivals than the named ranks: then only the count
            // is honest, and naming "missing" ranks would contradict the counter.
            const bool listKnown = static_cast<long long>(census.arrived.size()) >= count;
            auto e = evidence;
            e["world_size"] = world;
            if (listKnown) {
                e["arrived"] = census.arrived;
                e["missing"] = missing;
                out.push_back(
                    withArgs(makeFinding("RANKS_MISSING", pending ? Severity::Warning : Severity::Error,
                                         std::to_string(count) + " of " + std::to_string(world) +
                                             " ranks arrived; rank(s) " + joinRanks(missing) +
                                             " never joined, so the others wait in rendezvous.",
                                         e, kMissingFix),
                             "listed", {std::to_string(count), std::to_string(world), joinRanks(missing)}));
            } else {
                const bool barrier = census.countedBy() == "barrier";
                e["arrived_count"] = count;
                e["counted_by"] = barrier ? "barrier" : "tcpstore_clients";
                out.push_back(
                    withArgs(makeFinding("RANKS_MISSING", pending ? Severity::Warning : Severity::Error,
                                         std::to_string(count) + " of " + std::to_string(world) +
                                             " ranks arrived (by the " +
                                             (barrier ? "barrier counter" : "TCPStore's client counter") +
                                             "); which ones is not recorded. The others wait in rendezvous.",
                                         e, kMissingFix),
                             barrier ? "counted_barrier" : "counted_clients",
                             {std::to_string(count), std::to_string(world)}));
            }
        } else {
            out.push_back(withArgs(makeFinding("RANKS_COMPLETE", Severity::Info,
                                               "All " + std::to_string(world) + " ranks arrived.", evidence),
                                   "", {std::to_string(world)}));
        }
    } else {
        out.push_back(withArgs(makeFinding("RANKS_ARRIVED", Severity::Info,
                                           std::to_string(census.arrivedCount()) +
                                               " rank(s) arrived; pass the world size "
                                               "to learn which are missing.",
                                           evidence),
                               "", {std::to_string(census.arrivedCount())}));
    }

    const std::string here = net::localHostName();
    for (const auto& [rank, rec] : census.ddpdeskRecords) {
        if (!rec.is_object() || rec.value("host", std::string()) != here || !rec.contains("pid")) continue;
        auto pid = rec["pid"].is_number() ? rec["pid"].get<long long>() : 0LL;
        if (pid > 0 && !os::processAlive(pid) && request.jobRunning)
            out.push_back(withArgs(makeFinding("RANK_EXITED", Severity::Warning,
                                               "Rank " + std::to_string(rank) + " (pid " +
                                                   std::to_string(pid) + ") arrived but has exited since.",
                                               {{"rank", rank}, {"pid", pid}, {"host", here}},
                                               "Read that rank's log for its error; restart the job."),
                                   "", {std::to_string(rank), std::to_string(pid)}));
    }
}

} // namespace ddpdesk::doctor::detail
