#pragma once

// Owns the rank processes of the current attempt: one QProcess per local rank (fresh, or a warm worker),
// their partial output lines, who exited and which stop signal each was sent, the ProcessGuard that keeps
// their children with them, and the kill timer of a stop. Hands whole lines and exits to its owner
// (Supervisor).

#include "launch/config/run_config.h"
#include "launch/process/process_control.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QPointer>
#include <QProcess>
#include <QSet>
#include <QString>
#include <QTimer>

#include <functional>
#include <vector>

class QProcessEnvironment;

namespace ddpdesk::launch {

class WarmWorkers;

// What every rank of a run is started with; fixed for the run (Supervisor::start).
struct RankLaunch {
    QString program;       // ddpdesk-worker; empty for a script run
    QString instrumentDir; // holds ddpdesk_instrument.py for script ranks; empty: not instrumented
    QString stacksDir;     // the ranks' stacks files (stack_dump.h); empty: no rank can be asked
    QString runSecret;     // hex, handed to workers through the environment only (protocol/run_auth.h)
};

// What changes from one attempt to the next.
struct RankAttempt {
    int attempt = 0;         // 0 first, 1.. restarts
    int scriptPort = 0;      // MASTER_PORT of a script run
    bool agentStore = false; // the script's ranks join a store DDP Desk hosts (ScriptStoreHost)
};

class RankProcesses {
    Q_DECLARE_TR_FUNCTIONS(ddpdesk::launch::Supervisor) // its texts keep the Supervisor's translations

public:
    // Longer lines are cut: a worker printing megabytes must not hurt us.
    static constexpr int kMaxLine = 64 * 1024;

    struct Events {
        std::function<void(int index, QProcess& process, bool warm)> started;
        // A whole line (without its '\n'), cut at kMaxLine.
        std::function<void(int index, const QByteArray& line, bool isStderr)> line;
        // signalled: 0 none, 1 terminate sent, 2 kill sent. startError: the process never started.
        std::function<void(int index, int exitCode, bool crashed, const QString& startError, int signalled)>
            exited;
        std::function<void()> allExited; // after the last exit of the attempt
        std::function<void(const QString& text)> message;
    };

    // The worker executable: $DDPDESK_WORKER, else ddpdesk-worker next to the running executable. Empty +
    // error when not found.
    static QString findWorker(QString* error);

    // owner: the processes' parent and the context of their connections. config: the run's, read at spawn.
    RankProcesses(QObject& owner, const RunConfig& config, Events events);

    void setWarmWorkers(WarmWorkers* pool); // worker ranks take waiting ones first; not owned
    void setLaunch(const RankLaunch& launch) { m_launch = launch; }

    // A new attempt: the last one's processes are deleted later, config.nproc empty places made.
    void clear();
    void spawnAll(const RankAttempt& attempt);
    // Terminates every running rank (and what exited ranks left), kills what remains after killAfterMs.
    void terminateAll(int killAfterMs);
    void endLeftovers(int graceMs) { m_guard.endLeftovers(graceMs); }
    // Kills whatever still runs and waits for it (the owner's destructor): nothing is reported any more.
    void killAll();
    QSet<qint64> livePids() const; // this attempt's ranks that have not exited

private:
    struct Worker {
        QProcess* process = nullptr;                   // owned by the owner (QObject parent)
        QByteArray outBuf, errBuf;                     // partial lines
        bool outSkipping = false, errSkipping = false; // inside an over-long line
        bool exited = false;
        int signalled = 0; // 0 none, 1 terminate sent, 2 kill sent
    };

    void spawn(int index);
    QProcessEnvironment environment(int index) const;
    void onStarted(int index, QProcess& process, bool warm);
    void onOutput(int index, bool isStderr);
    void deliver(int index, const QByteArray& raw, bool isStderr);
    void onExited(int index, int exitCode, bool crashed, const QString& startError = QString());
    void killRemaining();

    QObject& m_owner;
    const RunConfig& m_config;
    Events m_events;
    RankLaunch m_launch;
    RankAttempt m_attempt;
    QPointer<WarmWorkers> m_warm;
    ProcessGuard m_guard;
    std::vector<Worker> m_workers;
    int m_exited = 0;
    QTimer m_killTimer;
    int m_killAfterMs = 0;
};

} // namespace ddpdesk::launch
