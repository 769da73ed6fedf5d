#pragma once

// How a run's attempt ends, as rules over plain state: the ranks' failures and the culprit among them, a stop
// on its way (the user's, or every rank's after a failure) and why, a restart waiting to start, and the nodes
// lost meanwhile. No processes and no timers: the Supervisor tells it what happened and asks it what that
// means (launch.run_ending tests it alone; launch.supervisor_logic through the Supervisor and a fake
// launcher).

#include <QString>
#include <QStringList>
#include <QVector>

namespace ddpdesk::launch {

class RunEnding {
public:
    struct Failure {
        int index = -1; // the rank's index in the model
        int exitCode = -1;
        bool peerLost = false; // failed because another rank died: a consequence, not the cause
        QString text;          // "rank 1 exit code 3 (ERROR: ...)"
    };

    // A new attempt (the first, or a restart): no failure, no stop, no node lost.
    void beginAttempt();

    void addFailure(const Failure& f);
    bool hasFailures() const { return !m_failures.isEmpty(); }
    const Failure& latest() const { return m_failures.back(); } // hasFailures() first
    // The rank to blame: the first failure that is not a mere consequence (PEER_LOST), else the first.
    const Failure& culprit() const; // hasFailures() first
    // There are failures, and each only lost a peer: on a node above 0, what node 0's stop may explain.
    bool onlyPeersLost() const;

    // Every rank is being stopped from now on; false when a stop already began (its reason stays).
    bool beginStop(const QString& reason);
    bool stopping() const { return m_stopping; }
    // The user's stop (Ctrl-C, the Stop button, node 0's word): the run ends "stopped", and a rank that then
    // only lost its peers was stopped with it.
    void userStops(const QString& reason);
    bool userStopped() const { return m_userStop; }
    const QString& stopReason() const { return m_stopReason; }

    void setRestartPending(bool pending) { m_restartPending = pending; }
    bool restartPending() const { return m_restartPending; }

    // Node 0: a node whose launcher went silent or lost its link while the run went on; named first in the
    // failure's reason. Not after the user's stop (a node asked to stop ends its run, it is not lost).
    void nodeLost(const QString& node);

    // How the attempt ended once every rank has exited: "stopped", "ok" or "failed".
    QString status() const;
    // The summary's words for a failed run: the culprit, how many failed, the nodes lost first.
    QString failureReason() const;

private:
    QVector<Failure> m_failures;
    QStringList m_lostNodes;
    QString m_stopReason;
    bool m_stopping = false;
    bool m_userStop = false;
    bool m_restartPending = false;
};

} // namespace ddpdesk::launch
