// RANKS_MISSING, RANKS_EXCESS, RANK_DUPLICATE, RANK_OUT_OF_RANGE, WORLD_SIZE_MISMATCH, RANK_EXITED from a
// census.

#include "doctor/checks.h"
#include "doctor/finding_texts.h"
#include "doctor/os_probes.h"
#include "net/net_socket.h"
#include "protocol/finding_codes.h"
#include "protocol/json_fields.h"

#include <sstream>

namespace ddpdesk::doctor::detail {

namespace {

std::string joinRanks(const std::vector<int>& ranks) {
    std::ostringstream s;
    for (std::size_t i = 0; i < ranks.size(); ++i)
        s << (i ? ", " : "") << ranks[i];
    return s.str();
}

// A job whose rank 0 hosts the TCPStore (tcp://, or env:// without torchrun's agent store, PyTorch 1.x
// and 2.x): rank 0 joins the store's client count at once, then waits in the store's constructor for every
// other rank before it writes a key of its own, while the others go on and write their Gloo addresses. So
// when the count is one more than the named ranks and rank 0 is not among them, the one unnamed client is
// rank 0. Not for stores someone else hosts (torchrun's agent, DDP Desk's launcher: every rank writes its
// keys).
bool rank0HostsTheStore(const RankCensus& census) {
    return census.countedBy() == "clients" && census.agentAttempt < 0 && census.ddpdeskRecords.empty() &&
           !census.arrived.empty() && !census.arrived.count(0) &&
           census.initCount == static_cast<long long>(census.arrived.size()) + 1;
}

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
        out.push_back(textFinding(protocol::finding::WorldSizeMismatch,
                                  request.worldSize > 0 ? "given" : "each_other", Severity::Error, {}, e));
    }

    if (census.empty()) {
        out.push_back(textFinding(protocol::finding::RanksNone, Severity::Info, {}, evidence));
        return;
    }

    if (!census.duplicates.empty()) {
        std::vector<int> dup(census.duplicates.begin(), census.duplicates.end());
        auto e = evidence;
        e["ranks"] = dup;
        out.push_back(
            textFinding(protocol::finding::RankDuplicate, "census", Severity::Error, {joinRanks(dup)}, e));
    }
    if (request.rank >= 0 && !request.jobRunning && census.arrived.count(request.rank)) {
        auto e = evidence;
        e["rank"] = request.rank;
        out.push_back(textFinding(protocol::finding::RankDuplicate, "request", Severity::Error,
                                  {std::to_string(request.rank)}, e));
    }

    if (world > 0) {
        std::vector<int> outside;
        for (int r : census.arrived)
            if (r >= world) outside.push_back(r);
        if (!outside.empty()) {
            auto e = evidence;
            e["world_size"] = world;
            e["ranks"] = outside;
            out.push_back(textFinding(protocol::finding::RankOutOfRange, "census", Severity::Error,
                                      {joinRanks(outside), std::to_string(world), std::to_string(world - 1)},
                                      e));
            if (sizes.empty()) { // no recorded sizes: the ranks themselves prove the job was started larger
                auto m = evidence;
                m["world_size"] = world;
                m["job_world_size_at_least"] = outside.back() + 1;
                out.push_back(textFinding(protocol::finding::WorldSizeMismatch, "ranks", Severity::Error,
                                          {std::to_string(outside.back() + 1), std::to_string(world)}, m));
            }
        }
        const long long count = census.arrivedCount();
        if (count > world || census.barrierCount > world || !census.duplicates.empty()) {
            auto e = evidence;
            e["world_size"] = world;
            e["arrived_count"] = std::max(count, census.barrierCount);
            out.push_back(textFinding(
                protocol::finding::RanksExcess, Severity::Error,
                {std::to_string(std::max(count, census.barrierCount)), std::to_string(world)}, e));
        } else if (count < world) {
            std::set<int> arrived = census.arrived;
            const bool rank0Inferred = rank0HostsTheStore(census);
            if (rank0Inferred) arrived.insert(0);
            std::vector<int> missing;
            for (int r = 0; r < world; ++r)
                if (!arrived.count(r)) missing.push_back(r);
            // A counter (init/, the barrier) can know more arrivals than the named ranks: then only the count
            // is honest, and naming "missing" ranks would contradict the counter.
            const bool listKnown = static_cast<long long>(arrived.size()) >= count;
            auto e = evidence;
            e["world_size"] = world;
            if (listKnown) {
                e["arrived"] = arrived;
                e["missing"] = missing;
                if (rank0Inferred) e["rank_0_inferred"] = "hosts the TCPStore: counted among its clients";
                Finding f = textFinding(
                    protocol::finding::RanksMissing, "listed", pending ? Severity::Warning : Severity::Error,
                    {std::to_string(count), std::to_string(world), joinRanks(missing)}, e);
                if (rank0Inferred)
                    appendNote(f, findingTextKey(protocol::finding::Note, "rank0_hosts_store"), {});
                out.push_back(std::move(f));
            } else {
                const bool barrier = census.countedBy() == "barrier";
                e["arrived_count"] = count;
                e["counted_by"] = barrier ? "barrier" : "tcpstore_clients";
                out.push_back(textFinding(protocol::finding::RanksMissing,
                                          barrier ? "counted_barrier" : "counted_clients",
                                          pending ? Severity::Warning : Severity::Error,
                                          {std::to_string(count), std::to_string(world)}, e));
            }
        } else {
            out.push_back(textFinding(protocol::finding::RanksComplete, Severity::Info,
                                      {std::to_string(world)}, evidence));
        }
    } else {
        out.push_back(textFinding(protocol::finding::RanksArrived, Severity::Info,
                                  {std::to_string(census.arrivedCount())}, evidence));
    }

    const std::string here = net::localHostName();
    for (const auto& [rank, rec] : census.ddpdeskRecords) {
        const protocol::JsonFields f(rec); // a rank's arrival record: anyone who reaches the store wrote it
        if (f.text("host") != here || !f.has("pid")) continue;
        const long long pid = f.integer64("pid", 0);
        if (pid > 0 && !os::processAlive(pid) && request.jobRunning)
            out.push_back(textFinding(protocol::finding::RankExited, Severity::Warning,
                                      {std::to_string(rank), std::to_string(pid)},
                                      {{"rank", rank}, {"pid", pid}, {"host", here}}));
    }
}

} // namespace ddpdesk::doctor::detail
