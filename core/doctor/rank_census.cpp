#include "doctor/rank_census.h"
#include "protocol/json_fields.h"

#include "protocol/store_keys.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace ddpdesk::doctor {

namespace {

const std::string kArrived = protocol::kArrivedKeyPrefix;
const std::string kGlooRank = "rank_";
const std::string kBarrier = "store_based_barrier_key:";

// Gloo's per-process-group key prefix as PyTorch's init_process_group lays it out, and the one our worker
// uses.
const char* const kGlooPrefixes[] = {"/default_pg/0/0/", "/ddpdesk/pg/0/", "/0/"};
// PyTorch 2.x: Gloo's keys nest under the group and the device ("cpu"; "cuda" for CUDA tensors).
const char* const kGloo2Prefixes[] = {"/default_pg/0//cpu//0/", "/default_pg/0//cuda//0/",
                                      "/ddpdesk/pg//cpu//0/"};

// torchrun's agent store (TORCHELASTIC_USE_AGENT_STORE) in PyTorch 1.x: every rank's store is a PrefixStore
// "/worker/attempt_<restart count>" over the agent's TCPStore, so its keys arrive as
// "//worker/attempt_<n>/...". 2.x dropped the prefix (the agent makes a fresh store per attempt). Restarts
// beyond this many are not looked for.
const std::string kAgentPrefix = "//worker/attempt_";
constexpr int kAgentAttempts = 8;

std::optional<int> trailingRank(const std::string& key, const std::string& marker) {
    auto at = key.rfind(marker);
    if (at == std::string::npos) return std::nullopt;
    if (marker == kGlooRank && at != 0 && key[at - 1] != '/') return std::nullopt;
    std::string digits = key.substr(at + marker.size());
    if (digits.empty() || digits.size() > 7 || !std::all_of(digits.begin(), digits.end(), ::isdigit))
        return std::nullopt;
    return std::atoi(digits.c_str());
}

bool allDigits(const std::string& s) {
    return !s.empty() && s.size() <= 7 && std::all_of(s.begin(), s.end(), ::isdigit);
}

// PyTorch 2.x's Gloo publishes no "rank_N" key: each rank writes its addresses under
// ".../<group>//<device>//<context>/<rank>" (e.g. "/default_pg/0//cpu//0/1"), the value starting with the
// hostname as a uint64 little-endian length and its bytes.
std::optional<int> gloo2Rank(const std::string& key, std::string* host, const std::string& value) {
    std::vector<std::string> parts;
    for (std::size_t start = 0;;) {
        const std::size_t slash = key.find('/', start);
        parts.push_back(key.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
        if (slash == std::string::npos) break;
        start = slash + 1;
    }
    const std::size_t n = parts.size();
    if (n < 5 || !allDigits(parts[n - 1]) || !allDigits(parts[n - 2]) || !parts[n - 3].empty() ||
        parts[n - 4].empty() || !parts[n - 5].empty() ||
        !std::all_of(parts[n - 4].begin(), parts[n - 4].end(),
                     [](char ch) { return ch >= 'a' && ch <= 'z'; }))
        return std::nullopt;
    if (value.size() >= 8) {
        std::uint64_t len = 0;
        for (int i = 7; i >= 0; --i)
            len = (len << 8) | static_cast<unsigned char>(value[static_cast<std::size_t>(i)]);
        if (len > 0 && len <= 255 && value.size() >= 8 + len)
            *host = value.substr(8, static_cast<std::size_t>(len));
    }
    return std::atoi(parts[n - 1].c_str());
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
    } else if (std::string host; (rank = gloo2Rank(key, &host, value))) {
        if (!host.empty()) c.glooHosts[*rank] = host;
        c.sources.insert("gloo 2.x address");
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
        if (protocol::JsonFields(rec).integer("world_size", 0) > 0)
            seen.insert(protocol::JsonFields(rec).integer("world_size", 0));
    if (sizes) *sizes = seen;
    return seen.size() == 1 ? *seen.begin() : 0;
}

nlohmann::json RankCensus::toJson() const {
    nlohmann::json j;
    j["arrived"] = arrived;
    if (initCount >= 0) j["tcpstore_clients"] = initCount;
    if (barrierCount >= 0) j["barrier_count"] = barrierCount;
    if (agentAttempt >= 0) j["agent_store_attempt"] = agentAttempt;
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
    probe("/default_pg/" + kBarrier + "1"); // 1.x: numbered by group count
    probe("/default_pg/" + kBarrier + "0"); // 2.x: by group name, "0" for the default group
    for (int r = 0; r <= maxRank; ++r) {
        probe("/" + kArrived + std::to_string(r));
        for (const char* prefix : kGlooPrefixes)
            probe(prefix + kGlooRank + std::to_string(r));
        for (const char* prefix : kGloo2Prefixes)
            probe(prefix + std::to_string(r));
    }
    // The agent store's prefix is found from a few keys every 1.x job writes early (the first ranks' Gloo
    // keys, the barrier), so a store without it costs a few dozen probes, not a second full census. The
    // latest attempt is the one the ranks now wait in.
    const std::string pg1 = std::string(kGlooPrefixes[0]) + kGlooRank;
    for (int n = kAgentAttempts - 1; n >= 0 && c.agentAttempt < 0; --n) {
        const std::string attempt = kAgentPrefix + std::to_string(n);
        bool seen = read(attempt + "/default_pg/" + kBarrier + "1").has_value();
        for (int r = 0; r <= std::min(maxRank, 3) && !seen; ++r)
            seen = read(attempt + pg1 + std::to_string(r)).has_value();
        if (seen) c.agentAttempt = n;
    }
    if (c.agentAttempt >= 0) {
        const std::string attempt = kAgentPrefix + std::to_string(c.agentAttempt);
        probe(attempt + "/default_pg/" + kBarrier + "1");
        for (int r = 0; r <= maxRank; ++r)
            probe(attempt + pg1 + std::to_string(r));
        c.sources.insert("torchrun agent store");
    }
    return c;
}

} // namespace ddpdesk::doctor
