#include "launch/model/node_status.h"

#include "protocol/telemetry.h"

namespace ddpdesk::launch {

void RunNodes::reset(int nodes, int thisNode, const QString& thisHost) {
    m_nodes.clear();
    for (int n = 0; n < nodes; ++n) {
        NodeStatus s;
        s.node = n;
        if (n == thisNode) s.host = thisHost;
        s.contact = n == thisNode ? NodeContactState::Here : NodeContactState::Waiting;
        m_nodes << s;
    }
}

bool RunNodes::apply(int node, const QString& host, const QString& state, double t, double lastT) {
    if (node < 0 || node >= m_nodes.size() || m_nodes[node].contact == NodeContactState::Here) return false;
    const int colon = state.indexOf(QLatin1Char(':'));
    const QString name = (colon < 0 ? state : state.left(colon)).trimmed();
    const QString detail = colon < 0 ? QString() : state.mid(colon + 1).trimmed();
    NodeStatus& s = m_nodes[node];
    if (name == QLatin1String(protocol::node_state::Connected)) {
        s.contact = NodeContactState::Connected;
    } else if (name == QLatin1String(protocol::node_state::NoContact)) {
        s.contact = NodeContactState::NoContact;
    } else if (name == QLatin1String(protocol::node_state::Ended)) {
        s.contact = NodeContactState::Ended;
    } else if (name == QLatin1String(protocol::node_state::StoreOnly)) {
        // Only while no launcher of ours speaks for the node.
        if (s.contact != NodeContactState::Waiting && s.contact != NodeContactState::StoreOnly) return true;
        s.contact = NodeContactState::StoreOnly;
    } else if (name == QLatin1String(protocol::node_state::Lost)) {
        if (s.contact == NodeContactState::Ended) return true; // its link closing after its run ended
        s.contact = NodeContactState::Lost;
    } else {
        return false;
    }
    if (!host.isEmpty()) s.host = host;
    s.detail = detail;
    s.sinceT = s.contact == NodeContactState::NoContact && lastT > 0 ? lastT : t;
    return true;
}

QVector<int> RunNodes::endsAwaited() const {
    QVector<int> awaited;
    for (const NodeStatus& s : m_nodes)
        if (s.contact == NodeContactState::Waiting || s.contact == NodeContactState::Connected ||
            s.contact == NodeContactState::NoContact)
            awaited << s.node;
    return awaited;
}

const NodeStatus* RunNodes::node(int node) const {
    return node >= 0 && node < m_nodes.size() ? &m_nodes[node] : nullptr;
}

} // namespace ddpdesk::launch
