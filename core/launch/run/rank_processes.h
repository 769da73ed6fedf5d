#pragma once

// The RankLauncher of real runs (rank_launcher.h): one QProcess per local rank of the current attempt (fresh,
// or a warm worker), their partial output lines, who exited and which stop signal each was sent, the
// ProcessGuard that keeps their children with them, and the kill timer of a stop. Hands whole lines and exits
// to its owner (Supervisor).

#include "launch/config/run_config.h"
#include "launch/process/process_control.h"
#include "launch/run/rank_launcher.h"

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

class RankProcesses final : public RankLauncher {
    Q_DECLARE_TR_FUNCTIONS(ddpdesk::launch::Supervisor) // its texts keep the Supervisor's translations

public:
    // Longer lines are cut: a worker printing megabytes must not hurt us.
    static constexpr int kMaxLine = 64 * 1024;

    // The worker executable: $DDPDESK_WORKER, else ddpdesk-worker next to the running executable. Empty +
    // error when not found.
    static QString findWorker(QString* error);

    // owner: the processes' parent and the context of their connections. config: the run's, read at spawn.
    RankProcesses(QObject& owner, const RunConfig& config, Events events);

    void setWarmWorkers(WarmWorkers* pool) override;
    void setLaunch(const RankLaunch& launch) override { m_launch = launch; }
    void clear() override; // the last attempt's processes are deleted later
    void spawnAll(const RankAttempt& attempt) override;
    void terminateAll(int killAfterMs) override;
    void endLeftovers(int graceMs) override { m_guard.endLeftovers(graceMs); }
    void killAll() override;
    QSet<qint64> livePids() const override;

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
