#include "doctor/file_store_liveness.h"

#include "doctor/net_socket.h"

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
    if (ec)
        return 0;
    auto age = fs::file_time_type::clock::now() - t;
    return std::chrono::duration<double>(age).count();
}

bool contains(const std::vector<os::ProcessRef>& v, std::int64_t pid) {
    for (const auto& p : v)
        if (p.pid == pid)
            return true;
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
        s = "written " + std::to_string(static_cast<int>(ageSeconds * 1000)) + " ms ago by a process not seen here";
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
            if (!contains(l.holders, p.pid))
                l.holders.push_back(p);
        if (look == 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(150));
    }
    std::error_code ec;
    // Absolute spellings only: a bare relative name such as "store" would match unrelated command lines.
    std::vector<std::string> spellings = {fs::absolute(path, ec).u8string()};
    auto canonical = fs::weakly_canonical(path, ec);
    if (!ec && canonical.u8string() != spellings.front())
        spellings.push_back(canonical.u8string());
    for (const auto& text : spellings)
        for (auto& p : os::processesMentioning(text))
            if (!contains(l.holders, p.pid) && !contains(l.users, p.pid))
                l.users.push_back(p);
    const std::string here = net::localHostName();
    for (const auto& [rank, rec] : census.ddpdeskRecords) {
        if (!rec.is_object() || rec.value("host", std::string()) != here || !rec.contains("pid") ||
            !rec["pid"].is_number())
            continue;
        auto pid = rec["pid"].get<std::int64_t>();
        if (os::processAlive(pid) && !contains(l.holders, pid) && !contains(l.users, pid))
            l.users.push_back({pid, os::processName(pid), "arrival record of rank " + std::to_string(rank)});
    }
    l.ageSeconds = secondsSinceWrite(path);
    l.recentlyWritten = l.ageSeconds < kRecentWriteSeconds;
    return l;
}

} // namespace ddpdesk::doctor
