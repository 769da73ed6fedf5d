#include "launch/supervisor.h"

#include "launch/json_bridge.h"
#include "launch/metrics_log.h"
#include "launch/process_control.h"
#include "launch/script_instrument.h"
#include "launch/stack_dump.h"
#include "launch/supervisor_impl.h"
#include "net/net_socket.h"
#include "net/tcp_store_server.h"
#include "protocol/run_auth.h"
#include "protocol/sha256.h"
#include "protocol/telemetry.h"
#include "protocol/worker_codes.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSaveFile>

namespace ddpdesk::launch {

namespace {

constexpr int kMaxLine = 64 * 1024;   // longer lines are cut: a worker printing megabytes must not hurt us
constexpr int kRestartDelayMs = 1000; // lets the old processes' ports and files go before the next attempt

// A single-node script run joins a store DDP Desk hosts on loopback, as torchrun's agent hosts one: otherwise
// the script's rank 0 would host it through Python's TCPStore, which listens on every interface. It needs the
// instrumentation module, which keeps PyTorch 2.4+'s client stores off libuv (builds without it refuse them).
bool hostsScriptStore(const RunConfig& config) {
    return config.isScript() && config.nnodes == 1 && instrumentsScript(config);
}

// The run secret: the one given (--run-secret / --run-secret-file, or $DDPDESK_RUN_SECRET), else a fresh one
// on node 0. A node above 0 cannot invent one: its ranks would be refused by node 0's as FOREIGN_RANK.
QString runSecretFor(const RunConfig& config, QVector<ConfigProblem>* problems) {
    QString given = config.runSecret;
    QString origin = QLatin1String(protocol::kRunSecretFlag);
    if (given.isEmpty()) {
        given = qEnvironmentVariable(protocol::kRunSecretEnv);
        origin = QStringLiteral("$") + QLatin1String(protocol::kRunSecretEnv);
    }
    if (!given.isEmpty()) {
        std::string raw, error;
        if (!protocol::decodeRunSecret(given.toStdString(), &raw, &error)) {
            problems->push_back({QStringLiteral("run-secret"),
                                 origin + QStringLiteral(": ") + QString::fromStdString(error)});
            return {};
        }
        return QString::fromStdString(protocol::toHex(raw));
    }
    if (const auto missing = config.missingRunSecret(); !missing.isEmpty()) {
        *problems += missing;
        return {};
    }
    return QString::fromStdString(protocol::newRunSecretHex());
}

} // namespace

// Multi-node: say once that the store is open to the network, and (node 0) how the other nodes join.
void Supervisor::announceMultiNode(const RunConfig& config, const QString& secret) {
    if (config.nnodes <= 1) return;
    const QString store = config.effectiveStore();
    const QString where = config.storeIsTcp()
                              ? QStringLiteral("%1:%2").arg(config.storeHost()).arg(config.storePort())
                              : config.storeFilePath();
    emit message(
        tr("warning: multi-node run: the store %1 is unauthenticated and reachable from the network (%2); "
           "anyone who reaches it can read what the ranks write there. Allow its port and Gloo's ports only "
           "from the other nodes (README, Security model).")
            .arg(store, where));
    if (config.nodeRank != 0 || config.isScript()) return;
    QStringList cmd{QStringLiteral("ddpdesk-cli"), QStringLiteral("run"), QStringLiteral("--workload"),
                    config.workload};
    if (!config.modelFile.isEmpty()) cmd << QStringLiteral("--model") << config.modelFile;
    cmd << QStringLiteral("--nproc") << QString::number(config.nproc) << QStringLiteral("--nnodes")
        << QString::number(config.nnodes) << QStringLiteral("--node-rank") << QStringLiteral("N")
        << QStringLiteral("--store") << store;
    for (const std::string& arg : protocol::settingArgs(config.training))
        cmd << QString::fromStdString(arg);
    // The secret goes to the other nodes in a file only its owner can read, never on a command line: there
    // every user of that machine would see it in the process list.
    QString why;
    if (!d->secretFile.write(m_config.outDir, secret, &why)) {
        emit message(tr("warning: the run secret could not be saved for the other nodes (%1); start node 0 "
                        "with %2 FILE and give the other nodes the same file")
                         .arg(why, QLatin1String(protocol::kRunSecretFileFlag)));
        return;
    }
    cmd << QLatin1String(protocol::kRunSecretFileFlag) << d->secretFile.path() << QStringLiteral("--out")
        << QStringLiteral("DIR");
    emit message(tr("other nodes join with (N = 1..%1; first copy %2 to each node, readable only by you "
                    "there too: chmod 600):\n  %3")
                     .arg(config.nnodes - 1)
                     .arg(QDir::toNativeSeparators(d->secretFile.path()), cmd.join(QLatin1Char(' '))));
}

Supervisor::Supervisor(QObject* parent) : QObject(parent), d(std::make_unique<Impl>()) {
    d->stallTimer.setInterval(1000);
    connect(&d->stallTimer, &QTimer::timeout, this, &Supervisor::checkStall);
    d->killTimer.setSingleShot(true);
    connect(&d->killTimer, &QTimer::timeout, this, &Supervisor::killRemaining);
}

Supervisor::~Supervisor() {
    stopMonitor();
    for (Worker& w : d->workers) {
        if (w.process && w.process->state() != QProcess::NotRunning) {
            w.process->disconnect(this);
            d->guard.kill(*w.process);
            w.process->waitForFinished(2000);
        }
    }
    d->guard.killOrphans();
    abandonStallDoctor(d->doctorLink);
}

QString Supervisor::findWorker(QString* error) {
    const QString fromEnv = qEnvironmentVariable("DDPDESK_WORKER");
    QString path = fromEnv;
    if (path.isEmpty()) {
#ifdef Q_OS_WIN
        const QString name = QStringLiteral("ddpdesk-worker.exe");
#else
        const QString name = QStringLiteral("ddpdesk-worker");
#endif
        path = QDir(QCoreApplication::applicationDirPath()).filePath(name);
    }
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

QString Supervisor::metricsPath() const {
    return QDir(m_config.outDir).filePath(QStringLiteral("metrics.jsonl"));
}
QString Supervisor::summaryPath() const {
    return QDir(m_config.outDir).filePath(QStringLiteral("summary.json"));
}

bool Supervisor::start(const RunConfig& requested, QVector<ConfigProblem>* problems) {
    const RunConfig config = requested.withAbsolutePaths();
    if (m_running) {
        if (problems) *problems = {{QStringLiteral("run"), tr("a run is already in progress")}};
        return false;
    }
    QVector<ConfigProblem> found = config.validate();
    QString program;
    if (found.isEmpty() && !config.isScript()) {
        QString why;
        program = findWorker(&why);
        if (program.isEmpty()) found.push_back({QStringLiteral("worker"), why});
    }
    // The run's folder is made only now that the run starts in it.
    if (found.isEmpty()) {
        QString why;
        if (!d->folder.make(config, &why)) found.push_back({QStringLiteral("out"), why});
    }
    // Created here, exclusively, and never deleted unless it is still this file: whatever a user has at that
    // path (a folder, a link, a file) is refused, never reused or removed.
    if (found.isEmpty()) {
        QString why;
        if (!d->store.claim(config, &why)) found.push_back({QStringLiteral("store"), why});
    }
    QString secret;
    if (found.isEmpty()) secret = runSecretFor(config, &found);
    QString instrumentDir, stacksDir;
    if (found.isEmpty() && instrumentsScript(config)) {
        QString why;
        instrumentDir = stacksDir = writeInstrumentModule(config.outDir, &why);
        if (instrumentDir.isEmpty()) {
            found.push_back({QStringLiteral("instrument"), why});
        }
    } else if (found.isEmpty() && !config.isScript()) {
        // ddpdesk-worker ranks answer "where does it hang?" with what they wait in
        // (core/train/wait_report.h).
        QString why;
        stacksDir = makeInstrumentFolder(config.outDir, &why);
        if (stacksDir.isEmpty()) {
            found.push_back({QStringLiteral("out"), why});
        }
    }
    if (found.isEmpty()) {
        QString why;
        if (!hostScriptStore(config, &why)) {
            found.push_back({QStringLiteral("store"), why});
        }
    }
    if (found.isEmpty()) {
        QString why;
        if (!d->log.open(QDir(config.outDir).filePath(QStringLiteral("metrics.jsonl")), false, &why)) {
            found.push_back({QStringLiteral("out"), why});
        }
    }
    if (problems) *problems = found;
    if (!found.isEmpty()) {
        d->store.release();
        d->folder.removeEmptyCreated();
        return false;
    }

    m_config = config;
    m_restarts = 0;
    d->program = program;
    d->instrumentDir = instrumentDir;
    d->stacksDir = stacksDir;
    QVector<int> ranks;
    for (int i = 0; i < config.nproc; ++i)
        ranks.push_back(config.globalRank(i));
    m_model.reset(ranks, config.worldSize(), config.isScript() ? QStringLiteral("script") : config.workload,
                  qint64(config.training.steps.value_or(0)));
    QStringList tensorboardNotes;
    openTensorBoard(&tensorboardNotes);
    writeLauncherEvent("launch", {{"config", config.toJson()},
                                  {"program", config.isScript() ? config.scriptFile : program},
                                  {"store", config.effectiveStore()}});
    if (d->scriptStore)
        emit message(tr("the script's store is hosted by DDP Desk on 127.0.0.1:%1 (loopback only)")
                         .arg(d->scriptStore->port()));
    d->runSecret = secret;
    m_running = true;
    emit started();
    for (const QString& note : tensorboardNotes)
        emit message(note);
    announceMultiNode(requested, secret); // the other nodes' command as the user wrote the paths
    if (!spawnAll()) return true;         // the failure is reported through finished()
    if (config.stallTimeoutSec > 0) d->stallTimer.start();
    sampleMonitor();
    return true;
}

void Supervisor::onOutput(int index, bool isStderr) {
    if (index >= int(d->workers.size()) || !d->workers[index].process) return;
    Worker& w = d->workers[index];
    QByteArray& buf = isStderr ? w.errBuf : w.outBuf;
    bool& skipping = isStderr ? w.errSkipping : w.outSkipping;
    buf += isStderr ? w.process->readAllStandardError() : w.process->readAllStandardOutput();
    int start = 0;
    for (;;) {
        const int nl = buf.indexOf('\n', start);
        if (nl < 0) break;
        if (!skipping) onLine(index, buf.mid(start, nl - start), isStderr);
        skipping = false;
        start = nl + 1;
    }
    buf.remove(0, start);
    if (buf.size() > kMaxLine) {
        if (!skipping) onLine(index, buf.left(kMaxLine) + " [line cut at 64 KiB]", isStderr);
        skipping = true;
        buf.clear();
    }
}

void Supervisor::onLine(int index, const QByteArray& raw, bool isStderr) {
    QByteArray line = raw.size() > kMaxLine ? raw.left(kMaxLine) + " [line cut at 64 KiB]" : raw;
    if (line.endsWith('\r')) line.chop(1);
    const int rank = m_config.globalRank(index);
    if (!isStderr && (!m_config.isScript() || !d->instrumentDir.isEmpty())) {
        auto e = protocol::parseLine(std::string_view(line.constData(), size_t(line.size())));
        // A script's stdout is its own text; only the instrumentation module's events are taken as events
        // there.
        if (e && m_config.isScript() && e->body.value("source", std::string()) != kInstrumentSourceTag)
            e.reset();
        if (e && m_config.isScript()) d->workers[index].instrumented = true;
        if (e) {
            if (e->rank < 0) e->body["rank"] = rank;
            record(e->body);
            m_model.applyEvent(index, *e);
            return;
        }
    }
    const QString text = QString::fromUtf8(line);
    nlohmann::json logEvent = protocol::makeEvent(protocol::ev::Log, rank);
    logEvent["stream"] = isStderr ? "stderr" : "stdout";
    logEvent["text"] = text.toStdString();
    record(logEvent);
    if (isStderr)
        m_model.appendStderr(index, text);
    else
        m_model.applyLine(index, line);
    // A script's loss may be on stdout or stderr (logging writes to stderr).
    if (d->workers[index].parser && !d->workers[index].instrumented) {
        if (auto step = d->workers[index].parser->parse(rank, text)) {
            record(*step);
            if (auto e = protocol::parseLine(protocol::encodeLine(*step))) m_model.applyEvent(index, *e);
        }
    }
}

void Supervisor::onWorkerExited(int index, int exitCode, bool crashed, const QString& startError) {
    if (index >= int(d->workers.size())) return;
    Worker& w = d->workers[index];
    if (w.exited) return;
    w.exited = true;
    if (w.process) {
        onOutput(index, false);
        onOutput(index, true);
        if (!w.outBuf.isEmpty()) onLine(index, w.outBuf, false);
        if (!w.errBuf.isEmpty()) onLine(index, w.errBuf, true);
        w.outBuf.clear();
        w.errBuf.clear();
    }
    const int rank = m_config.globalRank(index);
    const RankStatus& status = m_model.rank(index);
    QString text = startError.isEmpty() ? describeExit(exitCode, crashed) : startError;
    const bool ok = startError.isEmpty() && !crashed && exitCode == 0;
    // Exits we caused (our terminate/kill) are "stopped", not failures. A signal we did not send is a
    // failure.
    const bool causedByUs = exitCausedByStop(w.signalled, exitCode, crashed);
    if (!ok && !causedByUs) {
        Failure f;
        f.index = index;
        f.exitCode = crashed ? -1 : exitCode;
        f.peerLost = (!crashed && exitCode == protocol::exit_code::PeerFailure) ||
                     status.errorCode == QLatin1String(protocol::error_code::PeerLost);
        f.text = tr("rank %1 %2").arg(QString::number(rank), text);
        if (!status.errorCode.isEmpty())
            f.text += QStringLiteral(" (%1: %2)").arg(status.errorCode, status.errorMessage);
        d->failures.push_back(f);
    }
    RankState state = ok ? RankState::Done : (causedByUs ? RankState::Stopped : RankState::Failed);
    if (causedByUs) text = tr("%1 (stopped by the launcher)").arg(text);
    m_model.setRankState(index, state, text, crashed ? -1 : exitCode);
    writeLauncherEvent("rank_exit",
                       {{"local_rank", index},
                        {"exit_code", crashed ? QJsonValue() : QJsonValue(exitCode)},
                        {"signal", crashed ? QJsonValue(exitCode) : QJsonValue()},
                        {"text", text},
                        {"state", rankStateName(state)}},
                       rank);
    if (!ok && !causedByUs && !d->stopping) {
        emit rankFailed(rank, d->failures.back().text);
        beginStopAll(d->failures.back().text);
    }
    if (++d->exited == int(d->workers.size())) onAllExited();
}

void Supervisor::stop(const QString& reason) {
    if (!m_running) return;
    if (d->restartPending) {
        d->restartPending = false;
        d->userStop = true;
        d->stopReason = reason;
        finishRun(QStringLiteral("stopped"));
        return;
    }
    d->userStop = true;
    beginStopAll(reason);
}

void Supervisor::beginStopAll(const QString& reason) {
    if (d->stopping) return;
    d->stopping = true;
    d->stopReason = reason;
    emit message(tr("stopping all workers: %1").arg(reason));
    for (Worker& w : d->workers) {
        if (w.process && !w.exited && w.process->state() != QProcess::NotRunning) {
            w.signalled = 1;
            d->guard.terminate(*w.process);
        }
    }
    d->guard.terminateOrphans(); // children of ranks that already exited
    d->killTimer.start(kStopGraceMs);
}

void Supervisor::killRemaining() {
    for (Worker& w : d->workers) {
        if (w.process && !w.exited && w.process->state() != QProcess::NotRunning) {
            w.signalled = 2;
            emit message(tr("rank %1 did not stop within %2 ms; killing it")
                             .arg(m_model.rank(int(&w - d->workers.data())).rank)
                             .arg(kStopGraceMs));
            d->guard.kill(*w.process);
        }
    }
    d->guard.killOrphans();
}

bool Supervisor::resetStore() {
    // A used FileStore would make the next rendezvous hang: replace the file this run created by a fresh one.
    d->store.release();
    QString why;
    if (d->store.claim(m_config, &why)) return true;
    emit message(tr("cannot restart: %1").arg(why));
    return false;
}

void Supervisor::onAllExited() {
    d->killTimer.stop();
    // Nothing a rank started may outlive the run (or linger into a restart).
    d->guard.endLeftovers(kLeftoverGraceMs);
    if (d->userStop) {
        finishRun(QStringLiteral("stopped"));
        return;
    }
    if (d->failures.isEmpty()) {
        finishRun(QStringLiteral("ok"));
        return;
    }
    if (m_restarts < m_config.maxRestarts) {
        ++m_restarts;
        const Failure& f = d->pickCulprit();
        emit message(tr("%1; restarting all workers from the last checkpoint (restart %2 of %3)")
                         .arg(f.text, QString::number(m_restarts), QString::number(m_config.maxRestarts)));
        writeLauncherEvent(
            "restart", {{"restart", m_restarts}, {"max_restarts", m_config.maxRestarts}, {"reason", f.text}});
        m_model.noteRestart();
        QString why;
        if (!resetStore()) {
            finishRun(QStringLiteral("failed"));
            return;
        }
        if (!hostScriptStore(m_config, &why)) {
            emit message(tr("cannot restart: %1").arg(why));
            finishRun(QStringLiteral("failed"));
            return;
        }
        d->restartPending = true;
        QTimer::singleShot(kRestartDelayMs, this, [this] {
            if (!d->restartPending) return;
            d->restartPending = false;
            spawnAll();
        });
        return;
    }
    finishRun(QStringLiteral("failed"));
}

bool Supervisor::hostScriptStore(const RunConfig& config, QString* why) {
    // A fresh store per attempt, as torchrun's agent makes one: PyTorch 2.x's env:// adds no attempt prefix,
    // so the last attempt's arrivals would count in the next.
    d->scriptStore.reset();
    if (!hostsScriptStore(config)) {
        d->scriptPort = (config.isScript() && !config.storeIsTcp()) ? net::pickFreePort() : 0;
        return true;
    }
    const int port = config.storeIsTcp() ? config.storePort() : 0;
    // Called from the server's threads: handled on this object's thread. The server is destroyed before this
    // object (finishRun, or d with the Supervisor), so the queued call never outlives its target.
    auto started = net::TcpStoreServer::start("127.0.0.1", port, [this](const net::StoreNotice& n) {
        const QString code = QString::fromStdString(n.code), text = QString::fromStdString(n.text);
        QMetaObject::invokeMethod(
            this, [this, code, text] { onStoreNotice(code, text); }, Qt::QueuedConnection);
    });
    if (!started.server) {
        *why = tr("cannot host the script's store on 127.0.0.1:%1: %2")
                   .arg(port > 0 ? QString::number(port) : QStringLiteral("any port"),
                        QString::fromStdString(started.error));
        return false;
    }
    d->scriptStore = std::move(started.server);
    d->scriptPort = d->scriptStore->port();
    return true;
}

void Supervisor::onStoreNotice(const QString& code, const QString& text) {
    emit message(tr("store server [%1]: %2").arg(code, text));
    writeLauncherEvent(protocol::ev::StoreNotice, {{"code", code}, {"text", text}});
}

QString Supervisor::diagnosisStore() const {
    if (d->scriptStore) return QStringLiteral("tcp://127.0.0.1:%1").arg(d->scriptStore->port());
    return m_config.effectiveStore();
}

void Supervisor::finishRun(const QString& status) {
    d->stallTimer.stop();
    d->store.release();
    d->folder.removeEmptyCreated(); // the default store folder, now that its file is gone
    d->secretFile.release();
    d->scriptStore.reset(); // the script's ranks are gone: nothing is listening after the run
    stopMonitor();
    int failedRank = -1;
    QString reason;
    if (status == QLatin1String("failed")) {
        const Failure& f = d->pickCulprit();
        failedRank = m_config.globalRank(f.index);
        reason = d->failures.size() > 1 ? tr("%1 (first failure; %2 rank(s) failed in all)")
                                              .arg(f.text, QString::number(d->failures.size()))
                                        : tr("%1 (first failure)").arg(f.text);
    } else if (status == QLatin1String("stopped")) {
        reason = d->stopReason;
    }
    m_model.finish(status, failedRank, reason);
    const QJsonObject summary = m_model.summary().toJson(m_model.ranks());
    writeLauncherEvent("run_end", {{"summary", summary}});
    d->log.close();
    d->tensorboard.close();
    QSaveFile f(summaryPath());
    if (f.open(QIODevice::WriteOnly)) {
        f.write(QJsonDocument(summary).toJson(QJsonDocument::Indented));
        if (!f.commit()) emit message(tr("could not write %1: %2").arg(summaryPath(), f.errorString()));
    } else {
        emit message(tr("could not write %1: %2").arg(summaryPath(), f.errorString()));
    }
    m_running = false;
    emit finished(status == QLatin1String("ok"));
}

void Supervisor::writeLauncherEvent(const char* type, const QJsonObject& fields, int rank) {
    nlohmann::json e = protocol::makeEvent(type, rank);
    e["source"] = "launcher";
    const nlohmann::json extra = toNlohmannJson(fields);
    if (extra.is_object()) e.update(extra);
    record(e);
    d->log.flush();
}

} // namespace ddpdesk::launch
