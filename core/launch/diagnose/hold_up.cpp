#include "launch/diagnose/hold_up.h"

#include "protocol/finding_codes.h"

#include <algorithm>
#include <cstdio>

namespace ddpdesk::launch {

std::optional<HoldUp> findHoldUp(const std::vector<RankCollectives>& ranks, double now,
                                 const HoldUpThresholds& thresholds) {
    if (ranks.size() < 2) return std::nullopt;
    std::int64_t latest = 0;
    for (const RankCollectives& r : ranks)
        latest = std::max(latest, r.record.entered);
    if (latest == 0) return std::nullopt;
    HoldUp h;
    h.number = latest;
    double firstIn = now, lastIn = 0;
    const protocol::CollectiveRecord* sample = nullptr;
    std::vector<int> inside; // every rank waiting in some collective
    for (const RankCollectives& r : ranks) {
        if (r.record.inside()) {
            inside.push_back(r.rank);
            lastIn = std::max(lastIn, r.record.t);
            if (r.record.entered == latest) {
                h.waiting.push_back(r.rank);
                firstIn = std::min(firstIn, r.record.t);
                sample = &r.record;
            }
        } else if (r.record.entered < latest) {
            // Not waiting in any collective and not at the latest one: computing, loading data, stuck.
            h.behind.push_back(r.rank);
        }
    }
    // Nobody inside the latest one: the ranks that finished it are computing, not waiting for anyone.
    if (!sample) return std::nullopt;
    h.kind = sample->kind;
    h.detail = sample->detail;
    h.bytes = sample->bytes;
    if (!h.behind.empty()) {
        h.waitedS = now - firstIn;
        if (h.waitedS < thresholds.behindS) return std::nullopt;
        h.code = protocol::diagnosis::RankBehind;
        return h;
    }
    // Every rank waits, some still inside an earlier collective (a ring allreduce lets a rank finish and move
    // on while another still receives): nobody here is late, a peer elsewhere or the network is.
    if (inside.size() != ranks.size()) return std::nullopt; // some finished it: it is moving
    h.waiting = inside;
    h.waitedS = now - lastIn;
    // The ranks inside the same numbered collective disagree on what it is: no amount of waiting ends that,
    // so it is said as soon as a rank late into a collective would be.
    bool differ = false;
    for (const RankCollectives& r : ranks)
        if (r.record.entered == latest) {
            h.each.push_back({r.rank, r.record.kind, r.record.detail, r.record.bytes});
            differ = differ || r.record.kind != h.each.front().kind || r.record.bytes != h.each.front().bytes;
        }
    if (differ) {
        if (h.waitedS < thresholds.behindS) return std::nullopt;
        h.code = protocol::diagnosis::CollectiveMismatch;
        return h;
    }
    h.each.clear();
    if (h.waitedS < thresholds.allWaitS) return std::nullopt;
    h.code = protocol::diagnosis::CollectiveWaitAll;
    return h;
}

std::optional<HoldUp> findHoldUpByAnyCount(const std::vector<RankCollectives>& ranks, double now,
                                           const HoldUpThresholds& thresholds) {
    if (auto h = findHoldUp(ranks, now, thresholds)) return h;
    std::vector<RankCollectives> flight;
    for (const RankCollectives& r : ranks) {
        const auto view = r.record.flightView();
        if (!view) return std::nullopt;
        flight.push_back({r.rank, *view});
    }
    return findHoldUp(flight, now, thresholds);
}

std::string describeCollective(const HoldUp& h) {
    std::string text = h.kind + " #" + std::to_string(h.number);
    std::string inside = h.detail;
    if (h.bytes > 0) {
        char size[32];
        if (h.bytes >= 1000 * 1000)
            std::snprintf(size, sizeof size, "%.1f MB", double(h.bytes) / 1e6);
        else if (h.bytes >= 1000)
            std::snprintf(size, sizeof size, "%.1f kB", double(h.bytes) / 1e3);
        else
            std::snprintf(size, sizeof size, "%lld bytes", static_cast<long long>(h.bytes));
        inside += (inside.empty() ? "" : ", ") + std::string(size);
    }
    return inside.empty() ? text : text + " (" + inside + ")";
}

} // namespace ddpdesk::launch
