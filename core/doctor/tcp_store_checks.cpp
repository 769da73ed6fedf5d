// TCPStore findings: the port, name resolution, reachability of the master, whether a store answers there,
// and (for a live store) which ranks have arrived.

#include "doctor/checks.h"
#include "doctor/os_probes.h"
#include "doctor/tcp_store_client.h"
#include "net/net_socket.h"

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

// `variant` and `detail` name the kind of occupant and its one value, for a translated view (Finding::args).
void portInUse(const protocol::StoreSpec& a, const std::string& what, nlohmann::json e,
               std::vector<Finding>& out, const char* variant, const std::string& detail = {}) {
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
    out.push_back(withArgs(
        makeFinding("PORT_IN_USE", Severity::Error,
                    "Port " + std::to_string(a.port) + " is already taken by " + who + ": " + what +
                        ". The TCPStore on node 0 could not listen there (errno 98, address in use).",
                    e, "Use a free port, e.g. " + std::to_string(free) + ", or end " + who + "."),
        variant,
        {std::to_string(a.port), holders.empty() ? std::string() : who, detail, std::to_string(free)}));
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
    out.push_back(withArgs(
        makeFinding("HOSTNAME_LOOPBACK", localOnly ? Severity::Info : Severity::Warning,
                    "This node's hostname '" + name + "' resolves only to loopback (" + r.addresses.front() +
                        "), so Gloo would advertise an address other nodes cannot reach (they fail with "
                        "'connect [127.0.1.1]: Connection refused'). Harmless while every rank runs on this "
                        "machine.",
                    {{"hostname", name}, {"addresses", r.addresses}},
                    "For multi-node runs set GLOO_SOCKET_IFNAME to this node's network interface (e.g. "
                    "eth0), or map the hostname to the real address in /etc/hosts."),
        "", {name, r.addresses.front()}));
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
    out.push_back(withArgs(
        makeFinding(
            "STORE_EXPOSED", Severity::Warning,
            "The store on port " + port + " listens on " + shown +
                ": anyone who can reach this machine can join as a rank, read the store's keys or change "
                "them, and so stall or take over the run.",
            {{"port", a.port}, {"address", first}, {"addresses", exposed}},
            "Allow port " + port +
                " in the firewall only from the training nodes. Single-node runs need no network: use a "
                "FileStore (it never listens), or a loopback store (tcp://127.0.0.1:" +
                port +
                ") with a LibTorch that hosts it on loopback only (2.3 or newer, not on Windows); PyTorch "
                "1.x's TCPStore listens on every interface whatever host it is given."),
        "", {port, shown}));
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
        out.push_back(withArgs(
            makeFinding("STORE_VALUE_TOO_LARGE", Severity::Warning,
                        "The TCPStore at " + where(a) + " announced " + bytes + " bytes for key '" +
                            oversized->key + "'; the doctor reads at most " + limit +
                            " bytes per value and stopped reading it. Rank records are small: something "
                            "other than the job writes to this store. Not all ranks probed.",
                        {{"key", oversized->key},
                         {"bytes", oversized->bytes},
                         {"limit", TcpStoreClient::kMaxValueBytes},
                         {"values_too_large", oversizedCount}},
                        "Check which program uses this store and port; give the job a store of its own."),
            "", {where(a), bytes, oversized->key, limit}));
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
        if (f.code == "RANKS_MISSING" && f.variant == "listed" && f.evidence["missing"].is_array()) {
            std::vector<int> missing;
            for (const auto& r : f.evidence["missing"])
                if (r.is_number_integer() && r.get<int>() <= maxRank) missing.push_back(r.get<int>());
            std::string list;
            for (int r : missing)
                list += (list.empty() ? "" : ", ") + std::to_string(r);
            list += list.empty() ? "none of ranks " + probed : " (of ranks " + probed + ")";
            f.evidence["missing"] = missing;
            if (f.args.size() == 3) f.args[2] = list;
            f.message = f.args.size() == 3 ? f.args[0] + " of " + f.args[1] + " ranks arrived; rank(s) " +
                                                 list + " never joined, so the others wait in rendezvous."
                                           : f.message;
        }
        f.message += " Not all ranks probed: only ranks " + probed + " were looked up one by one.";
        f.evidence["not_all_ranks_probed"] = true;
        f.evidence["probed_ranks_up_to"] = maxRank;
    }
}

void portInvalid(const protocol::StoreSpec& a, nlohmann::json e, std::vector<Finding>& out) {
    e["suggested_port"] = suggestFreePort();
    out.push_back(withArgs(
        makeFinding("PORT_INVALID", Severity::Error,
                    "'" + a.portText + "' is not a usable TCP port (expected a number 1..65535).", e,
                    "Use a port such as " + e["suggested_port"].dump() + " (29500 is PyTorch's default)."),
        "", {a.portText, e["suggested_port"].dump()}));
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
        portInUse(a,
                  "a TCPStore of another job is listening there (" + std::to_string(probe.numKeys) + " keys)",
                  e, out, "store", std::to_string(probe.numKeys));
        censusOver(request, a, timeout, false, out);
        return;
    }
    out.push_back(withArgs(makeFinding("STORE_REACHABLE", Severity::Info,
                                       "A TCPStore answers at " + a.host + ":" + std::to_string(a.port) +
                                           " (" + std::to_string(probe.numKeys) + " keys).",
                                       e),
                           "", {a.host, std::to_string(a.port), std::to_string(probe.numKeys)}));
    censusOver(request, a, timeout, !host && !request.jobRunning, out);
}

void notAStore(const DoctorRequest& request, const protocol::StoreSpec& a, const std::string& answer,
               nlohmann::json e, std::vector<Finding>& out) {
    e["answer"] = answer;
    if (request.nodeRank == 0 && !request.jobRunning) {
        portInUse(a, "something that is not a TCPStore listens there (" + answer + ")", e, out, "other",
                  answer);
        return;
    }
    out.push_back(
        withArgs(makeFinding("NOT_A_STORE", Severity::Error,
                             "Something listens at " + a.host + ":" + std::to_string(a.port) +
                                 " but does not answer like a c10d TCPStore: " + answer + ".",
                             e,
                             "Check the port: another service owns it. Point every rank at the port "
                             "the master's TCPStore really uses."),
                 "", {a.host, std::to_string(a.port), answer}));
}

// Node 0 before its run, nothing listening: whether its TCPStore will be able to listen on the port.
void portAvailability(const protocol::StoreSpec& a, nlohmann::json e, std::vector<Finding>& out) {
    auto bind = net::tryBind(a.port);
    if (bind.status == net::BindStatus::InUse) {
        e["error"] = bind.error;
        portInUse(a, "a socket is bound to it (not listening yet)", e, out, "bound");
    } else if (bind.status == net::BindStatus::AccessDenied) {
        e["error"] = bind.error;
        const int free = suggestFreePort(a.port);
        out.push_back(
            withArgs(makeFinding("PORT_EXCLUDED", Severity::Error,
                                 "The OS refuses to let this node listen on port " + std::to_string(a.port) +
                                     " (" + bind.error +
                                     "): on Windows it lies in an excluded port range "
                                     "(see 'netsh interface ipv4 show excludedportrange protocol=tcp'); on "
                                     "Linux ports below 1024 need privileges.",
                                 e, "Pick a port outside those ranges, e.g. " + std::to_string(free) + "."),
                     "", {std::to_string(a.port), bind.error, std::to_string(free)}));
    } else {
        out.push_back(
            withArgs(makeFinding("PORT_FREE", Severity::Info,
                                 "Port " + std::to_string(a.port) + " is free for the TCPStore.", e),
                     "", {std::to_string(a.port)}));
    }
}

// Another node found no store at the address: refused, dropped or unreachable.
void masterNotAnswering(const protocol::StoreSpec& a, const TcpStoreClient::OpenResult& probe,
                        net::Millis timeout, nlohmann::json e, std::vector<Finding>& out) {
    if (probe.connect == net::ConnectStatus::Refused) {
        out.push_back(
            withArgs(makeFinding("MASTER_REFUSED", Severity::Error,
                                 "Nothing listens at " + a.host + ":" + std::to_string(a.port) +
                                     ": the master (node 0, rank 0) has not started yet or has crashed.",
                                 e,
                                 "Start node 0 first (it hosts the TCPStore), check it is still running, and "
                                 "that every node uses the same host and port."),
                     "", {a.host, std::to_string(a.port)}));
    } else if (probe.connect == net::ConnectStatus::TimedOut) {
        e["timeout_ms"] = timeout.count();
        out.push_back(withArgs(makeFinding("MASTER_TIMEOUT", Severity::Error,
                                           "No answer from " + a.host + ":" + std::to_string(a.port) +
                                               " within " + std::to_string(timeout.count()) +
                                               " ms: packets are dropped, typically by a firewall. Note that "
                                               "Gloo also opens further pairwise "
                                               "connections between all nodes on other (ephemeral) ports, so "
                                               "opening only the store port is not "
                                               "enough.",
                                           e,
                                           "Allow the program (ddpdesk-worker / python) through the firewall "
                                           "on every node rather than a "
                                           "single port, and check that the master address is right."),
                               "", {a.host, std::to_string(a.port), std::to_string(timeout.count())}));
    } else {
        out.push_back(withArgs(
            makeFinding("MASTER_UNREACHABLE", Severity::Error,
                        "Cannot reach " + a.host + ":" + std::to_string(a.port) + ": " + probe.detail + ".",
                        e, "Check the network route to the master node and its address."),
            "", {a.host, std::to_string(a.port), probe.detail}));
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
        out.push_back(withArgs(
            makeFinding("HOST_UNRESOLVED", Severity::Error,
                        "The store host '" + a.host + "' does not resolve: " + resolved.error + ".", e,
                        "Use the master node's IP address, or fix its name in DNS or the hosts file."),
            "", {a.host, resolved.error}));
        return;
    }
    e["addresses"] = resolved.addresses;

    const bool host = request.nodeRank == 0;
    const bool loopbackStore = net::isLoopbackAddress(resolved.addresses.front());
    if (host)
        hostnameLoopback(out, timeout, loopbackStore);
    else if (loopbackStore)
        out.push_back(
            withArgs(makeFinding("MASTER_LOOPBACK", Severity::Warning,
                                 "Node " + std::to_string(request.nodeRank) + " would connect to " + a.host +
                                     ", which is this machine itself, not the master node.",
                                 e, "Use the master node's network address in the store address."),
                     "", {std::to_string(request.nodeRank), a.host}));

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
