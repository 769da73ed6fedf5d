#pragma once

// Node 0 of a multi-node run: each node's state as node 0's launcher knows it, from the `node` events its
// node link writes (live, or replayed from metrics.jsonl): this machine, waiting for the node's launcher (or
// no launcher of ours, its ranks seen in the store), connected, no contact since a time, its run ended (with
// its status), or its link lost (with why).

#include <QString>
#include <QVector>

namespace ddpdesk::launch {

enum class NodeContactState { Here, Waiting, StoreOnly, Connected, NoContact, Ended, Lost };

struct NodeStatus {
    int node = 0;
    QString host;
    NodeContactState contact = NodeContactState::Waiting;
    double sinceT = 0; // unix seconds: its last frame (no contact), else when the state began
    QString detail;    // lost: why; ended: its run's status (ok, failed, stopped); store only: its ranks seen
};

class RunNodes {
public:
    // This node (on thisHost) and `nodes` in all; the others wait for their launchers.
    void reset(int nodes, int thisNode, const QString& thisHost = QString());
    // A `node` event's state ("connected", "no_contact", "lost: WHY", "ended: ok"); lastT: its last frame.
    // False for a state this build does not know.
    bool apply(int node, const QString& host, const QString& state, double t, double lastT);
    const QVector<NodeStatus>& nodes() const { return m_nodes; }
    const NodeStatus* node(int node) const;
    // Node 0, its own ranks ended: the nodes whose end its record still waits for. One whose launcher is
    // connected (or silent) and has not said its run ended, and one whose launcher it has not heard yet: over
    // a folder, a stream that was there before node 0's first look is followed only once it grows (a second
    // or two), in which a short run's ranks may all be done, and that node's ranks belong in the summary
    // too. Not one that ended or was lost, nor one of no launcher of ours (its ranks seen in the store).
    QVector<int> endsAwaited() const;

private:
    QVector<NodeStatus> m_nodes;
};

} // namespace ddpdesk::launch
