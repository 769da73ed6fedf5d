// Supervisor's multi-node side: node 0 applies what the other nodes' launchers forward, follows each node's
// contact, shows ranks another launcher started from the store, and ends its run with theirs.

#include "launch/run/supervisor_impl.h"
#include "protocol/json_fields.h"

namespace ddpdesk::launch {

void Supervisor::finishWhenNodesEnd(const QString& status, int waitedMs) {
    constexpr int kWaitMs = 5000, kSliceMs = 100;
    // Every node's ranks have ended and its run_end came (its summary is written): node 0's record ends with
    // theirs. Also a node whose launcher node 0 has not heard yet (RunModel::nodeEndsAwaited): its ranks ran
    // with these, and a short run's may end before node 0's link follows that node's stream.
    bool pending = !m_model.nodeEndsAwaited().isEmpty();
    // A node above 0 whose ranks only lost a peer: node 0 may be stopping the job (Ctrl-C there), and the
    // broken connection can outrun its word, which comes through the link (a folder is polled). Its stop,
    // when it comes within the wait, is what ended the run here too.
    if (status == QLatin1String("failed") && d->ending.userStopped()) {
        finishRun(QStringLiteral("stopped"));
        return;
    }
    if (status == QLatin1String("failed") && m_config.nnodes > 1 && !d->nodes.isHub()) {
        const bool consequence = d->ending.onlyPeersLost();
        if (consequence && waitedMs == 0)
            emit message(
                tr("this node's ranks only lost a peer: waiting up to %1 s for node 0's word (a stop "
                   "there) before calling the run failed")
                    .arg(kWaitMs / 1000));
        pending = pending || consequence;
    }
    if (!pending || waitedMs >= kWaitMs) {
        finishRun(status);
        return;
    }
    QTimer::singleShot(kSliceMs, this,
                       [this, status, waitedMs] { finishWhenNodesEnd(status, waitedMs + kSliceMs); });
}

void Supervisor::onRemoteEvent(int node, nlohmann::json& e) {
    if (!m_running) return;
    record(e);
    const protocol::JsonFields fields(e);
    if (fields.text(protocol::field::Source) == "launcher" &&
        fields.text(protocol::field::Event) == protocol::ev::Diagnosis) {
        const QString text = QString::fromStdString(fields.text(protocol::field::Text));
        if (!text.isEmpty()) emit message(tr("node %1: %2").arg(node).arg(text));
    }
    const std::optional<RemoteExit> failed = applyRemoteEvent(m_model, m_config.nproc, e);
    if (!failed || d->ending.userStopped()) return;
    // Another node's rank failed: the job has failed. It is the culprit unless it only lost a peer (also when
    // this node's ranks, losing it, failed a moment before its exit came); this node's ranks are stopped
    // rather than left to fail of it.
    const RankStatus& r = m_model.rank(failed->index);
    Failure f;
    f.index = failed->index;
    f.exitCode = failed->exitCode;
    f.peerLost = failed->exitCode == protocol::exit_code::PeerFailure ||
                 r.errorCode == QLatin1String(protocol::error_code::PeerLost);
    f.text = tr("rank %1 on node %2 (%3) %4").arg(r.rank).arg(node).arg(r.host, failed->text);
    if (!r.errorCode.isEmpty()) f.text += QStringLiteral(" (%1: %2)").arg(r.errorCode, r.errorMessage);
    d->ending.addFailure(f);
    if (d->ending.stopping()) return;
    emit rankFailed(r.rank, f.text);
    beginStopAll(f.text);
}

void Supervisor::onNodeContact(const NodeContact& c, const QString& state) {
    if (!m_running) return;
    const QString node = tr("node %1 (%2)").arg(c.node).arg(c.host);
    QString text;
    m_model.setNodeContact(c.node, c.host, state, c.lastT);
    if (state == QLatin1String(NodeLinkFeed::kConnected)) {
        text = tr("%1: its launcher is connected; its ranks show here").arg(node);
    } else if (state == QLatin1String(NodeLinkFeed::kNoContact)) {
        text = tr("%1: no contact for %2 s").arg(node).arg(NodeLinkFeed::kNoContactS);
    } else {
        text = tr("%1: %2").arg(node, state);
    }
    // A node gone while the run goes on is what its failure comes from: the summary names it first. Also
    // while this node stops its ranks for a failure: they may have lost the node's ranks a moment before its
    // link said so (a node asked to stop ends its run, it is not lost).
    if (!state.startsWith(QLatin1String(NodeLinkFeed::kConnected)) &&
        !state.startsWith(QLatin1String(NodeLinkFeed::kEnded)))
        d->ending.nodeLost(node);
    emit message(text);
    writeLauncherEvent(
        protocol::ev::Node,
        {{protocol::field::Node, c.node}, {protocol::field::Host, c.host}, {protocol::field::State, state}});
}

// Node 0: ranks of a node no launcher of ours speaks for, seen in the store (store_census_watch.h).
void Supervisor::onRanksSeenInStore(int node, const QVector<int>& ranks) {
    if (!m_running) return;
    QStringList list;
    for (int r : ranks)
        list << QString::number(r);
    const QString state = QStringLiteral("%1: %2").arg(QLatin1String(protocol::node_state::StoreOnly),
                                                       list.join(QStringLiteral(", ")));
    m_model.setNodeContact(node, QString(), state);
    emit message(
        tr("node %1: no DDP Desk launcher connected for it, but the store shows its rank(s) %2 (started "
           "by another launcher); shown from the store only")
            .arg(node)
            .arg(list.join(QStringLiteral(", "))));
    writeLauncherEvent(protocol::ev::Node, {{protocol::field::Node, node}, {protocol::field::State, state}});
}

doctor::DoctorRequest Supervisor::diagnosisRequest() const {
    doctor::DoctorRequest req;
    req.store = d->scriptStore.diagnosisStore(m_config).toStdString();
    req.worldSize = m_config.worldSize();
    req.nodeRank = m_config.nodeRank;
    req.jobRunning = m_running;
    req.nodes = nodeReports(m_model, protocol::nowSeconds());
    return req;
}

} // namespace ddpdesk::launch
