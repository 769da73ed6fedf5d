#include "doctor/rank_census.h"

#include <algorithm>
#include <cstdlib>

namespace ddpdesk::doctor {

namespace {

const std::string kArrived = "ddpdesk/arrived/";
const std::string kGlooRank = "rank_";
const std::string kBarrier = "store_based_barrier_key:";

// Gloo's per-process-group key prefix as PyTorch's init_process_group lays it out, and the one our worker
// uses.
const char* const kGlooPrefixes[] = {"/default_pg/0/0/", "/ddpdesk/pg/0/", "/0/"};

std::optional<int> trailingRank(const std::string& key, const std::string& marker) {
    auto at = key.rfind(marker);
    if (at == std::string::npos) return std::nullopt;
    if (marker == kGlooRank && at != 0 && key[at - 1] != '/') return std::nullopt;
    std::string digits = key.substr(at + marker.size());
    if (digits.empty() || digits.size() > 7 || !std::all_of(digits.begin(), digits.end(), ::isdigit))
        return std::nullopt;
    return std::atoi(digits.c_str());
}

long long toCount(const std::string& value) {
    char* end = nullptr;
    long long n = std::strtoll(value.c_str(), &end, 10);
    return end && end != value.c_str() ? n : -1;
}

void addRecord(RankCensus& c, std::set<std::string>& written, const std::string& key,
               const std::string& value) {
    if (key == "init/") {
        c.initCount = toCount(value);
        c.sources.insert("init/");
        return;
    }
    if (key.find(kBarrier) != std::string::npos) {
        c.barrierCount = std::max(c.barrierCount, toCount(value));
        c.sources.insert(kBarrier);
        return;
    }
    std::optional<int> rank;
    if (key.find(kArrived) != std::string::npos && (rank = trailingRank(key, kArrived))) {
        auto j = nlohmann::json::parse(value, nullptr, false);
        c.ddpdeskRecords[*rank] = j.is_discarded() ? nlohmann::json(value) : j;
        c.sources.insert(kArrived);
    } else if ((rank = trailingRank(key, kGlooRank))) {
        c.glooHosts[*rank] = value;
        c.sources.insert("gloo rank_");
    } else {
        return;
    }
    c.arrived.insert(*rank);
    // Gloo and our workers write each rank key once per process, so a second write is a second process.
    if (!written.insert(key).second) c.duplicates.insert(*rank);
}

} // namespace

long long RankCensus::arrivedCount() const {
    // torch's barrier counter counts ranks that got past init even when their own keys are not recorded.
    return std::max<long long>({static_cast<long long>(arrived.size()), initCount, barrierCount, 0LL});
}

std::string RankCensus::countedBy() const {
    const auto named = static_cast<long long>(arrived.size());
    if (barrierCount > named && barrierCount >= initCount) return "barrier";
    if (initCount > named) return "clients";
    return {};
}

int RankCensus::recordedWorldSize(std::set<int>* sizes) const {
    std::set<int> seen;
    for (const auto& [rank, rec] : ddpdeskRecords)
        if (rec.is_object() && rec.contains("world_size") && rec["world_size"].is_number_integer())
            seen.insert(rec["world_size"].get<int>());
    if (sizes) *sizes = seen;
    return seen.size() == 1 ? *seen.begin() : 0;
}

nlohmann::json RankCensus::toJson() const {
    nlohmann::json j;
    j["arrived"] = arrived;
    if (initCount >= 0) j["tcpstore_clients"] = initCount;
    if (barrierCount >= 0) j["barrier_count"] = barrierCount;
    if (!duplicates.empty()) j["duplicates"] = duplicates;
    nlohmann::json records = nlohmann::json::object();
    for (const auto& [rank, rec] : ddpdeskRecords)
        records[std::to_string(rank)] = rec;
    if (!records.empty()) j["ddpdesk_arrivals"] = records;
    j["sources"] = sources;
    return j;
}

RankCensus censusFromRecords(const std::vector<std::pair<std::string, std::string>>& records) {
    RankCensus c;
    std::set<std::string> written;
    for (const auto& [key, value] : records) {
        if (!key.empty() && key[0] == '-') continue;
        addRecord(c, written, key, value);
    }
    return c;
}

RankCensus censusFromReader(const KeyReader& read, int maxRank) {
    RankCensus c;
    std::set<std::string> written;
    auto probe = [&](const std::string& key) {
        if (auto v = read(key)) addRecord(c, written, key, *v);
    };
    probe("init/");
    probe("/default_pg/" + kBarrier + "1");
    for (int r = 0; r <= maxRank; ++r) {
        probe("/" + kArrived + std::to_string(r));
        for (const char* prefix : kGlooPrefixes)
            probe(prefix + kGlooRank + std::to_string(r));
    }
    return c;
}

} // namespace ddpdesk::doctor
