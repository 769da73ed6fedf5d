#pragma once

// The seam between the Supervisor's policy (attempts, restarts, the culprit, the stop) and the mechanism that
// starts, signals and reaps a run's local ranks, as torch.distributed.elastic's agent is policy over
// _start_workers. RankProcesses implements it with QProcess; tests implement it in memory, so the policy is
// tested in milliseconds without a process (tests/launch/test_supervisor_logic.cpp).

#include "launch/config/run_config.h"

#include <QByteArray>
#include <QObject>
#include <QSet>
#include <QString>

#include <functional>
#include <memory>

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

class RankLauncher {
public:
    // What the launcher reports, always on the owner's thread, in this order per rank: started (unless it
    // never started), lines, exited; then allExited once every rank of the attempt has exited.
    struct Events {
        std::function<void(int index, qint64 pid, bool warm)> started;
        // A whole line (without its '\n'), cut at 64 KiB.
        std::function<void(int index, const QByteArray& line, bool isStderr)> line;
        // signalled: 0 none, 1 terminate sent, 2 kill sent. startError: the process never started.
        std::function<void(int index, int exitCode, bool crashed, const QString& startError, int signalled)>
            exited;
        std::function<void()> allExited; // after the last exit of the attempt
        std::function<void(const QString& text)> message;
    };
    // owner: the processes' parent and the context of their connections. config: the run's, read at spawn.
    using Factory =
        std::function<std::unique_ptr<RankLauncher>(QObject& owner, const RunConfig& config, Events events)>;

    virtual ~RankLauncher() = default;

    virtual void setWarmWorkers(WarmWorkers* pool) = 0; // worker ranks take waiting ones first; not owned
    virtual void setLaunch(const RankLaunch& launch) = 0;
    // A new attempt: the last one's ranks are let go, config.nproc empty places made.
    virtual void clear() = 0;
    virtual void spawnAll(const RankAttempt& attempt) = 0;
    // Terminates every running rank (and what exited ranks left), kills what remains after killAfterMs.
    virtual void terminateAll(int killAfterMs) = 0;
    virtual void endLeftovers(int graceMs) = 0; // what the ranks started and left behind
    // Kills whatever still runs and waits for it (the owner's destructor): nothing is reported any more.
    virtual void killAll() = 0;
    virtual QSet<qint64> livePids() const = 0; // this attempt's ranks that have not exited
};

} // namespace ddpdesk::launch
