// NODE_* findings: node 0 of a multi-node run knows from the node link which other nodes' launchers are
// connected, silent, lost or ended, and what their ranks do; beside the ranks the store shows, that names the
// node a missing rank is on and why it is missing.

#include "doctor/checks.h"
#include "os/utf8_path.h"
#include "protocol/finding_codes.h"
#include "protocol/node_link.h"

#include <cmath>
#include <sstream>

namespace ddpdesk::doctor::detail {

namespace {

std::string join(const std::vector<int>& ranks) {
    std::ostringstream s;
    for (std::size_t i = 0; i < ranks.size(); ++i)
        s << (i ? ", " : "") << ranks[i];
    return s.str();
}

std::string seconds(double s) {
    return std::to_string(static_cast<long long>(std::lround(std::max(0.0, s))));
}

nlohmann::json evidenceOf(const NodeReport& n) {
    nlohmann::json e = {{"node", n.node}, {"host", n.host}, {"state", n.state}, {"ranks", n.ranks}};
    if (!n.detail.empty()) e["detail"] = n.detail;
    if (n.silentForS >= 0) e["silent_for_s"] = n.silentForS;
    if (!n.rankStates.empty()) e["rank_states"] = n.rankStates;
    return e;
}

} // namespace

void reportNodes(const DoctorRequest& request, const std::set<int>* arrived, std::vector<Finding>& out) {
    if (request.nodes.empty()) return;
    const protocol::StoreSpec spec = protocol::parseStoreSpec(request.store);
    const int storePort = spec.kind == protocol::StoreSpec::Kind::Tcp ? spec.port : -1;
    const std::string linkPort =
        storePort > 0 ? std::to_string(storePort + protocol::node_link::kPortOffset) : std::string("?");
    // With a FileStore the launchers meet in a folder beside the store file (the share), not on a port.
    const bool overFolder = spec.kind == protocol::StoreSpec::Kind::File;
    const std::string storeFolder = overFolder ? ddpdesk::os::utf8(spec.path.parent_path()) : std::string();
    for (const NodeReport& n : request.nodes) {
        if (n.node == request.nodeRank) continue; // this node: the store's own facts speak for its ranks
        const std::string node = std::to_string(n.node);
        const std::string host = n.host.empty() ? std::string("?") : n.host;
        std::vector<int> in, missing;
        for (std::size_t i = 0; i < n.ranks.size(); ++i)
            (arrived && arrived->count(n.ranks[i]) ? in : missing).push_back(n.ranks[i]);
        const nlohmann::json e = evidenceOf(n);
        if (n.state == "lost") {
            out.push_back(textFinding(protocol::finding::NodeLost, Severity::Error,
                                      {node, host, n.detail, join(n.ranks)}, e));
        } else if (n.state == "no_contact") {
            out.push_back(
                textFinding(protocol::finding::NodeSilent, overFolder ? "folder" : "", Severity::Warning,
                            {node, host, seconds(n.silentForS), overFolder ? storeFolder : linkPort}, e));
        } else if (n.state == "ended") {
            out.push_back(textFinding(protocol::finding::NodeEnded,
                                      n.detail == "ok" ? Severity::Info : Severity::Warning,
                                      {node, host, n.detail}, e));
        } else if (n.state == "waiting") {
            const bool storeOnly = arrived && !in.empty();
            const std::string variant =
                std::string(storeOnly ? "store" : "nothing") + (overFolder ? "_folder" : "");
            out.push_back(
                textFinding(protocol::finding::NodeNotConnected, variant, Severity::Warning,
                            {node, join(storeOnly ? in : n.ranks), overFolder ? storeFolder : linkPort,
                             storePort > 0 ? std::to_string(storePort) : std::string("?")},
                            e));
        } else if (arrived && !missing.empty()) {
            std::ostringstream states;
            for (std::size_t i = 0; i < n.ranks.size() && i < n.rankStates.size(); ++i)
                if (!arrived->count(n.ranks[i]))
                    states << (states.tellp() > 0 ? "; " : "") << "rank " << n.ranks[i] << " "
                           << n.rankStates[i];
            out.push_back(textFinding(protocol::finding::NodeRanksNotArrived, Severity::Warning,
                                      {node, host, join(missing), states.str()}, e));
        } else if (arrived) {
            out.push_back(textFinding(protocol::finding::NodeConnected, Severity::Info,
                                      {node, host, join(n.ranks)}, e));
        } else { // the store could not tell which ranks arrived: what the launcher says of them
            std::ostringstream states;
            for (std::size_t i = 0; i < n.ranks.size() && i < n.rankStates.size(); ++i)
                states << (i ? "; " : "") << "rank " << n.ranks[i] << " " << n.rankStates[i];
            out.push_back(textFinding(protocol::finding::NodeConnected, "reports", Severity::Info,
                                      {node, host, states.str()}, e));
        }
    }
}

} // namespace ddpdesk::doctor::detail
