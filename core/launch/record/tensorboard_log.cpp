#include "launch/record/tensorboard_log.h"

#include "protocol/telemetry.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

namespace ddpdesk::launch {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr std::size_t kMaxPendingSteps = 4096; // bounds memory even when steps jump far apart

QString tr(const char* text) {
    return QCoreApplication::translate("ddpdesk::launch::TensorBoardLog", text);
}

// A JSON null or a missing key is "not reported": nothing is written for it.
std::optional<double> number(const nlohmann::json& o, const char* key) {
    const auto it = o.find(key);
    if (it == o.end() || !it->is_number()) return std::nullopt;
    const double v = it->get<double>();
    return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

std::optional<std::int64_t> integer(const nlohmann::json& o, const char* key) {
    const auto it = o.find(key);
    if (it == o.end() || !it->is_number_integer()) return std::nullopt;
    return it->get<std::int64_t>();
}

bool isTrue(const nlohmann::json& o, const char* key) {
    const auto it = o.find(key);
    return it != o.end() && it->is_boolean() && it->get<bool>();
}

std::string rankTag(const char* prefix, std::int64_t rank, const char* suffix = "") {
    return std::string(prefix) + "rank_" + std::to_string(rank) + suffix;
}

} // namespace

TensorBoardRun TensorBoardRun::of(const RunConfig& config) {
    TensorBoardRun run;
    run.ranks = std::max(1, config.nproc);
    if (config.nnodes > 1) run.nodeSuffix = "_node_" + std::to_string(config.nodeRank);
    // The engine's optimizers keep the rate constant.
    if (!config.isScript())
        run.learningRate =
            config.training.lr.value_or(protocol::defaultLearningRate(config.workload.toStdString()));
    return run;
}

QString TensorBoardLog::folder(const QString& outDir) {
    return QDir(outDir).filePath(QStringLiteral("tensorboard"));
}

bool TensorBoardLog::open(const QString& outDir, const TensorBoardRun& run, double wallTime, QString* why,
                          int* earlierFiles) {
    close();
    const QString dir = folder(outDir);
    const QFileInfo fi(dir);
    // Never written through a link: the files would land wherever it points.
    if (fi.isSymLink() || fi.isJunction() || (fi.exists() && !fi.isDir())) {
        if (why)
            *why = tr("%1 is a link or a file, not a folder: no TensorBoard files are written (move it away, "
                      "or run with --no-tensorboard)")
                       .arg(QDir::toNativeSeparators(dir));
        return false;
    }
    if (!fi.exists() && !QDir().mkdir(dir)) {
        if (why)
            *why =
                tr("cannot create %1: no TensorBoard files are written").arg(QDir::toNativeSeparators(dir));
        return false;
    }
    if (earlierFiles)
        *earlierFiles =
            QDir(dir).entryList({QStringLiteral("*tfevents*")}, QDir::Files | QDir::System).size();
    if (!m_writer.open(dir, wallTime, why)) return false;
    m_run = run;
    m_lastStep = m_lastEpoch = 0;
    m_progress.clear();
    m_pending.clear();
    m_history.clear();
    m_seen.clear();
    if (run.learningRate) return add(0, wallTime, {{"train/learning_rate", float(*run.learningRate)}}, why);
    return true;
}

void TensorBoardLog::setThinning(qint64 fromBytes, qint64 chunkBytes) {
    m_thinFrom = fromBytes;
    m_thinChunk = chunkBytes > 0 ? chunkBytes : 1;
}

// As MetricsLog::keep: every k-th periodic sample per event type and rank, k doubling with each chunk
// written.
bool TensorBoardLog::keep(const std::string& type, int rank) {
    const qint64 bytes = m_writer.bytesWritten();
    if (bytes < m_thinFrom) return true;
    const qint64 stride = qint64(1) << std::min<qint64>(1 + (bytes - m_thinFrom) / m_thinChunk, 40);
    return m_seen[{type, rank}]++ % stride == 0;
}

bool TensorBoardLog::add(std::int64_t step, double t, const std::vector<tfevents::Scalar>& values,
                         QString* why) {
    if (values.empty()) return true;
    return m_writer.addScalars(step, t, values, why);
}

bool TensorBoardLog::write(const nlohmann::json& event, QString* why) {
    if (!m_writer.isOpen() || !event.is_object()) return true;
    const auto type = event.find(protocol::field::Event);
    if (type == event.end() || !type->is_string()) return true;
    const std::string& name = type->get_ref<const std::string&>();
    const double t = number(event, protocol::field::T).value_or(protocol::nowSeconds());
    const int rank = int(integer(event, protocol::field::Rank).value_or(-1));
    bool ok = true;
    if (name == protocol::ev::Step) {
        if (keep(name, rank)) ok = onStep(event, t, why);
    } else if (name == protocol::ev::Epoch) {
        ok = onEpoch(event, t, why);
    } else if (name == protocol::ev::Gpu) {
        if (keep(name, rank)) ok = onGpu(event, t, why);
    } else if (name == protocol::ev::Proc) {
        if (keep(name, rank)) ok = onProc(event, t, why);
    } else if (name == protocol::ev::Restart) {
        // The ranks start again from a checkpoint: steps repeat, and half-collected ones would mix attempts.
        m_progress.clear();
        m_pending.clear();
        m_history.clear();
        return true;
    } else {
        return true;
    }
    return ok && m_writer.flush(why);
}

bool TensorBoardLog::onStep(const nlohmann::json& e, double t, QString* why) {
    const auto rank = integer(e, protocol::field::Rank);
    const auto step = integer(e, protocol::field::Step);
    if (!rank || *rank < 0 || !step) return true;
    m_lastStep = *step;
    std::vector<tfevents::Scalar> values;
    const auto loss = number(e, protocol::field::Loss); // null with loss_nonfinite
    if (loss) values.push_back({rankTag("loss/", *rank), float(*loss)});

    // `samples` is cumulative and `step_ms` the mean since the rank's previous step event: the samples per
    // step in between, at that step time. A step that went back (a script counting anew) starts over from
    // zero.
    RankProgress& last = m_progress[int(*rank)];
    if (*step <= last.step) last = RankProgress();
    const auto samples = number(e, protocol::field::Samples);
    const auto stepMs = number(e, protocol::field::StepMs);
    std::optional<double> samplesPerS;
    if (samples && stepMs && *stepMs > 0 && *step > last.step && *samples >= last.samples)
        samplesPerS = (*samples - last.samples) / double(*step - last.step) / (*stepMs / 1000.0);
    if (samplesPerS) values.push_back({rankTag("throughput/samples_per_s/", *rank), float(*samplesPerS)});
    if (const auto wait = number(e, protocol::field::CommWaitMs); wait && stepMs && *stepMs > 0) {
        values.push_back({rankTag("comm/wait_share/", *rank), float(std::clamp(*wait / *stepMs, 0.0, 1.0))});
        // Its own work per step, what the straggler score compares across ranks (model/straggler.h): the
        // ranks' curves side by side show which one the others wait for.
        values.push_back({rankTag("straggler/own_ms/", *rank), float(std::max(0.0, *stepMs - *wait))});
    }
    if (const auto data = number(e, protocol::field::DataMs))
        values.push_back({rankTag("straggler/data_ms/", *rank), float(*data)});
    // --precision fp16: the dynamic loss scale and the steps it skipped (the same on every rank).
    if (const auto scale = number(e, protocol::field::LossScale))
        values.push_back({rankTag("amp/loss_scale/", *rank), float(*scale)});
    if (const auto skipped = number(e, protocol::field::SkippedSteps))
        values.push_back({rankTag("amp/skipped_steps/", *rank), float(*skipped)});
    last.step = *step;
    if (samples) last.samples = *samples;
    if (!add(*step, t, values, why)) return false;

    std::map<std::int64_t, Report>& history = m_history[int(*rank)];
    history[*step] = Report{loss, samplesPerS, t};
    while (history.size() > 1 && history.begin()->first < *step - kMeanWindowSteps)
        history.erase(history.begin());

    // The mean over ranks once the last of them reported this step; ranks arrive in any order.
    PendingStep& p = m_pending[*step];
    if (std::find(p.ranks.begin(), p.ranks.end(), int(*rank)) != p.ranks.end()) return true;
    p.ranks.push_back(int(*rank));
    p.t = std::max(p.t, t);
    if (loss) {
        p.loss += *loss;
        ++p.lossCount;
    }
    if (samplesPerS) {
        p.samplesPerS += *samplesPerS;
        ++p.samplesPerSCount;
    }
    bool ok = true;
    if (int(p.ranks.size()) >= m_run.ranks) {
        std::vector<tfevents::Scalar> all;
        if (p.lossCount == m_run.ranks)
            all.push_back({"loss/mean" + m_run.nodeSuffix, float(p.loss / p.lossCount)});
        if (p.samplesPerSCount == m_run.ranks)
            all.push_back({"throughput/samples_per_s" + m_run.nodeSuffix, float(p.samplesPerS)});
        ok = add(*step, p.t, all, why);
        m_pending.erase(*step);
    }
    ok = ok && finishOvertakenSteps(why);
    while (!m_pending.empty() &&
           (m_pending.begin()->first < *step - kMeanWindowSteps || m_pending.size() > kMaxPendingSteps))
        m_pending.erase(m_pending.begin());
    return ok;
}

// Each rank throttles its step events on its own clock, so with the default --telemetry-ms two ranks rarely
// report the same step. A step some rank reported is written once every rank has reported that step or a
// later one, with each rank's latest value at or before it (sample and hold); a rank with none yet leaves
// that step out.
bool TensorBoardLog::finishOvertakenSteps(QString* why) {
    if (int(m_history.size()) < m_run.ranks) return true;
    std::int64_t reached = std::numeric_limits<std::int64_t>::max();
    for (const auto& [rank, history] : m_history)
        reached = std::min(reached, history.empty() ? std::numeric_limits<std::int64_t>::min()
                                                    : history.rbegin()->first);
    bool ok = true;
    while (ok && !m_pending.empty() && m_pending.begin()->first <= reached) {
        const std::int64_t step = m_pending.begin()->first;
        m_pending.erase(m_pending.begin());
        double loss = 0, samplesPerS = 0, t = 0;
        int losses = 0, rates = 0, ranks = 0;
        for (const auto& [rank, history] : m_history) {
            auto at = history.upper_bound(step);
            if (at == history.begin()) continue; // nothing from this rank at or before the step
            const Report& r = std::prev(at)->second;
            ++ranks;
            t = std::max(t, r.t);
            if (r.loss) loss += *r.loss, ++losses;
            if (r.samplesPerS) samplesPerS += *r.samplesPerS, ++rates;
        }
        if (ranks < m_run.ranks) continue;
        std::vector<tfevents::Scalar> all;
        if (losses == ranks) all.push_back({"loss/mean" + m_run.nodeSuffix, float(loss / losses)});
        if (rates == ranks)
            all.push_back({"throughput/samples_per_s" + m_run.nodeSuffix, float(samplesPerS)});
        ok = add(step, t, all, why);
    }
    return ok;
}

bool TensorBoardLog::onEpoch(const nlohmann::json& e, double t, QString* why) {
    const auto epoch = integer(e, protocol::field::Epoch);
    if (!epoch || *epoch <= m_lastEpoch) return true;
    m_lastEpoch = *epoch;
    const std::int64_t step = integer(e, protocol::field::Step).value_or(m_lastStep);
    std::vector<tfevents::Scalar> values;
    if (const auto v = number(e, protocol::field::TrainLoss))
        values.push_back({"loss/train_epoch_mean", float(*v)});
    if (const auto v = number(e, protocol::field::TestAccuracy))
        values.push_back({"eval/test_accuracy", float(*v)});
    if (const auto v = number(e, protocol::field::TestLoss)) values.push_back({"eval/test_loss", float(*v)});
    if (m_run.learningRate) values.push_back({"train/learning_rate", float(*m_run.learningRate)});
    return add(step, t, values, why);
}

bool TensorBoardLog::onGpu(const nlohmann::json& e, double t, QString* why) {
    const auto gpus = e.find(protocol::field::Gpus);
    if (gpus == e.end() || !gpus->is_array()) return true;
    std::vector<tfevents::Scalar> values;
    for (const nlohmann::json& g : *gpus) {
        const auto index = g.is_object() ? integer(g, protocol::field::Index) : std::nullopt;
        if (!index || isTrue(g, protocol::field::Lost)) continue;
        const std::string prefix = "gpu/" + std::to_string(*index) + "/";
        if (const auto v = number(g, protocol::field::GpuUtilPercent))
            values.push_back({prefix + "utilization_pct", float(*v)});
        if (const auto v = number(g, protocol::field::MemUsedBytes))
            values.push_back({prefix + "memory_used_mib", float(*v / kMiB)});
    }
    return add(m_lastStep, t, values, why);
}

bool TensorBoardLog::onProc(const nlohmann::json& e, double t, QString* why) {
    const auto processes = e.find(protocol::field::Processes);
    if (processes == e.end() || !processes->is_array()) return true;
    std::vector<tfevents::Scalar> values;
    for (const nlohmann::json& p : *processes) {
        const auto rank = p.is_object() ? integer(p, protocol::field::Rank) : std::nullopt;
        if (!rank || *rank < 0 || !isTrue(p, protocol::field::Alive)) continue;
        if (const auto v = number(p, protocol::field::CpuPercent))
            values.push_back({rankTag("worker/", *rank, "/cpu_pct"), float(*v)});
        if (const auto v = number(p, protocol::field::RssBytes))
            values.push_back({rankTag("worker/", *rank, "/rss_mib"), float(*v / kMiB)});
        // NVML's per-process memory, on every GPU the rank has a context on.
        const auto onGpus = p.find(protocol::field::Gpus);
        std::optional<double> gpuBytes;
        if (onGpus != p.end() && onGpus->is_array())
            for (const nlohmann::json& g : *onGpus)
                if (const auto v = g.is_object() ? number(g, protocol::field::UsedMemBytes) : std::nullopt)
                    gpuBytes = gpuBytes.value_or(0) + *v;
        if (gpuBytes)
            values.push_back({rankTag("worker/", *rank, "/gpu_memory_mib"), float(*gpuBytes / kMiB)});
    }
    return add(m_lastStep, t, values, why);
}

} // namespace ddpdesk::launch
