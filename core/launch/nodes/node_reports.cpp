#include "launch/nodes/node_reports.h"

#include "launch/model/run_model.h"

namespace ddpdesk::launch {

namespace {

const char* stateName(NodeContactState s) {
    switch (s) {
    case NodeContactState::Here:
        return "here";
    case NodeContactState::Waiting:
    case NodeContactState::StoreOnly: // no launcher of ours: the doctor reads the store itself
        return "waiting";
    case NodeContactState::Connected:
        return "connected";
    case NodeContactState::NoContact:
        return "no_contact";
    case NodeContactState::Ended:
        return "ended";
    case NodeContactState::Lost:
        return "lost";
    }
    return "waiting";
}

} // namespace

std::vector<doctor::NodeReport> nodeReports(const RunModel& model, double nowT) {
    std::vector<doctor::NodeReport> out;
    for (const NodeStatus& n : model.nodes()) {
        if (n.contact == NodeContactState::Here) continue;
        doctor::NodeReport r;
        r.node = n.node;
        r.host = n.host.toStdString();
        r.state = stateName(n.contact);
        r.detail = n.detail.toStdString();
        if (n.contact == NodeContactState::NoContact && n.sinceT > 0) r.silentForS = nowT - n.sinceT;
        for (const RankStatus& rank : model.ranks()) {
            if (rank.node != n.node) continue;
            r.ranks.push_back(rank.rank);
            QString state = rankStateName(rank.state);
            if (!rank.exitText.isEmpty()) state += QStringLiteral(": ") + rank.exitText;
            r.rankStates.push_back(state.toStdString());
        }
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace ddpdesk::launch
