#pragma once

// The state of one run as facts arrive: per-rank status, loss/throughput series, progress and ETA, monitor
// samples, and the final summary. Built only from telemetry events (worker stdout, launcher events, monitor
// samples), so the CLI's progress bar, summary.json and the GUI's charts are views of the same object.

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QVector>

#include <nlohmann/json_fwd.hpp>

#include "launch/diagnose/failure_diagnosis.h"
#include "launch/diagnose/scaling.h"
#include "launch/model/monitor_readings.h"
#include "launch/model/node_status.h"
#include "launch/model/straggler.h"
#include "launch/model/throughput.h"
#include "protocol/collective_history.h"

#include <map>
#include <optional>

namespace ddpdesk::protocol {
struct Event;
}

namespace ddpdesk::launch {

enum class RankState { Pending, Starting, Rendezvous, Training, Done, Failed, Stopped };
QString rankStateName(RankState s); // "pending", "starting", ...
std::optional<RankState> rankStateFromName(const QString& name);

// A rank's way to its first step, in unix seconds (0: not yet, or not reported: script ranks send no hello),
// from the worker's hello and `rendezvous` events. The GUI's rank table and the CLI's end report show it.
struct RankStartup {
    double startedT = 0; // the launcher started the process
    double helloT = 0;   // the worker runs (LibTorch loaded)
    double readyT = 0;   // ready to train (the `done` rendezvous event): rendezvous, own start-up, broadcast
    double firstStepT = 0; // the first step event
    double prepareS = -1;  // the worker's data set, model and probe, beside the rendezvous
    double peerWaitS = -1; // then waiting for the rendezvous to end
};

struct RankStatus {
    int rank = -1; // global rank
    int localRank = -1;
    int node = 0;           // the node it runs on
    bool remote = false;    // on another node: what its launcher forwards (node 0 of a multi-node run)
    bool storeOnly = false; // another node's, no launcher of ours for it: only seen in the store
    RankState state = RankState::Pending;
    qint64 pid = 0;
    QString host;
    QString rendezvousPhase; // last `rendezvous` phase
    int epoch = 0;
    qint64 step = 0;
    qint64 samples = 0; // cumulative samples this rank processed
    double loss = qQNaN();
    double samplesPerSec = 0;  // after warm-up (from its second step event on); 0 until known
    double commWaitShare = 0;  // comm_wait_ms / step_ms, cumulative; measured only when commReported
    bool commReported = false; // a step event carried comm_wait_ms (a script rank without DDP never does)
    bool noDdp = false;        // its latest step event said no DDP model ran a forward: it trains alone
    double stepMs = -1;        // the latest step event's mean step time; -1: not reported
    qint64 bytesPerStep = 0;   // bytes_allreduced of the last step event (built-in worker)
    QString paramsSha256;      // from the `done` event (built-in worker): equal on every healthy rank
    double testAccuracy = qQNaN();
    double lastProgressT = 0; // unix seconds of the last step/epoch/eval event (stall watch)
    // Its validation passes (`eval` events): neither training time nor training samples.
    bool evaluating = false; // inside one now
    double evalSinceT = 0;   // when the current one began (unix seconds)
    int evalPasses = 0;
    double evalS = 0;       // every pass's time, the current one's so far
    qint64 evalSamples = 0; // the current (or last) pass's samples so far
    // Step events whose step went back within an attempt (a stale copy of the rank's counts, such as a forked
    // child's), dropped: summary.json ranks[].stale_step_events.
    qint64 staleStepEvents = 0;
    int saves = 0; // a script's checkpoint saves (torch.save), and their time
    double saveS = 0;
    qint64 collectives = -1;   // collectives entered (the hold-up watch's reading); -1: not reported
    bool inCollective = false; // waiting inside collective #collectives
    int exitCode = -1;         // -1 while running or when killed by a signal
    QString exitText;          // "exit code 3", "killed by signal 9 (SIGKILL)", "stopped by the launcher"
    QString errorCode;         // from the last `error` event
    QString errorMessage;
    QStringList lastStderr; // last 50 lines
    QString lastOutput;     // the last non-empty line it printed (stdout or stderr, not telemetry)
    RankStartup startup;
    StragglerScore straggler; // its own work per step against the fastest rank's and its own best
    // Its last collectives, read from its record at the run's end (this node's ranks; another node's are
    // not read here): summary.json ranks[].collectives.
    std::vector<protocol::CollectiveEntry> history;
};

struct RunSummary {
    QString status = QStringLiteral("running"); // "ok" | "failed" | "stopped" | "running"
    int worldSize = 0;
    QString workload;
    qint64 steps = 0; // max step over ranks
    double wallS = 0;
    double samplesPerS = 0;   // global (0: not measured)
    QString samplesPerSBasis; // a rate_basis value (throughput.h); empty when not measured
    QString samplesPerSWhy;   // why it was not measured
    double finalLoss = qQNaN();
    double testAccuracy = qQNaN();
    int failedRank = -1;
    QString failureReason; // plain words: which rank, exit code/signal, error event
    QStringList failedRankStderr;
    std::optional<Diagnosis>
        diagnosis; // a known failure recognised in the ranks' output (failure_diagnosis.h)
    int restarts = 0;
    // 1: every rank reported the same params_sha256; 0: they differ (a RANKS_DIVERGED diagnosis); -1: unknown
    // (fewer than two ranks reported one).
    int paramsIdentical = -1;
    // Why it would not get faster with more ranks, from what it measured (diagnose/scaling.h); set at the
    // end.
    QVector<ScalingCause> scaling;
    QJsonObject toJson(const QVector<RankStatus>& ranks) const; // the summary.json object
    // summary.json's object read back (its per-rank part is not kept); missing keys keep the defaults, a
    // missing status reads "stopped".
    static RunSummary fromJson(const QJsonObject& o);
};

class RunModel : public QObject {
    Q_OBJECT
public:
    static constexpr int kStderrLines = 50;
    static constexpr int kMaxSeriesPoints = 2000; // per rank and series; older points are thinned 2:1
    // "running after 0.79 s, ready to train at 1.25 s (data and model: 0.45 s beside the rendezvous), first
    // step at 1.48 s", each time from the process start; what is not known yet is left out.
    static QString startupText(const RankStartup& s);

    explicit RunModel(QObject* parent = nullptr);

    // Starts a fresh run (clears everything). ranks: global rank of each local index.
    void reset(const QVector<int>& globalRanks, int worldSize, const QString& workload, qint64 expectedSteps);
    void setExpectedSteps(qint64 steps);

    // Feeding. Index is the local index (0..rankCount-1), not the global rank.
    void applyEvent(int index, const protocol::Event& e); // worker telemetry
    void applyLine(int index, const QByteArray& line);    // a whole stdout line: telemetry or log text
    void appendStderr(int index, const QString& line);
    void appendNote(int index, const QString& text); // launcher text shown in that rank's log (its stacks)
    void setPid(int index, qint64 pid);              // the process started (now, by the model's clock)
    void setRankState(int index, RankState s, const QString& exitText = QString(), int exitCode = -1);
    void applyMonitorEvent(const nlohmann::json& e); // `gpu` / `proc` events from core/monitor
    void noteRestart();                              // a restart: ranks go back to Pending, series continue
    void setCollectives(int index, qint64 entered, bool inside); // the hold-up watch's reading of a rank
    void setCollectiveHistory(int index, std::vector<protocol::CollectiveEntry> history);
    // Node 0 of a multi-node run: ranks at `index` and above are other nodes' (nproc per node), shown from
    // what their launchers forward.
    void setRemoteRanks(int firstIndex, int nproc);
    void setRemoteHost(int node, const QString& host);
    // A multi-node run, after reset(): this node's ranks run on `thisNode` (named `thisHost`); on node 0
    // with the link up (`hub`) the ranks after its own are the other nodes'.
    void setNodes(int thisNode, int nodes, int nproc, bool hub, const QString& thisHost);
    // Node 0: another node's contact changed (a `node` event's state; lastT: its last frame).
    void setNodeContact(int node, const QString& host, const QString& state, double lastT = 0);
    // Node 0 of a multi-node run: every node's state (empty for a single-node run, or on a node above 0).
    const QVector<NodeStatus>& nodes() const { return m_nodes.nodes(); }
    // Node 0, its own ranks ended: the nodes it still waits for before its summary (RunNodes::endsAwaited).
    QVector<int> nodeEndsAwaited() const { return m_nodes.endsAwaited(); }
    // How long a rank may stay a straggler before takeStragglerWarnings names it (0: never); before reset().
    void setStragglerAfter(double seconds) { m_stragglerAfterS = seconds; }
    QVector<StragglerWarning> takeStragglerWarnings() { return m_straggler.takeWarnings(now()); }
    // Who holds the run up now (RANK_BEHIND, COLLECTIVE_WAIT_ALL), or nullopt once it moves on; a run that
    // then fails or is stopped keeps the last one as its diagnosis unless its output names a root cause.
    void setLiveDiagnosis(const std::optional<Diagnosis>& d);
    const std::optional<Diagnosis>& liveDiagnosis() const { return m_liveDiagnosis; }
    void finish(const QString& status, int failedRank, const QString& reason); // freezes the summary
    void setScaling(const QVector<ScalingCause>& causes) { m_summary.scaling = causes; } // after finish()
    // Replay of a recorded run (core/launch/model/run_replay.h): the model's clock follows the events'
    // timestamps instead of the wall clock, so elapsed time, ETA and series x values are those of the
    // recording. Set it before reset() so the run starts at the first recorded event; 0 goes back to the wall
    // clock.
    void setReplayClock(double unixT) { m_clockT = unixT; }
    // Freezes the run with a summary recorded earlier (summary.json) instead of one computed from the events.
    void finishRecorded(const RunSummary& recorded);

    // Reading.
    int rankCount() const { return m_ranks.size(); }
    const QVector<RankStatus>& ranks() const { return m_ranks; }
    const RankStatus& rank(int index) const { return m_ranks.at(index); }
    int indexOfRank(int globalRank) const; // -1 when not local
    // Series: x = seconds since the run started, y = value. Downsampled to kMaxSeriesPoints.
    const QVector<QPointF>& lossSeries(int index) const { return m_loss.at(index); }
    const QVector<QPointF>& throughputSeries(int index) const { return m_rate.at(index); }
    const QVector<QPointF>& globalLossSeries() const { return m_globalLoss; } // mean over ranks per step
    double elapsedS() const;
    qint64 expectedSteps() const { return m_expectedSteps; }
    double progress() const;          // 0..1, -1 when unknown
    double etaS() const;              // -1 when unknown
    double globalSamplesPerS() const; // the ranks' rates after warm-up, summed for the world; 0 until known
    SamplesRate samplesRate() const;  // the same, else from the first step on, else why not
    double meanLoss() const;          // latest loss averaged over ranks that reported one
    // Every rank that stepped said no DDP model ran a forward (a script that never wraps its model): each
    // trains alone. False while no rank has stepped.
    bool everyRankAlone() const;
    // The latest `gpu` / `proc` monitor event of each node, already read into per-device readings (empty
    // until one came); ordered by node.
    const QVector<MonitorReading>& lastGpuReadings() const { return m_gpuReadings; }
    const QVector<MonitorReading>& lastProcReadings() const { return m_procReadings; }
    QVector<int> laggingRanks(double nowT, double stallS) const; // no progress for stallS while others moved
    RunSummary summary() const;                                  // live while running, final after finish()
    bool isFinished() const { return m_finished; }

signals:
    void rankUpdated(int index);
    void seriesAppended(int index);
    void progressChanged();
    void logLine(int index, const QString& text, bool isStderr); // index -1: launcher message
    void monitorSampled();
    void restarted(int restartCount);
    void runFinished(bool ok);
    void liveDiagnosisChanged();
    void nodesChanged();

private:
    void appendPoint(QVector<QPointF>& series, QPointF p);
    void applyStep(int index, const protocol::Event& e);
    void applyEval(int index, const protocol::Event& e);
    void addLastCollectives(Diagnosis& d) const;
    void setStep(int index, qint64 step); // keeps m_stepCounts in step with the ranks
    void noteNonFiniteLoss(const RankStatus& r, const nlohmann::json& body);
    // Compares the ranks' params_sha256 (m_summary.paramsIdentical); a diagnosis when they differ.
    std::optional<Diagnosis> checkParamsIdentical();
    std::optional<Diagnosis> noTrainingSteps() const; // NO_TRAINING_STEPS for a run that ended ok untrained
    double worldScale() const;                        // the local ranks' sums scaled to the whole world
    void updateSummaryLive();
    void fillLiveFigures(RunSummary& s) const; // steps, wall time, throughput and loss as they stand now
    double now() const;                        // the wall clock, or the replay clock while one is set

    QVector<RankStatus> m_ranks;
    // Per-event work must not grow with the rank count (a replay of 60,000 ranks went quadratic): the local
    // index of each global rank, and how many ranks stand at each step (its ends: the slowest and fastest).
    QHash<int, int> m_indexByRank;
    std::map<qint64, int> m_stepCounts;
    QVector<QVector<QPointF>> m_loss;
    QVector<QVector<QPointF>> m_rate;
    QVector<QPointF> m_globalLoss;
    ThroughputMeter m_throughput;
    StragglerMeter m_straggler;
    double m_stragglerAfterS = 30;
    QVector<double> m_commMs, m_stepMs;
    QVector<qint64> m_perStepSamples; // >0 once a rank is seen reporting per-step (not cumulative) samples
    QVector<bool> m_freshAttempt;     // no step event yet in this attempt: its first may start anywhere
    double m_firstStepT = 0;
    qint64 m_firstStep = -1;
    qint64 m_globalStep = 0; // the step the global loss series last advanced to
    double m_startT = 0;
    double m_endT = 0;
    qint64 m_expectedSteps = 0;
    QVector<MonitorReading> m_gpuReadings, m_procReadings;
    RunNodes m_nodes;
    RunSummary m_summary;
    // The first loss reported NaN or infinite (protocol::kLossNonFinite), as the NAN_LOSS diagnosis it
    // becomes when the run ends: a script that trains on with a NaN loss completes, but its result is
    // worthless.
    std::optional<Diagnosis> m_nonFiniteLoss;
    std::optional<Diagnosis> m_liveDiagnosis, m_lastHoldUp; // now; the last one seen
    bool m_finished = false;
    double m_clockT = 0; // replay clock; 0: live
};

} // namespace ddpdesk::launch
