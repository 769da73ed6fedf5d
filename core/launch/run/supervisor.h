#pragma once

// Runs one RunConfig: spawns one process per local rank, feeds their output into a RunModel, stops everyone
// on the first failure (terminate, then kill after a grace period; 5 s in all), restarts from the last
// checkpoint up to maxRestarts times, watches for stalls (names the lagging ranks, runs the doctor), writes
// metrics.jsonl, summary.json and (unless switched off) tensorboard/ into the out dir. Asynchronous: drive it
// from a Qt event loop.

#include "doctor/doctor.h"
#include "launch/config/run_config.h"
#include "launch/model/run_model.h"
#include "launch/run/rank_launcher.h"

#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QVector>

#include <nlohmann/json_fwd.hpp>

#include <memory>

namespace ddpdesk::launch {

class WarmWorkers;
struct NodeContact;

class Supervisor : public QObject {
    Q_OBJECT
public:
    static constexpr int kStopGraceMs = 3000;     // terminate -> kill; everything is gone within 5 s
    static constexpr int kLeftoverGraceMs = 1000; // children left by exited ranks: terminate -> kill

    explicit Supervisor(QObject* parent = nullptr);
    // With another way to start the ranks than processes (rank_launcher.h): tests of the policy.
    Supervisor(RankLauncher::Factory launcher, QObject* parent = nullptr);
    ~Supervisor() override; // kills whatever still runs, never leaves a process behind

    // The worker executable: $DDPDESK_WORKER, else ddpdesk-worker next to the running executable. Empty +
    // error when not found.
    static QString findWorker(QString* error);

    // Validates and starts; false (with the problems) when the configuration cannot start. Nothing is spawned
    // then.
    bool start(const RunConfig& config, QVector<ConfigProblem>* problems = nullptr);
    // Clean stop (Ctrl-C / the GUI's Stop): workers are terminated, then killed after kStopGraceMs;
    // checkpoints stay.
    void stop(const QString& reason = QStringLiteral("stopped by the user"));
    bool isRunning() const { return m_running; }
    // Where does it hang? Every live script rank dumps the Python stacks of all its threads (stack_dump.h);
    // they arrive kStacksWaitMs later as message()s and "stacks" events. Also done by the stall watch.
    void requestStacks(const QString& reason);
    bool canShowStacks() const; // ranks can be asked where they hang (not a --no-instrument script run)

    RunModel* model() { return &m_model; }
    const RunModel* model() const { return &m_model; }
    const RunConfig& config() const { return m_config; }
    // What the doctor looks at for this live run: its store (the hosted one for a script run), world size and
    // node rank, and on node 0 of a multi-node run what the other nodes' launchers report.
    doctor::DoctorRequest diagnosisRequest() const;
    int restartCount() const { return m_restarts; }
    QString metricsPath() const; // <out>/metrics.jsonl
    QString summaryPath() const; // <out>/summary.json
    // The event file this run writes (or wrote) in <out>/tensorboard; empty when it writes none.
    QString tensorboardFile() const;

    // The launcher's own sampling (GPU + worker CPU/RAM, core/monitor) every intervalMs while running; 0
    // disables. Call before start().
    void setMonitorIntervalMs(int intervalMs) { m_monitorMs = intervalMs; }
    // Worker ranks take waiting workers from `pool` (launch/warm_workers.h) before starting new ones; script
    // runs never do. Not owned; may be deleted first.
    void setWarmWorkers(WarmWorkers* pool);

signals:
    void started();
    void attemptStarted(int attempt);                 // 0 first, 1.. restarts
    void rankFailed(int rank, const QString& reason); // first failure of an attempt
    void stallDetected(const QString& report);        // lagging ranks + the doctor's findings, as text
    void message(const QString& text);                // launcher notes for the log view / terminal
    void finished(bool ok);                           // after summary.json is written

private:
    // Its parts (rank processes, their output, stacks, stall watch, monitor and TensorBoard feeds, a script's
    // store) and the run's own state (folder, store file, secret file, metrics.jsonl, failures, the stop):
    // supervisor.cpp.
    struct Impl;
    std::unique_ptr<Impl> d;

    bool spawnAll();
    void onRankStarted(int index, qint64 pid, bool warm);
    void onRankExited(int index, int exitCode, bool crashed, const QString& startError, int signalled);
    void beginStopAll(const QString& reason);
    void onAllExited();
    void finishRun(const QString& status);
    // Node 0 of a multi-node run: another node's forwarded event, a node's contact (node_link_feed.h), and
    // the end, once every connected node has said its run ended (a few seconds at most).
    void onRemoteEvent(int node, nlohmann::json& event);
    void onNodeContact(const NodeContact& contact, const QString& state);
    void onRanksSeenInStore(int node, const QVector<int>& ranks);
    void finishWhenNodesEnd(const QString& status, int waitedMs = 0);
    bool resetStore(); // a fresh store file for a restart; false (reported) when the path is taken
    void writeLauncherEvent(const char* type, const QJsonObject& fields, int rank = -1);
    // Every event of the run goes here: into metrics.jsonl and the TensorBoard file.
    void record(const nlohmann::json& event);

    RunConfig m_config;
    RunModel m_model;
    bool m_running = false;
    int m_restarts = 0;
    int m_monitorMs = 1000;
};

} // namespace ddpdesk::launch
