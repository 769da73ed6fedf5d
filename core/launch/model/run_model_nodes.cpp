// RunModel's multi-node part: on node 0 the other nodes' ranks (shown from what their launchers forward) and
// each node's state from its `node` events; on any node, this node's ranks with their node and host.

#include "launch/model/run_model.h"

namespace ddpdesk::launch {

void RunModel::setRemoteRanks(int firstIndex, int nproc) {
    for (int i = qMax(0, firstIndex); i < m_ranks.size(); ++i) {
        RankStatus& r = m_ranks[i];
        r.remote = true;
        r.node = nproc > 0 ? r.rank / nproc : 0;
        r.localRank = nproc > 0 ? r.rank % nproc : -1;
        emit rankUpdated(i);
    }
}

void RunModel::setRemoteHost(int node, const QString& host) {
    for (int i = 0; i < m_ranks.size(); ++i)
        if (m_ranks[i].remote && m_ranks[i].node == node && m_ranks[i].host != host) {
            m_ranks[i].host = host;
            emit rankUpdated(i);
        }
}

void RunModel::setNodes(int thisNode, int nodes, int nproc, bool hub, const QString& thisHost) {
    if (nodes <= 1) return;
    for (int i = 0; i < qMin(nproc, m_ranks.size()); ++i) {
        m_ranks[i].node = thisNode;
        m_ranks[i].host = thisHost;
        emit rankUpdated(i);
    }
    if (!hub) return;
    setRemoteRanks(nproc, nproc);
    m_nodes.reset(nodes, thisNode, thisHost);
    emit nodesChanged();
}

void RunModel::setNodeContact(int node, const QString& host, const QString& state, double lastT) {
    if (m_nodes.nodes().isEmpty()) { // a replay: the recording's nodes, from its ranks
        int nodes = 1;
        for (const RankStatus& r : m_ranks)
            nodes = qMax(nodes, r.node + 1);
        m_nodes.reset(qMax(nodes, node + 1), 0);
    }
    if (!m_nodes.apply(node, host, state, now(), lastT)) return;
    if (!host.isEmpty()) setRemoteHost(node, host);
    const NodeStatus* n = m_nodes.node(node);
    if (n && n->contact == NodeContactState::StoreOnly) { // "2, 3": those ranks are in the job
        for (const QString& r : n->detail.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const int index = indexOfRank(r.trimmed().toInt());
            if (index < 0 || !m_ranks[index].remote || m_ranks[index].node != node) continue;
            m_ranks[index].storeOnly = true;
            emit rankUpdated(index);
        }
    }
    emit nodesChanged();
}

} // namespace ddpdesk::launch
