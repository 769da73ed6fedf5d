// Starting a rank: a fresh process, or a waiting warm worker given its arguments, environment and folder.
#include "launch/supervisor.h"

#include "launch/script_instrument.h"
#include "launch/script_output.h"
#include "launch/stack_dump.h"
#include "launch/supervisor_impl.h"
#include "launch/warm_workers.h"
#include "protocol/run_auth.h"

#include <QProcess>
#include <QProcessEnvironment>

namespace ddpdesk::launch {

bool Supervisor::spawnAll() {
    d->stopping = false;
    d->userStop = false;
    d->failures.clear();
    d->stallReported = false;
    for (Worker& w : d->workers)
        if (w.process) w.process->deleteLater();
    d->workers.clear();
    d->workers.resize(size_t(m_config.nproc));
    d->exited = 0;
    emit attemptStarted(m_restarts);
    for (int i = 0; i < m_config.nproc; ++i)
        spawnWorker(i);
    return true;
}

void Supervisor::setWarmWorkers(WarmWorkers* pool) {
    m_warm = pool;
}

QProcessEnvironment Supervisor::workerEnvironment(int index) const {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QMap<QString, QString> rankEnv = m_config.rankEnvironment(index, d->scriptPort);
    for (auto it = rankEnv.begin(); it != rankEnv.end(); ++it)
        env.insert(it.key(), it.value());
    env.insert(QStringLiteral("TORCHELASTIC_RESTART_COUNT"), QString::number(m_restarts));
    if (d->scriptStore) env.insert(QStringLiteral("TORCHELASTIC_USE_AGENT_STORE"), QStringLiteral("True"));
    if (!d->stacksDir.isEmpty()) {
        const int rank = m_config.globalRank(index);
        env.insert(QString::fromLatin1(protocol::kStacksFileEnv), stacksFile(d->stacksDir, rank));
        env.insert(QString::fromLatin1(protocol::kStacksRequestEnv), stacksRequestFile(d->stacksDir, rank));
    }
    // The secret travels in the environment, never on a command line (ps shows those); scripts have no use
    // for it.
    if (m_config.isScript())
        env.remove(QString::fromLatin1(protocol::kRunSecretEnv));
    else
        env.insert(QString::fromLatin1(protocol::kRunSecretEnv), d->runSecret);
    return env;
}

void Supervisor::spawnWorker(int index) {
    Worker& w = d->workers[index];
    w = Worker();
    if (m_config.isScript()) w.parser = std::make_unique<ScriptOutputParser>(m_config.effectiveLossRegex());
    const QProcessEnvironment env = workerEnvironment(index);
    // A script runs where torchrun would run it (files it reads and writes by relative path land there); the
    // worker runs in its output folder.
    const QString workDir = m_config.isScript() ? m_config.effectiveWorkDir() : m_config.outDir;
    QProcessEnvironment warmEnv;
    QProcess* warm = !m_config.isScript() && m_warm ? m_warm->take(d->program, this, &warmEnv) : nullptr;
    auto* p = warm ? warm : new QProcess(this);
    w.process = p;
    QStringList args;
    if (m_config.isScript()) {
        const QString interp = m_config.interpreter();
        p->setProgram(interp.isEmpty() ? m_config.scriptFile : interp);
        const QStringList scriptArgs = m_config.scriptArguments(index);
        if (!d->instrumentDir.isEmpty()) // only with an interpreter (instrumentsScript)
            args = instrumentedArguments(m_config, index, d->instrumentDir);
        else
            args = interp.isEmpty() ? scriptArgs : QStringList{m_config.scriptFile} + scriptArgs;
    } else {
        args = m_config.workerArgs(index);
        if (m_restarts > 0 && !args.contains(QStringLiteral("--resume"))) args << QStringLiteral("--resume");
    }
    connect(p, &QProcess::readyReadStandardOutput, this, [this, index] { onOutput(index, false); });
    connect(p, &QProcess::readyReadStandardError, this, [this, index] { onOutput(index, true); });
    connect(p, &QProcess::finished, this, [this, index](int code, QProcess::ExitStatus status) {
        onWorkerExited(index, code, status == QProcess::CrashExit);
    });
    if (warm) {
        // Its end, if it went away just now, arrives as `finished` like any rank's.
        WarmWorkers::configure(*p, args, env, warmEnv, workDir);
        onWorkerStarted(index, *p, true);
        return;
    }
    if (!m_config.isScript()) p->setProgram(d->program);
    p->setArguments(args);
    p->setProcessEnvironment(env);
    p->setWorkingDirectory(workDir);
    d->guard.prepare(*p);
    connect(p, &QProcess::started, this, [this, index, p] { onWorkerStarted(index, *p, false); });
    connect(p, &QProcess::errorOccurred, this, [this, index, p](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            onWorkerExited(index, -1, false,
                           tr("could not start %1: %2").arg(p->program(), p->errorString()));
    });
    p->start();
}

void Supervisor::onWorkerStarted(int index, QProcess& p, bool warm) {
    d->guard.adopt(p);
    m_model.setPid(index, p.processId());
    sampleMonitor();
    writeLauncherEvent(
        "rank_start",
        {{"pid", double(p.processId())}, {"local_rank", index}, {"attempt", m_restarts}, {"warm", warm}},
        m_config.globalRank(index));
}

} // namespace ddpdesk::launch
