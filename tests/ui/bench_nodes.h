#pragma once

// bench_ui_latency --nodes N: the other nodes' ranks reach the Run page as they do on node 0 of a real
// multi-node run, through the node link. Each other node is a child process (`--node-child`) whose
// NodeLinkClient pushes its ranks' step events at its share of the rate; this process hosts the NodeLinkFeed
// (server, inbox, drain on the UI thread) and applies what arrives with applyRemoteEvent, so its CPU time is
// node 0's launcher's.

#include "launch/model/run_model.h"
#include "launch/nodes/node_link_feed.h"

#include <QByteArray>
#include <QProcess>
#include <QStringList>

#include <memory>
#include <vector>

namespace ddpdesk::bench {

QByteArray stepLine(int rank, qint64 step, qint64 sent);

// The child's side: `--node-child NODE PORT RATE RANKS_PER_NODE NODES SECONDS`; returns the exit code.
int runNodeChild(const QStringList& args);

class NodeHub {
public:
    NodeHub(QObject& owner, launch::RunModel& model, int nodes, int ranksPerNode);
    ~NodeHub();
    // Listens on loopback and starts a child per other node; false with why.
    bool start(const QString& self, int rate, double seconds, QString* why);
    int connectedNodes() const;
    qint64 remoteEvents() const { return m_applied; }

private:
    launch::RunModel& m_model;
    const int m_nodes, m_ranksPerNode;
    std::unique_ptr<launch::NodeLinkFeed> m_feed;
    std::vector<std::unique_ptr<QProcess>> m_children;
    qint64 m_applied = 0;
};

} // namespace ddpdesk::bench
