// TCPStore findings: the port, name resolution, reachability of the master, whether a store answers there,
// and (for a live store) which ranks have arrived.

#include "doctor/checks.h"
#include "doctor/finding_texts.h"
#include "doctor/os_probes.h"
#include "doctor/tcp_store_client.h"
#include "net/net_socket.h"
#include "protocol/finding_codes.h"

#include <algorithm>
#include <chrono>

namespace ddpdesk::doctor::detail {

namespace {

// Rank keys probed one by one at most (each costs a few round trips); larger worlds are counted, not listed.
constexpr int kMaxProbedRanks = 64;
// Reconnects after failed reads during one census, so a store that breaks every read cannot cost a probe per
// key.
constexpr int kMaxReconnects = 8;

nlohmann::json holdersJson(const std::vector<os::ProcessRef>& holders) {
    nlohmann::json arr = nlohmann::json::array();
    for (const auto& p : holders)
        arr.push_back({{"pid", p.pid}, {"process", p.name}, {"how", p.how}});
    return arr;
}

// `variant` names the kind of occupant ("store", "other", "bound") and `detail` its one value (%3 of its
// wording).
void portInUse(const protocol::StoreSpec& a, nlohmann::json e, std::vector<Finding>& out,
               const std::string& variant, const std::string& detail = {}) {
    setActivity("looking for the process that holds port " + std::to_string(a.port));
    auto holders = os::portHolders(a.port);
    e["holders"] = holdersJson(holders);
    std::string who = "another process";
    if (!holders.empty()) {
        e["pid"] = holders.front().pid;
        e["process"] = holders.front().name;
        who = "pid " + std::to_string(holders.front().pid) + " (" + holders.front().name + ")";
    }
    int free = suggestFreePort(a.port);
    e["suggested_port"] = free;
    out.push_back(textFinding(protocol::finding::PortInUse, variant, Severity::Error,
                              {std::to_string(a.port), who, detail, std::to_string(free)}, e));
    if (holders.empty())
        out.back().args[1].clear(); // unnamed: a translated view says "another process" itself
}

// `localOnly`: the store itself is on loopback, so every rank runs here and the advertised address is
// harmless.
void hostnameLoopback(std::vector<Finding>& out, net::Millis timeout, bool localOnly) {
    const std::string name = net::localHostName();
    if (name.empty()) return;
    setActivity("resolving this machine's name '" + name + "'");
    auto r = net::resolveHost(name, diagnosisDeadline().bound(timeout));
    if (!r.ok) return;
    for (const auto& a : r.addresses)
        if (!net::isLoopbackAddress(a)) return;
    out.push_back(textFinding(protocol::finding::HostnameLoopback,
                              localOnly ? Severity::Info : Severity::Warning, {name, r.addresses.front()},
                              {{"hostname", name}, {"addresses", r.addresses}}));
}

std::string where(const protocol::StoreSpec& a) {
    return a.host + ":" + std::to_string(a.port);
}

// The store on this machine listens beyond loopback: anyone who reaches the port can join as a rank.
void storeExposure(const protocol::StoreSpec& a, const net::Resolved& resolved, std::vector<Finding>& out) {
    bool hostedHere = false;
    for (const auto& address : resolved.addresses)
        hostedHere = hostedHere || net::isLoopbackAddress(address) || net::isLocalAddress(address);
    if (!hostedHere) return;
    setActivity("looking at which addresses port " + std::to_string(a.port) + " listens on");
    std::vector<std::string> exposed;
    for (const auto& address : os::listenAddresses(a.port))
        if (!net::isLoopbackAddress(address)) exposed.push_back(address);
    if (exposed.empty()) return;
    const std::string& first = exposed.front();
    const std::string shown = net::isWildcardAddress(first) ? first + " (every interface)" : first;
    const std::string port = std::to_string(a.port);
    out.push_back(textFinding(protocol::finding::StoreExposed, Severity::Warning, {port, shown},
                              {{"port", a.port}, {"address", first}, {"addresses", exposed}}));
}

void censusOver(const DoctorRequest& request, const protocol::StoreSpec& a, net::Millis timeout, bool pending,
                std::vector<Finding>& out) {
    const Deadline& deadline = diagnosisDeadline();
    setActivity("reading which ranks arrived from the TCPStore at " + where(a));
    TcpStoreClient reader(a.host, a.port, timeout, deadline.end());
    if (reader.open().outcome != TcpStoreClient::Outcome::Store) {
        if (deadline.expired()) deadlineReached(out);
        return;
    }
    const int wanted = request.worldSize > 0 ? request.worldSize + 3 : 15;
    const int maxRank = std::min(wanted, kMaxProbedRanks - 1);
    int reads = 0, oversizedCount = 0, reconnects = 0;
    bool incomplete = false; // a key could not be read: the census cannot tell who is missing
    std::optional<TcpStoreClient::OversizedValue> oversized;
    auto census = censusFromReader(
        [&](const std::string& key) -> std::optional<std::string> {
            if (deadline.expired()) return std::nullopt;
            // A failed read (a value too large to read leaves the connection out of step) costs a reconnect.
            if (!reader.connected() &&
                (++reconnects > kMaxReconnects || reader.open().outcome != TcpStoreClient::Outcome::Store)) {
                incomplete = true;
                return std::nullopt;
            }
            ++reads;
            setActivity("reading key '" + key + "' from the TCPStore at " + where(a) + " (" +
                        std::to_string(reads) + " keys read)");
            auto value = reader.get(key);
            if (!reader.connected()) {
                incomplete = true;
                if (reader.oversized() && reader.oversized()->key == key) {
                    ++oversizedCount;
                    if (!oversized) oversized = reader.oversized();
                }
            }
            return value;
        },
        maxRank);
    if (oversized) {
        const std::string bytes = std::to_string(oversized->bytes);
        const std::string limit = std::to_string(TcpStoreClient::kMaxValueBytes);
        out.push_back(textFinding(protocol::finding::StoreValueTooLarge, Severity::Warning,
                                  {where(a), bytes, oversized->key, limit},
                                  {{"key", oversized->key},
                                   {"bytes", oversized->bytes},
                                   {"limit", TcpStoreClient::kMaxValueBytes},
                                   {"values_too_large", oversizedCount}}));
    }
    if (deadline.expired()) {
        // A census cut short would call ranks missing that were simply not read yet.
        deadlineReached(out);
        return;
    }
    if (incomplete) return;
    const std::size_t first = out.size();
    reportCensus(request, census, pending, out);
    if (maxRank >= request.worldSize - 1) return;
    // The ranks above maxRank were not looked up: say so wherever the census speaks, and list as missing only
    // ranks that were looked up (a world of 100000 would otherwise list 99999 numbers it never checked).
    const std::string probed = "0.." + std::to_string(maxRank);
    for (std::size_t i = first; i < out.size(); ++i) {
        Finding& f = out[i];
        if (f.code == protocol::finding::RanksMissing && f.variant == "listed" &&
            f.evidence["missing"].is_array()) {
            std::vector<int> missing;
            for (const auto& r : f.evidence["missing"])
                if (r.is_number_integer() && r.get<int>() <= maxRank) missing.push_back(r.get<int>());
            std::string list;
            for (int r : missing)
                list += (list.empty() ? "" : ", ") + std::to_string(r);
            list += list.empty() ? "none of ranks " + probed : " (of ranks " + probed + ")";
            f.evidence["missing"] = missing;
            if (f.args.size() == 3) f.args[2] = list;
            if (f.args.size() == 3) {
                f.message = fill(findingText(protocol::finding::RanksMissing, "listed")->message, f.args);
                for (const Finding::Note& note : f.notes) // the notes appended before, in their order
                    if (const FindingText* text = findingText(note.key))
                        f.message += " " + fill(text->message, note.args);
            }
        }
        appendNote(f, findingTextKey(protocol::finding::Note, "not_all_ranks_probed"), {probed});
        f.evidence["not_all_ranks_probed"] = true;
        f.evidence["probed_ranks_up_to"] = maxRank;
    }
}

void portInvalid(const protocol::StoreSpec& a, nlohmann::json e, std::vector<Finding>& out) {
    e["suggested_port"] = suggestFreePort();
    out.push_back(textFinding(protocol::finding::PortInvalid, Severity::Error,
                              {a.portText, e["suggested_port"].dump()}, e));
}

// A TCPStore answered. On node 0 before its run it is another job's, in the way; otherwise the census says
// who arrived.
void storeAnswered(const DoctorRequest& request, const protocol::StoreSpec& a, const net::Resolved& resolved,
                   const TcpStoreClient::OpenResult& probe, nlohmann::json e, net::Millis timeout,
                   std::vector<Finding>& out) {
    const bool host = request.nodeRank == 0;
    e["dialect"] = probe.dialect;
    e["keys"] = probe.numKeys;
    storeExposure(a, resolved, out);
    if (host && !request.jobRunning) {
        portInUse(a, e, out, "store", std::to_string(probe.numKeys));
        censusOver(request, a, timeout, false, out);
        return;
    }
    out.push_back(textFinding(protocol::finding::StoreReachable, Severity::Info,
                              {a.host, std::to_string(a.port), std::to_string(probe.numKeys)}, e));
    censusOver(request, a, timeout, !host && !request.jobRunning, out);
}

void notAStore(const DoctorRequest& request, const protocol::StoreSpec& a, const std::string& answer,
               nlohmann::json e, std::vector<Finding>& out) {
    e["answer"] = answer;
    if (request.nodeRank == 0 && !request.jobRunning) {
        portInUse(a, e, out, "other", answer);
        return;
    }
    out.push_back(textFinding(protocol::finding::NotAStore, Severity::Error,
                              {a.host, std::to_string(a.port), answer}, e));
}

// Node 0 before its run, nothing listening: whether its TCPStore will be able to listen on the port.
void portAvailability(const protocol::StoreSpec& a, nlohmann::json e, std::vector<Finding>& out) {
    auto bind = net::tryBind(a.port);
    if (bind.status == net::BindStatus::InUse) {
        e["error"] = bind.error;
        portInUse(a, e, out, "bound");
    } else if (bind.status == net::BindStatus::AccessDenied) {
        e["error"] = bind.error;
        const int free = suggestFreePort(a.port);
        out.push_back(textFinding(protocol::finding::PortExcluded, Severity::Error,
                                  {std::to_string(a.port), bind.error, std::to_string(free)}, e));
    } else {
        out.push_back(textFinding(protocol::finding::PortFree, Severity::Info, {std::to_string(a.port)}, e));
    }
}

// Another node found no store at the address: refused, dropped or unreachable.
void masterNotAnswering(const protocol::StoreSpec& a, const TcpStoreClient::OpenResult& probe,
                        net::Millis timeout, nlohmann::json e, std::vector<Finding>& out) {
    if (probe.connect == net::ConnectStatus::Refused) {
        out.push_back(textFinding(protocol::finding::MasterRefused, Severity::Error,
                                  {a.host, std::to_string(a.port)}, e));
    } else if (probe.connect == net::ConnectStatus::TimedOut) {
        e["timeout_ms"] = timeout.count();
        out.push_back(textFinding(protocol::finding::MasterTimeout, Severity::Error,
                                  {a.host, std::to_string(a.port), std::to_string(timeout.count())}, e));
    } else {
        out.push_back(textFinding(protocol::finding::MasterUnreachable, Severity::Error,
                                  {a.host, std::to_string(a.port), probe.detail}, e));
    }
}

} // namespace

void checkTcpStore(const DoctorRequest& request, const protocol::StoreSpec& a, std::vector<Finding>& out) {
    const Deadline& deadline = diagnosisDeadline();
    const auto timeout = net::Millis(static_cast<long long>(request.probeTimeoutSec * 1000));
    nlohmann::json e = {{"host", a.host}, {"port", a.portText}};
    if (a.port < 1) {
        portInvalid(a, e, out);
        return;
    }
    e["port"] = a.port;
    setActivity("resolving the store host '" + a.host + "'");
    auto resolved = net::resolveHost(a.host, deadline.bound(timeout));
    if (!resolved.ok && deadline.expired()) {
        deadlineReached(out);
        return;
    }
    if (!resolved.ok) {
        e["error"] = resolved.error;
        out.push_back(
            textFinding(protocol::finding::HostUnresolved, Severity::Error, {a.host, resolved.error}, e));
        return;
    }
    e["addresses"] = resolved.addresses;

    const bool host = request.nodeRank == 0;
    const bool loopbackStore = net::isLoopbackAddress(resolved.addresses.front());
    if (host)
        hostnameLoopback(out, timeout, loopbackStore);
    else if (loopbackStore)
        out.push_back(textFinding(protocol::finding::MasterLoopback, Severity::Warning,
                                  {std::to_string(request.nodeRank), a.host}, e));

    setActivity("asking " + where(a) + " whether a TCPStore answers");
    TcpStoreClient client(a.host, a.port, timeout, deadline.end());
    const auto probe = client.open();
    e["address"] = probe.address;
    if (probe.outcome != TcpStoreClient::Outcome::Store && deadline.expired()) {
        // Cut short by the deadline, the probe's failure says nothing about the listener.
        deadlineReached(out);
        return;
    }
    if (probe.outcome == TcpStoreClient::Outcome::Store) {
        storeAnswered(request, a, resolved, probe, e, timeout, out);
    } else if (probe.outcome == TcpStoreClient::Outcome::NotAStore) {
        notAStore(request, a, probe.detail, e, out);
    } else {
        e["error"] = probe.detail;
        if (host && !request.jobRunning && probe.connect == net::ConnectStatus::Refused)
            portAvailability(a, e, out);
        else
            masterNotAnswering(a, probe, timeout, e, out);
    }
}

} // namespace ddpdesk::doctor::detail
