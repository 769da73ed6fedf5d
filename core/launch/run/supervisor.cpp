// The run's life cycle: start (its folder, store file, secret, record), attempts and restarts, the stop, the
// end (summary.json); what the failures and the stop mean is run_ending.h's. The parts it drives own the
// rest: the rank processes (rank_processes.h), their output (rank_line_reader.h), their stacks
// (rank_stacks.h), the stall watch (stall_watch.h), the monitor and TensorBoard feeds (monitor_feed.h,
// tensorboard_feed.h), a script run's store (script_store_host.h).
#include "launch/run/supervisor.h"

#include "launch/run/supervisor_impl.h"
#include "os/plain_file.h"
#include "os/utf8_path.h"

#include <filesystem>

namespace ddpdesk::launch {

namespace {
constexpr int kRestartDelayMs = 1000; // lets the old processes' ports and files go before the next attempt
} // namespace

// What the rank launcher reports goes to the Supervisor, lines to the line reader (not yet built when the
// launcher is: it is only referred to here).
RankLauncher::Events Supervisor::Impl::rankEvents(Supervisor& s, RankLineReader& lines) {
    return {
        [&s](int index, qint64 pid, bool warm) { s.onRankStarted(index, pid, warm); },
        [&lines](int index, const QByteArray& line, bool isStderr) { lines.onLine(index, line, isStderr); },
        [&s](int index, int exitCode, bool crashed, const QString& startError, int signalled) {
            s.onRankExited(index, exitCode, crashed, startError, signalled);
        },
        [&s] { s.onAllExited(); }, [&s](const QString& text) { emit s.message(text); }};
}

Supervisor::Impl::Impl(Supervisor& s, const RankLauncher::Factory& launcher)
    : ranks(launcher ? launcher(s, s.m_config, rankEvents(s, lines))
                     : std::make_unique<RankProcesses>(s, s.m_config, rankEvents(s, lines))),
      lines(s.m_config, s.m_model, [&s](const nlohmann::json& e) { s.record(e); }),
      stacks(s, s.m_model,
             {[&s](const QString& text) { emit s.message(text); },
              [this, &s](int rank, const QJsonObject& fields) {
                  if (log.isOpen()) s.writeLauncherEvent(protocol::ev::Stacks, fields, rank);
              }}),
      stall(s, s.m_config, s.m_model,
            {[this, &s] { return s.m_running && !ending.stopping() && !ending.restartPending(); },
             [&s] { return s.diagnosisRequest(); }, [&s](const QString& reason) { s.requestStacks(reason); },
             [&s](const QString& report, const QJsonObject& event) {
                 s.writeLauncherEvent(protocol::ev::Stall, event);
                 emit s.message(Supervisor::tr("stall: %1").arg(report));
                 emit s.stallDetected(report);
             }}),
      collectives(s, s.m_model,
                  {[this, &s] { return s.m_running && !ending.stopping() && !ending.restartPending(); },
                   [this, &s] {
                       QVector<int> live;
                       const QSet<qint64> pids = ranks->livePids();
                       for (const RankStatus& r : s.m_model.ranks())
                           if (r.pid && pids.contains(r.pid)) live.push_back(r.rank);
                       return live;
                   },
                   [&s](const QString& text) { emit s.message(text); },
                   [this, &s](int rank, const QJsonObject& fields) {
                       if (log.isOpen()) s.writeLauncherEvent(protocol::ev::Diagnosis, fields, rank);
                   },
                   [this, &s](const QString& reason, std::function<void(const QMap<int, QString>&)> done) {
                       stacks.request(reason, ranks->livePids(), std::move(done));
                   },
                   [&s] { return s.diagnosisRequest(); }}),
      stragglers(s, s.m_model,
                 {[this, &s] { return s.m_running && !ending.stopping() && !ending.restartPending(); },
                  [&s](const QString& text) { emit s.message(text); },
                  [this, &s](int rank, const QJsonObject& fields) {
                      if (log.isOpen()) s.writeLauncherEvent(protocol::ev::Diagnosis, fields, rank);
                  },
                  [&s](int index) { // this node's ranks only: another node's GPU is not one of these
                      const QVector<int> gpus = s.m_config.gpuList();
                      return index >= 0 && index < gpus.size() && index < s.m_config.nproc ? gpus[index] : -1;
                  }}),
      storeCensus(s, s.m_model,
                  {[this, &s] { return s.m_running && !ending.stopping(); },
                   [&s] { return s.diagnosisRequest(); },
                   [&s](int node, const QVector<int>& ranks) { s.onRanksSeenInStore(node, ranks); }}),
      monitor(
          s, s.m_model,
          [&s](const std::vector<nlohmann::json>& events) {
              if (!s.m_running) return;
              for (const nlohmann::json& e : events) {
                  s.record(e);
                  s.m_model.applyMonitorEvent(e);
              }
          },
          [&s](const QString& text) { emit s.message(text); }),
      tensorboard([&s](const QString& text) { emit s.message(text); }),
      scriptStore(s,
                  [&s](const QString& code, const QString& text) {
                      emit s.message(Supervisor::tr("store server [%1]: %2").arg(code, text));
                      s.writeLauncherEvent(protocol::ev::StoreNotice,
                                           {{protocol::field::Code, code}, {protocol::field::Text, text}});
                  }),
      nodes(
          s,
          {[&s](const QString& text) { emit s.message(text); },
           [&s](int node, nlohmann::json& e) { s.onRemoteEvent(node, e); },
           [&s](const NodeContact& c, const QString& state) { s.onNodeContact(c, state); },
           [&s](const QString& reason) { s.stop(Supervisor::tr("stopped from node 0: %1").arg(reason)); },
           [&s](const QString& reason) { s.requestStacks(Supervisor::tr("node 0 asks: %1").arg(reason)); }}) {
}

Supervisor::Supervisor(QObject* parent) : Supervisor(RankLauncher::Factory(), parent) {}

Supervisor::Supervisor(RankLauncher::Factory launcher, QObject* parent)
    : QObject(parent), d(std::make_unique<Impl>(*this, launcher)) {}

Supervisor::~Supervisor() {
    d->nodes.close(); // while the model its events go to is still here
    d->monitor.stop();
    d->ranks->killAll();
    d->stall.abandonDoctor();
}

QString Supervisor::findWorker(QString* error) {
    return RankProcesses::findWorker(error);
}

QString Supervisor::metricsPath() const {
    return QDir(m_config.outDir).filePath(QStringLiteral("metrics.jsonl"));
}
QString Supervisor::summaryPath() const {
    return QDir(m_config.outDir).filePath(QStringLiteral("summary.json"));
}
QString Supervisor::tensorboardFile() const {
    return d->tensorboard.file();
}
bool Supervisor::canShowStacks() const {
    return d->stacks.canAsk();
}
void Supervisor::setWarmWorkers(WarmWorkers* pool) {
    d->ranks->setWarmWorkers(pool);
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
    if (found.isEmpty()) secret = RunSecret::choose(config, &found);
    QString instrumentDir, stacksDir;
    if (found.isEmpty() && instrumentsScript(config)) {
        QString why;
        instrumentDir = stacksDir = writeInstrumentModule(config.outDir, &why);
        if (instrumentDir.isEmpty()) {
            found.push_back({QStringLiteral("instrument"), why});
        }
    } else if (found.isEmpty() && !config.isScript()) {
        // ddpdesk-worker ranks answer "where does it hang?" with what they wait in
        // (core/train/base/wait_report.h).
        QString why;
        stacksDir = makeInstrumentFolder(config.outDir, &why);
        if (stacksDir.isEmpty()) {
            found.push_back({QStringLiteral("out"), why});
        }
    }
    if (found.isEmpty()) {
        QString why;
        if (!d->scriptStore.prepare(config, &why)) {
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
    d->ranks->setLaunch({program, instrumentDir, stacksDir, secret});
    d->lines.setInstrumented(!instrumentDir.isEmpty());
    d->stacks.setFolder(stacksDir);
    d->collectives.setFolder(stacksDir);
    d->nodes.start(m_config, secret);
    QVector<int> ranks;
    for (int i = 0; i < config.nproc; ++i)
        ranks.push_back(config.globalRank(i));
    // Node 0 with the link up shows every node's ranks; its own come first (global ranks 0..nproc-1), so a
    // local rank's index is the same in the model.
    for (int r = config.nproc; d->nodes.isHub() && r < config.worldSize(); ++r)
        ranks.push_back(r);
    m_model.setStragglerAfter(config.stragglerAfterSec);
    m_model.reset(ranks, config.worldSize(), config.isScript() ? QStringLiteral("script") : config.workload,
                  qint64(config.training.steps.value_or(0)));
    m_model.setNodes(config.nodeRank, config.nnodes, config.nproc, d->nodes.isHub(),
                     QString::fromStdString(net::localHostName()));
    QStringList tensorboardNotes;
    d->tensorboard.open(m_config, &tensorboardNotes);
    writeLauncherEvent(protocol::ev::Launch,
                       {{protocol::field::Config, config.toJson()},
                        {protocol::field::Program, config.isScript() ? config.scriptFile : program},
                        {protocol::field::Store, config.effectiveStore()}});
    if (d->scriptStore.isHosted())
        emit message(tr("the script's store is hosted by DDP Desk on 127.0.0.1:%1 (loopback only)")
                         .arg(d->scriptStore.hostedPort()));
    m_running = true;
    emit started();
    for (const QString& note : tensorboardNotes)
        emit message(note);
    // The other nodes' command as the user wrote the paths.
    d->runSecret.announce(requested, m_config.outDir, secret,
                          [this](const QString& text) { emit message(text); });
    if (!spawnAll()) return true; // the failure is reported through finished()
    d->stall.start();
    d->collectives.start();
    d->stragglers.start(config.stragglerAfterSec > 0);
    if (d->nodes.isHub()) d->storeCensus.start();
    d->monitor.update(m_monitorMs);
    return true;
}

bool Supervisor::spawnAll() {
    d->ending.beginAttempt();
    d->stall.rearm();
    d->collectives.rearm();
    d->ranks->clear();
    d->lines.beginAttempt();
    emit attemptStarted(m_restarts);
    d->ranks->spawnAll({m_restarts, d->scriptStore.scriptPort(), d->scriptStore.isHosted()});
    return true;
}

void Supervisor::onRankStarted(int index, qint64 pid, bool warm) {
    m_model.setPid(index, pid);
    d->monitor.update(m_monitorMs);
    writeLauncherEvent(protocol::ev::RankStart,
                       {{protocol::field::Pid, double(pid)},
                        {protocol::field::LocalRank, index},
                        {protocol::field::Attempt, m_restarts},
                        {protocol::field::Warm, warm}},
                       m_config.globalRank(index));
}

namespace {

// What the rank's last words say it ended of, if they name a known failure.
const FailureKind* endedOf(const RankStatus& r) {
    std::vector<std::string> lines;
    for (const QString& line : r.lastStderr)
        lines.push_back(line.toStdString());
    const std::optional<LineMatch> m = diagnoseLines(lines);
    return m ? m->kind : nullptr;
}

bool endedOfAConsequence(const RankStatus& r) {
    const FailureKind* kind = endedOf(r);
    return kind && kind->consequence;
}

} // namespace

// After the rank's last output was read (RankProcesses); the exit count and onAllExited follow.
void Supervisor::onRankExited(int index, int exitCode, bool crashed, const QString& startError,
                              int signalled) {
    const int rank = m_config.globalRank(index);
    const RankStatus& status = m_model.rank(index);
    QString text = startError.isEmpty() ? describeExit(exitCode, crashed) : startError;
    const bool ok = startError.isEmpty() && !crashed && exitCode == 0;
    // Exits we caused (our terminate/kill) are "stopped", not failures. A signal we did not send is a
    // failure.
    const bool peerLost = (!crashed && exitCode == protocol::exit_code::PeerFailure) ||
                          status.errorCode == QLatin1String(protocol::error_code::PeerLost);
    // Also a rank that lost its peers while the user's stop was on its way (the other nodes stop theirs
    // first while this node waits for them to have the word: stopLeadMs).
    const bool stoppedWithRun = d->ending.userStopped() && peerLost;
    // A rank that ended by itself of an error of its own while the stop was on its way (two ranks hitting the
    // same CUDA error): it failed, it was not stopped.
    const FailureKind* own = !crashed && exitCode != 0 ? endedOf(status) : nullptr;
    const bool ownError = own && !own->consequence;
    const bool causedByUs = (exitCausedByStop(signalled, exitCode, crashed) && !ownError) || stoppedWithRun;
    if (!ok && !causedByUs) {
        Failure f;
        f.index = index;
        f.exitCode = crashed ? -1 : exitCode;
        // Also a rank whose last words are a consequence (a connection to a peer closed, a timeout): when
        // two ranks end at once, the one whose exit is read first must not be blamed for the other's.
        f.peerLost = peerLost || endedOfAConsequence(status);
        f.text = tr("rank %1 %2").arg(QString::number(rank), text);
        if (!status.errorCode.isEmpty())
            f.text += QStringLiteral(" (%1: %2)").arg(status.errorCode, status.errorMessage);
        d->ending.addFailure(f);
    }
    RankState state = ok ? RankState::Done : (causedByUs ? RankState::Stopped : RankState::Failed);
    if (stoppedWithRun)
        text = tr("%1 (the run was being stopped: its peers ended first)").arg(text);
    else if (causedByUs)
        text = tr("%1 (stopped by the launcher)").arg(text);
    m_model.setRankState(index, state, text, crashed ? -1 : exitCode);
    writeLauncherEvent(protocol::ev::RankExit,
                       {{protocol::field::LocalRank, index},
                        {protocol::field::ExitCode, crashed ? QJsonValue() : QJsonValue(exitCode)},
                        {protocol::field::Signal, crashed ? QJsonValue(exitCode) : QJsonValue()},
                        {protocol::field::Text, text},
                        {protocol::field::State, rankStateName(state)}},
                       rank);
    if (!ok && !causedByUs && !d->ending.stopping()) {
        emit rankFailed(rank, d->ending.latest().text);
        beginStopAll(d->ending.latest().text);
    }
}

void Supervisor::stop(const QString& reason) {
    if (!m_running) return;
    d->ending.userStops(reason);
    if (d->ending.restartPending()) {
        d->ending.setRestartPending(false);
        finishRun(QStringLiteral("stopped"));
        return;
    }
    QVector<int> reached; // every node's ranks end, not only this one's
    if (d->nodes.isHub())
        reached = d->nodes.broadcast({{protocol::node_link::field::Type, protocol::node_link::type::Stop},
                                      {protocol::node_link::field::Reason, reason.toStdString()}});
    // The other nodes act on the stop a moment later: this node's ranks, gone first, would make theirs fail
    // of a lost peer instead of stopping.
    const int lead = reached.isEmpty() ? 0 : d->nodes.stopLeadMs();
    if (lead == 0) {
        beginStopAll(reason);
        return;
    }
    QTimer::singleShot(lead, this, [this, reason] {
        if (m_running) beginStopAll(reason);
    });
}

void Supervisor::beginStopAll(const QString& reason) {
    if (!d->ending.beginStop(reason)) return;
    emit message(tr("stopping all workers: %1").arg(reason));
    d->ranks->terminateAll(kStopGraceMs);
}

void Supervisor::requestStacks(const QString& reason) {
    if (!m_running) return;
    if (d->nodes.isHub())
        d->nodes.broadcast({{protocol::node_link::field::Type, protocol::node_link::type::Stacks},
                            {protocol::node_link::field::Reason, reason.toStdString()}});
    d->stacks.request(reason, d->ranks->livePids());
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
    // Nothing a rank started may outlive the run (or linger into a restart).
    d->ranks->endLeftovers(kLeftoverGraceMs);
    const QString status = d->ending.status();
    if (status != QLatin1String("failed") || m_restarts >= m_config.maxRestarts) {
        // Also a failure: another node's failed rank may be what this one failed of.
        finishWhenNodesEnd(status);
        return;
    }
    ++m_restarts;
    const Failure& f = d->ending.culprit();
    emit message(tr("%1; restarting all workers from the last checkpoint (restart %2 of %3)")
                     .arg(f.text, QString::number(m_restarts), QString::number(m_config.maxRestarts)));
    writeLauncherEvent(protocol::ev::Restart, {{protocol::field::Restart, m_restarts},
                                               {protocol::field::MaxRestarts, m_config.maxRestarts},
                                               {protocol::field::Reason, f.text}});
    m_model.noteRestart();
    QString why;
    if (!resetStore()) {
        finishRun(QStringLiteral("failed"));
        return;
    }
    if (!d->scriptStore.prepare(m_config, &why)) {
        emit message(tr("cannot restart: %1").arg(why));
        finishRun(QStringLiteral("failed"));
        return;
    }
    d->ending.setRestartPending(true);
    QTimer::singleShot(kRestartDelayMs, this, [this] {
        if (!d->ending.restartPending()) return;
        d->ending.setRestartPending(false);
        spawnAll();
    });
}

void Supervisor::finishRun(const QString& status) {
    d->stall.stop();
    d->collectives.stop();
    d->stragglers.stop();
    d->storeCensus.stop();
    d->store.release();
    d->folder.removeEmptyCreated(); // the default store folder, now that its file is gone
    d->runSecret.release();
    d->scriptStore.close(); // the script's ranks are gone: nothing is listening after the run
    d->monitor.stop();
    int failedRank = -1;
    QString reason;
    if (status == QLatin1String("failed")) {
        failedRank = m_config.globalRank(d->ending.culprit().index);
        reason = d->ending.failureReason();
    } else if (status == QLatin1String("stopped")) {
        reason = d->ending.stopReason();
    }
    if (d->nodes.isHub()) d->nodes.close(); // what the other nodes said last is in the summary
    d->collectives.keepHistories();         // each rank's last collectives, for summary.json
    m_model.finish(status, failedRank, reason);
    m_model.setScaling(diagnoseScaling(scalingFacts(m_config, m_model)));
    const QJsonObject summary = m_model.summary().toJson(m_model.ranks());
    writeLauncherEvent(protocol::ev::RunEnd, {{protocol::field::Summary, summary}});
    d->nodes.close(); // after the run's end: node 0 hears it too
    d->log.close();
    d->tensorboard.close();
    // Into a file this launcher creates, renamed over summary.json: a link planted at that name while the run
    // went is replaced itself, never written through (QSaveFile would follow it into another folder).
    std::string why;
    if (!os::replaceFileContent(os::pathFromUtf8(summaryPath().toStdString()),
                                QJsonDocument(summary).toJson(QJsonDocument::Indented).toStdString(), &why))
        emit message(tr("could not write %1: %2").arg(summaryPath(), QString::fromStdString(why)));
    m_running = false;
    emit finished(status == QLatin1String("ok"));
}

void Supervisor::record(const nlohmann::json& event) {
    d->log.write(event);
    d->tensorboard.write(event);
    d->nodes.forward(event); // a node above 0: to node 0 as well
}

void Supervisor::writeLauncherEvent(const char* type, const QJsonObject& fields, int rank) {
    nlohmann::json e = protocol::makeEvent(type, rank);
    e[protocol::field::Source] = "launcher";
    const nlohmann::json extra = toNlohmannJson(fields);
    if (extra.is_object()) e.update(extra);
    record(e);
    d->log.flush();
}

} // namespace ddpdesk::launch
