#pragma once

// DIR/tensorboard/: the run's telemetry as TensorBoard scalars, one event file per run, written by the
// launcher from the same events metrics.jsonl gets (worker and script ranks, the instrumentation module, the
// monitor), so built-in and script runs read alike. The step is the x axis and each event's "t" the wall
// time. Tags:
//   loss/rank_N, loss/mean              a rank's loss; the mean once every rank reported that step, or,
//                                       when ranks throttle their step events at different steps (the
//                                       default --telemetry-ms), once every rank is past it: then each
//                                       rank's latest value at or before that step
//   throughput/samples_per_s/rank_N     samples per step over the mean step time; the sum over ranks likewise
//   throughput/samples_per_s
//   comm/wait_share/rank_N              the share of step time spent waiting for the gradient exchange
//   loss/train_epoch_mean, eval/test_accuracy, eval/test_loss   per epoch, at its last step
//   train/learning_rate                 built-in worker runs: at step 0 and at each epoch
//   gpu/N/utilization_pct, gpu/N/memory_used_mib                     monitor samples, at the latest step
//   worker/rank_N/cpu_pct, worker/rank_N/rss_mib, worker/rank_N/gpu_memory_mib
// On a multi-node run each launcher sees its own ranks only: its mean and sum are tagged ..._node_K.
// Long runs: like metrics.jsonl (metrics_log.h), periodic events are thinned past kThinFromBytes, so the file
// grows with the logarithm of the run's length.

#include "launch/config/run_config.h"
#include "launch/record/tensorboard_writer.h"

#include <QString>

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ddpdesk::launch {

// What the translation needs to know about the run.
struct TensorBoardRun {
    int ranks = 1; // ranks whose step events reach this launcher: a step's mean waits for all of them
    std::string nodeSuffix;             // "" on one node, "_node_K" on node K of several
    std::optional<double> learningRate; // unknown for scripts

    static TensorBoardRun of(const RunConfig& config);
};

class TensorBoardLog {
public:
    static constexpr std::int64_t kMeanWindowSteps = 1024; // a step not complete this far behind is dropped
    static constexpr qint64 kThinFromBytes = 64LL << 20;
    static constexpr qint64 kThinChunkBytes = 32LL << 20;

    static QString folder(const QString& outDir); // OUT/tensorboard

    // Makes OUT/tensorboard (kept when it is already a folder) and a new event file in it. False with *why
    // when that path holds something else (a link, a file: left as it is) or nothing can be created there.
    // *earlierFiles: event files already in the folder, which TensorBoard will show as one run with this one.
    bool open(const QString& outDir, const TensorBoardRun& run, double wallTime, QString* why,
              int* earlierFiles = nullptr);
    void close() { m_writer.close(); }
    bool isOpen() const { return m_writer.isOpen(); }
    QString filePath() const { return m_writer.path(); }
    qint64 bytesWritten() const { return m_writer.bytesWritten(); }
    void setThinning(qint64 fromBytes, qint64 chunkBytes); // tests use small sizes

    // Turns one event (the object metrics.jsonl gets) into scalars and flushes them. False once, with *why,
    // when the file could not be written; it is closed then and later events are ignored.
    bool write(const nlohmann::json& event, QString* why = nullptr);

private:
    struct RankProgress {
        std::int64_t step = 0;
        double samples = 0;
    };
    struct PendingStep { // one step's values while not every rank reported it
        std::vector<int> ranks;
        double loss = 0, samplesPerS = 0, t = 0;
        int lossCount = 0, samplesPerSCount = 0;
    };
    struct Report { // what one rank said at one step, for the held mean below
        std::optional<double> loss, samplesPerS;
        double t = 0;
    };

    bool keep(const std::string& type, int rank);
    bool add(std::int64_t step, double t, const std::vector<tfevents::Scalar>& values, QString* why);
    bool onStep(const nlohmann::json& e, double t, QString* why);
    bool finishOvertakenSteps(QString* why);
    bool onEpoch(const nlohmann::json& e, double t, QString* why);
    bool onGpu(const nlohmann::json& e, double t, QString* why);
    bool onProc(const nlohmann::json& e, double t, QString* why);

    TensorBoardWriter m_writer;
    TensorBoardRun m_run;
    std::int64_t m_lastStep = 0;  // the x of samples that carry no step (monitor)
    std::int64_t m_lastEpoch = 0; // every rank reports each epoch: written once
    std::map<int, RankProgress> m_progress;
    std::map<std::int64_t, PendingStep> m_pending;
    std::map<int, std::map<std::int64_t, Report>> m_history; // per rank, its recent step reports
    qint64 m_thinFrom = kThinFromBytes;
    qint64 m_thinChunk = kThinChunkBytes;
    std::map<std::pair<std::string, int>, qint64> m_seen;
};

} // namespace ddpdesk::launch
