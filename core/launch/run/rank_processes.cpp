// Starting a rank: a fresh process, or a waiting warm worker given its arguments, environment and folder;
// reading its output line by line; stopping it (terminate, then kill).
#include "launch/run/rank_processes.h"

#include "launch/watch/collective_watch.h"
#include "protocol/collective_progress.h"

#include "launch/diagnose/stack_dump.h"
#include "launch/run/script_instrument.h"
#include "launch/run/warm_workers.h"
#include "os/platform.h"
#include "protocol/run_auth.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QProcessEnvironment>

namespace ddpdesk::launch {

QString RankProcesses::findWorker(QString* error) {
    const QString fromEnv = qEnvironmentVariable("DDPDESK_WORKER");
    QString path = fromEnv;
    if (path.isEmpty())
        path = QDir(QCoreApplication::applicationDirPath())
                   .filePath(QString::fromStdString(os::executableName("ddpdesk-worker")));
    const QFileInfo fi(path);
    if (!fi.isFile() || !fi.isExecutable()) {
        if (error)
            *error = fromEnv.isEmpty()
                         ? tr("ddpdesk-worker not found next to this program (%1); reinstall DDP Desk "
                              "or set DDPDESK_WORKER to its path")
                               .arg(path)
                         : tr("DDPDESK_WORKER=%1 is not an executable file").arg(path);
        return QString();
    }
    return fi.absoluteFilePath();
}

RankProcesses::RankProcesses(QObject& owner, const RunConfig& config, Events events)
    : m_owner(owner), m_config(config), m_events(std::move(events)) {
    m_killTimer.setSingleShot(true);
    QObject::connect(&m_killTimer, &QTimer::timeout, &m_owner, [this] { killRemaining(); });
}

void RankProcesses::setWarmWorkers(WarmWorkers* pool) {
    m_warm = pool;
}

void RankProcesses::clear() {
    for (Worker& w : m_workers)
        if (w.process) w.process->deleteLater();
    m_workers.clear();
    m_workers.resize(size_t(m_config.nproc));
    m_exited = 0;
}

void RankProcesses::spawnAll(const RankAttempt& attempt) {
    m_attempt = attempt;
    for (int i = 0; i < m_config.nproc; ++i)
        spawn(i);
}

QProcessEnvironment RankProcesses::environment(int index) const {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QMap<QString, QString> rankEnv = m_config.rankEnvironment(index, m_attempt.scriptPort);
    for (auto it = rankEnv.begin(); it != rankEnv.end(); ++it)
        env.insert(it.key(), it.value());
    env.insert(QStringLiteral("TORCHELASTIC_RESTART_COUNT"), QString::number(m_attempt.attempt));
    // A DDP Desk started under torchrun inherits its agent's word; only this launcher's own store may say so.
    if (m_attempt.agentStore)
        env.insert(QStringLiteral("TORCHELASTIC_USE_AGENT_STORE"), QStringLiteral("True"));
    else
        env.remove(QStringLiteral("TORCHELASTIC_USE_AGENT_STORE"));
    if (!m_launch.stacksDir.isEmpty()) {
        const int rank = m_config.globalRank(index);
        env.insert(QString::fromLatin1(protocol::kStacksFileEnv), stacksFile(m_launch.stacksDir, rank));
        env.insert(QString::fromLatin1(protocol::kStacksRequestEnv),
                   stacksRequestFile(m_launch.stacksDir, rank));
        env.insert(QString::fromLatin1(protocol::kCollectivesFileEnv),
                   collectivesFile(m_launch.stacksDir, rank));
    }
    // The secret travels in the environment, never on a command line (ps shows those); scripts have no use
    // for it.
    if (m_config.isScript())
        env.remove(QString::fromLatin1(protocol::kRunSecretEnv));
    else
        env.insert(QString::fromLatin1(protocol::kRunSecretEnv), m_launch.runSecret);
    return env;
}

void RankProcesses::spawn(int index) {
    Worker& w = m_workers[index];
    w = Worker();
    const QProcessEnvironment env = environment(index);
    // A script runs where torchrun would run it (files it reads and writes by relative path land there); the
    // worker runs in its output folder.
    const QString workDir = m_config.isScript() ? m_config.effectiveWorkDir() : m_config.outDir;
    QProcessEnvironment warmEnv;
    QProcess* warm =
        !m_config.isScript() && m_warm ? m_warm->take(m_launch.program, &m_owner, &warmEnv) : nullptr;
    auto* p = warm ? warm : new QProcess(&m_owner);
    w.process = p;
    QStringList args;
    if (m_config.isScript()) {
        const QString interp = m_config.interpreter();
        p->setProgram(interp.isEmpty() ? m_config.scriptFile : interp);
        const QStringList scriptArgs = m_config.scriptArguments(index);
        if (!m_launch.instrumentDir.isEmpty()) // only with an interpreter (instrumentsScript)
            args = instrumentedArguments(m_config, index, m_launch.instrumentDir);
        else
            args = interp.isEmpty() ? scriptArgs : QStringList{m_config.scriptFile} + scriptArgs;
    } else {
        args = m_config.workerArgs(index);
        if (m_attempt.attempt > 0 && !args.contains(QStringLiteral("--resume")))
            args << QStringLiteral("--resume");
    }
    QObject::connect(p, &QProcess::readyReadStandardOutput, &m_owner,
                     [this, index] { onOutput(index, false); });
    QObject::connect(p, &QProcess::readyReadStandardError, &m_owner,
                     [this, index] { onOutput(index, true); });
    QObject::connect(p, &QProcess::finished, &m_owner, [this, index](int code, QProcess::ExitStatus status) {
        onExited(index, code, status == QProcess::CrashExit);
    });
    if (warm) {
        // Its end, if it went away just now, arrives as `finished` like any rank's.
        WarmWorkers::configure(*p, args, env, warmEnv, workDir);
        onStarted(index, *p, true);
        return;
    }
    if (!m_config.isScript()) p->setProgram(m_launch.program);
    p->setArguments(args);
    p->setProcessEnvironment(env);
    p->setWorkingDirectory(workDir);
    m_guard.prepare(*p);
    QObject::connect(p, &QProcess::started, &m_owner, [this, index, p] { onStarted(index, *p, false); });
    QObject::connect(p, &QProcess::errorOccurred, &m_owner, [this, index, p](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            onExited(index, -1, false, tr("could not start %1: %2").arg(p->program(), p->errorString()));
    });
    p->start();
}

void RankProcesses::onStarted(int index, QProcess& p, bool warm) {
    m_guard.adopt(p);
    m_events.started(index, p.processId(), warm);
}

void RankProcesses::onOutput(int index, bool isStderr) {
    if (index >= int(m_workers.size()) || !m_workers[index].process) return;
    Worker& w = m_workers[index];
    QByteArray& buf = isStderr ? w.errBuf : w.outBuf;
    bool& skipping = isStderr ? w.errSkipping : w.outSkipping;
    buf += isStderr ? w.process->readAllStandardError() : w.process->readAllStandardOutput();
    int start = 0;
    for (;;) {
        const int nl = buf.indexOf('\n', start);
        if (nl < 0) break;
        if (!skipping) deliver(index, buf.mid(start, nl - start), isStderr);
        skipping = false;
        start = nl + 1;
    }
    buf.remove(0, start);
    if (buf.size() > kMaxLine) {
        if (!skipping) deliver(index, buf.left(kMaxLine) + " [line cut at 64 KiB]", isStderr);
        skipping = true;
        buf.clear();
    }
}

void RankProcesses::deliver(int index, const QByteArray& raw, bool isStderr) {
    m_events.line(index, raw.size() > kMaxLine ? raw.left(kMaxLine) + " [line cut at 64 KiB]" : raw,
                  isStderr);
}

void RankProcesses::onExited(int index, int exitCode, bool crashed, const QString& startError) {
    if (index >= int(m_workers.size())) return;
    Worker& w = m_workers[index];
    if (w.exited) return;
    w.exited = true;
    if (w.process) {
        onOutput(index, false);
        onOutput(index, true);
        if (!w.outBuf.isEmpty()) deliver(index, w.outBuf, false);
        if (!w.errBuf.isEmpty()) deliver(index, w.errBuf, true);
        w.outBuf.clear();
        w.errBuf.clear();
    }
    m_events.exited(index, exitCode, crashed, startError, w.signalled);
    if (++m_exited == int(m_workers.size())) {
        m_killTimer.stop();
        m_events.allExited();
    }
}

void RankProcesses::terminateAll(int killAfterMs) {
    for (Worker& w : m_workers) {
        if (w.process && !w.exited && w.process->state() != QProcess::NotRunning) {
            w.signalled = 1;
            m_guard.terminate(*w.process);
        }
    }
    m_guard.terminateOrphans(); // children of ranks that already exited
    m_killAfterMs = killAfterMs;
    m_killTimer.start(killAfterMs);
}

void RankProcesses::killRemaining() {
    for (Worker& w : m_workers) {
        if (w.process && !w.exited && w.process->state() != QProcess::NotRunning) {
            w.signalled = 2;
            m_events.message(tr("rank %1 did not stop within %2 ms; killing it")
                                 .arg(m_config.globalRank(int(&w - m_workers.data())))
                                 .arg(m_killAfterMs));
            m_guard.kill(*w.process);
        }
    }
    m_guard.killOrphans();
}

void RankProcesses::killAll() {
    for (Worker& w : m_workers) {
        if (w.process && w.process->state() != QProcess::NotRunning) {
            w.process->disconnect(&m_owner);
            m_guard.kill(*w.process);
            w.process->waitForFinished(2000);
        }
    }
    m_guard.killOrphans();
}

QSet<qint64> RankProcesses::livePids() const {
    QSet<qint64> live;
    for (const Worker& w : m_workers)
        if (w.process && !w.exited) live.insert(w.process->processId());
    return live;
}

} // namespace ddpdesk::launch
