// TCPStore findings: the port, name resolution, reachability of the master, whether a store answers there, and
// (for a live store) which ranks have arrived.

#include "doctor/checks.h"
#include "doctor/net_socket.h"
#include "doctor/os_probes.h"
#include "doctor/tcp_store_client.h"

#include <chrono>
#include <future>
#include <memory>
#include <thread>

namespace ddpdesk::doctor::detail {

namespace {

// getaddrinfo has no timeout of its own; a detached thread keeps a slow DNS from stalling the diagnosis.
net::Resolved resolveBounded(const std::string& host, net::Millis timeout) {
    auto task = std::make_shared<std::packaged_task<net::Resolved()>>([host] { return net::resolveHost(host); });
    auto result = task->get_future();
    std::thread([task] { (*task)(); }).detach();
    if (result.wait_for(timeout) != std::future_status::ready) {
        net::Resolved r;
        r.error = "no answer from name resolution within " + std::to_string(timeout.count()) + " ms";
        return r;
    }
    return result.get();
}

nlohmann::json holdersJson(const std::vector<os::ProcessRef>& holders) {
    nlohmann::json arr = nlohmann::json::array();
    for (const auto& p : holders)
        arr.push_back({{"pid", p.pid}, {"process", p.name}, {"how", p.how}});
    return arr;
}

// `variant` and `detail` name the kind of occupant and its one value, for a translated view (Finding::args).
void portInUse(const StoreAddress& a, const std::string& what, nlohmann::json e, std::vector<Finding>& out,
               const char* variant, const std::string& detail = {}) {
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

// `localOnly`: the store itself is on loopback, so every rank runs here and the advertised address is harmless.
void hostnameLoopback(std::vector<Finding>& out, net::Millis timeout, bool localOnly) {
    const std::string name = net::localHostName();
    if (name.empty())
        return;
    auto r = resolveBounded(name, timeout);
    if (!r.ok)
        return;
    for (const auto& a : r.addresses)
        if (!net::isLoopbackAddress(a))
            return;
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

void censusOver(const DoctorRequest& request, const StoreAddress& a, net::Millis timeout, bool pending,
                std::vector<Finding>& out) {
    TcpStoreClient reader(a.host, a.port, timeout);
    if (reader.open().outcome != TcpStoreClient::Outcome::Store)
        return;
    int maxRank = request.worldSize > 0 ? request.worldSize + 3 : 15;
    auto census = censusFromReader([&](const std::string& key) { return reader.get(key); }, maxRank);
    reportCensus(request, census, pending, out);
}

} // namespace

void checkTcpStore(const DoctorRequest& request, const StoreAddress& a, std::vector<Finding>& out) {
    const auto timeout = net::Millis(static_cast<long long>(request.probeTimeoutSec * 1000));
    nlohmann::json e = {{"host", a.host}, {"port", a.portText}};

    if (a.port < 1) {
        e["suggested_port"] = suggestFreePort();
        out.push_back(withArgs(
            makeFinding("PORT_INVALID", Severity::Error,
                        "'" + a.portText + "' is not a usable TCP port (expected a number 1..65535).", e,
                        "Use a port such as " + e["suggested_port"].dump() +
                            " (29500 is PyTorch's default)."),
            "", {a.portText, e["suggested_port"].dump()}));
        return;
    }
    e["port"] = a.port;
    auto resolved = resolveBounded(a.host, timeout);
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

    TcpStoreClient client(a.host, a.port, timeout);
    const auto probe = client.open();
    e["address"] = probe.address;
    if (probe.outcome == TcpStoreClient::Outcome::Store) {
        e["dialect"] = probe.dialect;
        e["keys"] = probe.numKeys;
        if (host && !request.jobRunning) {
            portInUse(a,
                      "a TCPStore of another job is listening there (" + std::to_string(probe.numKeys) +
                          " keys)",
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
        return;
    }
    if (probe.outcome == TcpStoreClient::Outcome::NotAStore) {
        e["answer"] = probe.detail;
        if (host && !request.jobRunning) {
            portInUse(a, "something that is not a TCPStore listens there (" + probe.detail + ")", e, out,
                      "other", probe.detail);
            return;
        }
        out.push_back(
            withArgs(makeFinding("NOT_A_STORE", Severity::Error,
                                 "Something listens at " + a.host + ":" + std::to_string(a.port) +
                                     " but does not answer like a c10d TCPStore: " + probe.detail + ".",
                                 e,
                                 "Check the port: another service owns it. Point every rank at the port the "
                                 "master's TCPStore really uses."),
                     "", {a.host, std::to_string(a.port), probe.detail}));
        return;
    }

    e["error"] = probe.detail;
    if (host && !request.jobRunning && probe.connect == net::ConnectStatus::Refused) {
        auto bind = net::tryBind(a.port);
        if (bind.status == net::BindStatus::InUse) {
            e["error"] = bind.error;
            portInUse(a, "a socket is bound to it (not listening yet)", e, out, "bound");
        } else if (bind.status == net::BindStatus::AccessDenied) {
            e["error"] = bind.error;
            const int free = suggestFreePort(a.port);
            out.push_back(withArgs(
                makeFinding("PORT_EXCLUDED", Severity::Error,
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
        return;
    }
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

} // namespace ddpdesk::doctor::detail
