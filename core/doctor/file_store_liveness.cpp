#include "doctor/file_store_liveness.h"
#include "protocol/json_fields.h"

#include "net/net_socket.h"
#include "os/utf8_path.h"

#include <chrono>
#include <thread>

namespace ddpdesk::doctor {

namespace fs = std::filesystem;

namespace {

// A rank in torch's store-based barrier appends every 10 ms; one in Gloo's rendezvous only reads. One second
// separates "someone is at it" from "left behind" without making a fresh leftover look live for long.
constexpr double kRecentWriteSeconds = 1.0;

double secondsSinceWrite(const fs::path& path) {
    std::error_code ec;
    auto t = fs::last_write_time(path, ec);
    if (ec) return 0;
    auto age = fs::file_time_type::clock::now() - t;
    return std::chrono::duration<double>(age).count();
}

bool contains(const std::vector<os::ProcessRef>& v, std::int64_t pid) {
    for (const auto& p : v)
        if (p.pid == pid) return true;
    return false;
}

} // namespace

std::string StoreLiveness::describe() const {
    std::string s;
    for (const auto* list : {&holders, &users})
        for (const auto& p : *list)
            s += (s.empty() ? "" : ", ") + std::string("pid ") + std::to_string(p.pid) +
                 (p.name.empty() ? "" : " (" + p.name + ")") + " [" + p.how + "]";
    if (s.empty() && recentlyWritten)
        s = "written " + std::to_string(static_cast<int>(ageSeconds * 1000)) +
            " ms ago by a process not seen here";
    return s;
}

nlohmann::json StoreLiveness::processesJson() const {
    nlohmann::json arr = nlohmann::json::array();
    for (const auto* list : {&holders, &users})
        for (const auto& p : *list)
            arr.push_back({{"pid", p.pid}, {"process", p.name}, {"how", p.how}});
    return arr;
}

StoreLiveness fileStoreLiveness(const fs::path& path, const RankCensus& census) {
    StoreLiveness l;
    // Two looks 150 ms apart: locks are taken per operation, so a second look doubles the chance to see one.
    for (int look = 0; look < 2; ++look) {
        for (auto& p : os::fileHolders(path))
            if (!contains(l.holders, p.pid)) l.holders.push_back(p);
        if (look == 0) std::this_thread::sleep_for(std::chrono::milliseconds(150));
    }
    std::error_code ec;
    // Absolute spellings only: a bare relative name such as "store" would match unrelated command lines.
    std::vector<std::string> spellings = {ddpdesk::os::utf8(fs::absolute(path, ec))};
    auto canonical = fs::weakly_canonical(path, ec);
    if (!ec && ddpdesk::os::utf8(canonical) != spellings.front())
        spellings.push_back(ddpdesk::os::utf8(canonical));
    for (const auto& text : spellings)
        for (auto& p : os::processesMentioning(text))
            if (!contains(l.holders, p.pid) && !contains(l.users, p.pid)) l.users.push_back(p);
    const std::string here = net::localHostName();
    for (const auto& [rank, rec] : census.ddpdeskRecords) {
        const protocol::JsonFields f(rec); // a rank's arrival record: anyone who reaches the store wrote it
        const std::int64_t pid = f.integer64("pid", 0);
        if (f.text("host") != here || pid <= 0) continue;
        if (os::processAlive(pid) && !contains(l.holders, pid) && !contains(l.users, pid))
            l.users.push_back({pid, os::processName(pid), "arrival record of rank " + std::to_string(rank)});
    }
    l.ageSeconds = secondsSinceWrite(path);
    l.recentlyWritten = l.ageSeconds < kRecentWriteSeconds;
    return l;
}

std::string durationText(double seconds) {
    const auto s = static_cast<long long>(seconds + 0.5);
    if (s >= 60 && s % 60 == 0) return std::to_string(s / 60) + " min";
    return std::to_string(s) + " s";
}

StaleVerdict judgeStale(const DoctorRequest& request, const RankCensus& census, double ageSeconds) {
    StaleVerdict v;
    v.arrived = census.arrivedCount();
    v.worldSize = request.worldSize > 0 ? request.worldSize : census.recordedWorldSize();
    const std::string age = std::to_string(static_cast<long long>(ageSeconds));
    const std::string wait = durationText(request.rendezvousTimeoutSec);
    if (request.nodeRank > 0 && !request.force) {
        v.variant = "other_node";
        v.args = {std::to_string(request.nodeRank)};
        v.reason =
            "this is node " + v.args[0] +
            ": ranks on another node that shares this folder may still be waiting on the store, and this "
            "node cannot see them; only node 0 (or --force) calls it stale";
        return v;
    }
    const bool young = ageSeconds < request.rendezvousTimeoutSec;
    if (young && v.worldSize <= 0) {
        v.variant = "world_unknown";
        v.args = {std::to_string(v.arrived), age, wait};
        v.reason = v.args[0] + " rank(s) arrived, last write " + age +
                   " s ago, and the world size is unknown; ranks may wait up to " + wait + ": not stale yet";
        return v;
    }
    if (young && v.arrived < v.worldSize) {
        v.variant = "waiting";
        v.args = {std::to_string(v.arrived), std::to_string(v.worldSize), age, wait};
        v.reason = v.args[0] + " of " + v.args[1] + " ranks arrived, last write " + age +
                   " s ago; ranks may wait up to " + wait + ": not stale yet";
        return v;
    }
    v.stale = true;
    if (!young) {
        v.variant = "expired";
        v.args = {age, wait};
        v.reason = "last written " + age + " s ago, longer than ranks wait in rendezvous (" + wait + ")";
    } else {
        v.variant = "complete";
        v.args = {std::to_string(v.arrived), std::to_string(v.worldSize)};
        v.reason = v.args[0] + " of " + v.args[1] + " ranks arrived and none is running here";
    }
    return v;
}

} // namespace ddpdesk::doctor
