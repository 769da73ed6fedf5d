#include "launch/model/run_model.h"

#include "launch/model/monitor_readings.h"
#include "protocol/finding_codes.h"
#include "protocol/json_fields.h"
#include "protocol/telemetry.h"
#include "protocol/worker_codes.h"

#include <QJsonDocument>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <climits>
#include <cmath>

namespace ddpdesk::launch {

namespace {

// A rank's (or a script's) number, read through protocol::JsonFields: finite and within +-2^53, so the casts
// to qint64 and int below are defined whatever a script prints (1e300 is a JSON number too).
double num(const nlohmann::json& j, const char* key, double fallback = qQNaN()) {
    const double v = protocol::JsonFields(j).number(key, fallback);
    return std::isfinite(v) ? std::clamp(v, -9.0e15, 9.0e15) : fallback;
}

int toInt(double v) {
    return std::isnan(v) ? 0 : int(std::clamp(v, double(INT_MIN), double(INT_MAX)));
}

QString str(const nlohmann::json& j, const char* key) {
    return QString::fromStdString(protocol::JsonFields(j).text(key));
}

// The expected total of optimizer steps when an event announces it.
qint64 announcedSteps(const nlohmann::json& j) {
    for (const char* k : {protocol::field::TotalSteps, "steps_total", "planned_steps"}) {
        const double v = num(j, k, -1);
        if (v > 0) return qint64(v);
    }
    return 0;
}

} // namespace

RunModel::RunModel(QObject* parent) : QObject(parent) {}

void RunModel::reset(const QVector<int>& globalRanks, int worldSize, const QString& workload,
                     qint64 expectedSteps) {
    const int n = globalRanks.size();
    m_ranks = QVector<RankStatus>(n);
    m_indexByRank.clear();
    m_indexByRank.reserve(n);
    for (int i = 0; i < n; ++i) {
        m_ranks[i].rank = globalRanks[i];
        m_ranks[i].localRank = i;
        if (!m_indexByRank.contains(globalRanks[i])) m_indexByRank.insert(globalRanks[i], i);
    }
    m_stepCounts.clear();
    if (n > 0) m_stepCounts[0] = n;
    m_loss = QVector<QVector<QPointF>>(n);
    m_rate = QVector<QVector<QPointF>>(n);
    m_globalLoss.clear();
    m_throughput.reset(n);
    m_straggler.reset(n, m_stragglerAfterS);
    m_commMs = QVector<double>(n, 0);
    m_stepMs = QVector<double>(n, 0);
    m_perStepSamples = QVector<qint64>(n, -1);
    m_freshAttempt = QVector<bool>(n, true);
    m_startT = now();
    m_endT = 0;
    m_firstStepT = 0;
    m_firstStep = -1;
    m_globalStep = 0;
    m_expectedSteps = expectedSteps;
    m_gpuReadings.clear();
    m_procReadings.clear();
    m_nodes.reset(0, 0);
    m_summary = RunSummary();
    m_nonFiniteLoss.reset();
    m_liveDiagnosis.reset();
    m_lastHoldUp.reset();
    m_summary.worldSize = worldSize;
    m_summary.workload = workload;
    m_finished = false;
    emit progressChanged();
}

void RunModel::setExpectedSteps(qint64 steps) {
    m_expectedSteps = steps;
    emit progressChanged();
}

int RunModel::indexOfRank(int globalRank) const {
    return m_indexByRank.value(globalRank, -1);
}

void RunModel::setStep(int index, qint64 step) {
    RankStatus& r = m_ranks[index];
    if (r.step == step) return;
    const auto it = m_stepCounts.find(r.step);
    if (it != m_stepCounts.end() && --it->second == 0) m_stepCounts.erase(it);
    ++m_stepCounts[step];
    r.step = step;
}

void RunModel::appendPoint(QVector<QPointF>& series, QPointF p) {
    series.push_back(p);
    if (series.size() <= kMaxSeriesPoints) return;
    // Thin 2:1 but keep the newest point, so long runs stay cheap to draw and still end where the run is.
    QVector<QPointF> thinned;
    thinned.reserve(series.size() / 2 + 1);
    for (int i = 0; i < series.size() - 1; i += 2)
        thinned.push_back(series[i]);
    thinned.push_back(series.back());
    series.swap(thinned);
}

void RunModel::applyLine(int index, const QByteArray& line) {
    if (auto e = protocol::parseLine(std::string_view(line.constData(), size_t(line.size())))) {
        applyEvent(index, *e);
        return;
    }
    if (index >= 0 && index < m_ranks.size() && !line.trimmed().isEmpty())
        m_ranks[index].lastOutput = QString::fromUtf8(line).left(400);
    emit logLine(index, QString::fromUtf8(line), false);
}

void RunModel::appendStderr(int index, const QString& line) {
    if (index < 0 || index >= m_ranks.size()) return;
    QStringList& tail = m_ranks[index].lastStderr;
    if (!line.trimmed().isEmpty()) m_ranks[index].lastOutput = line.left(400);
    tail.push_back(line);
    while (tail.size() > kStderrLines)
        tail.pop_front();
    emit logLine(index, line, true);
}

void RunModel::appendNote(int index, const QString& text) {
    if (index < 0 || index >= m_ranks.size()) return;
    emit logLine(index, text, false);
}

void RunModel::setPid(int index, qint64 pid) {
    if (index < 0 || index >= m_ranks.size()) return;
    m_ranks[index].pid = pid;
    m_ranks[index].startup = RankStartup(); // a restart starts the time line again
    m_ranks[index].startup.startedT = now();
    if (m_ranks[index].state == RankState::Pending) m_ranks[index].state = RankState::Starting;
    emit rankUpdated(index);
}

void RunModel::setRankState(int index, RankState s, const QString& exitText, int exitCode) {
    if (index < 0 || index >= m_ranks.size()) return;
    RankStatus& r = m_ranks[index];
    r.state = s;
    if (s == RankState::Starting) m_freshAttempt[index] = true; // another node's rank started again
    if (!exitText.isEmpty()) r.exitText = exitText;
    if (s == RankState::Done || s == RankState::Failed || s == RankState::Stopped) r.exitCode = exitCode;
    emit rankUpdated(index);
}

void RunModel::applyEvent(int index, const protocol::Event& e) {
    if (index < 0 || index >= m_ranks.size()) return;
    RankStatus& r = m_ranks[index];
    const nlohmann::json& b = e.body;
    if (const qint64 planned = announcedSteps(b); planned > 0 && planned != m_expectedSteps)
        setExpectedSteps(planned);

    if (e.type == protocol::ev::Hello) {
        r.host = str(b, protocol::field::Host);
        const double pid = num(b, protocol::field::Pid, 0);
        if (pid > 0) r.pid = qint64(pid);
        if (r.state == RankState::Pending || r.state == RankState::Starting) r.state = RankState::Rendezvous;
        if (r.startup.helloT <= 0) r.startup.helloT = e.t;
    } else if (e.type == protocol::ev::Rendezvous) {
        r.rendezvousPhase = str(b, protocol::field::Phase);
        r.state = r.rendezvousPhase == QLatin1String("done") ? RankState::Training : RankState::Rendezvous;
        if (r.state == RankState::Training && r.startup.readyT <= 0) {
            r.startup.readyT = e.t;
            r.startup.prepareS = num(b, protocol::field::PrepareMs, -1000) / 1000.0;
            r.startup.peerWaitS = num(b, protocol::field::PeerWaitMs, -1000) / 1000.0;
        }
    } else if (e.type == protocol::ev::Step) {
        applyStep(index, e);
    } else if (e.type == protocol::ev::Epoch) {
        r.epoch = toInt(num(b, protocol::field::Epoch, r.epoch));
        const double acc = num(b, protocol::field::TestAccuracy);
        if (!std::isnan(acc)) {
            r.testAccuracy = acc;
            m_summary.testAccuracy = acc;
        }
        const double tl = num(b, protocol::field::TrainLoss);
        if (!std::isnan(tl)) r.loss = tl;
        r.lastProgressT = e.t;
    } else if (e.type == protocol::ev::Eval) {
        applyEval(index, e);
    } else if (e.type == protocol::ev::Error) {
        r.errorCode = str(b, protocol::field::Code);
        r.errorMessage = str(b, protocol::field::Message);
        emit logLine(index, QStringLiteral("error %1: %2").arg(r.errorCode, r.errorMessage), true);
    } else if (e.type == protocol::ev::Done) {
        const double fl = num(b, protocol::field::FinalLoss);
        if (!std::isnan(fl)) r.loss = fl;
        const double rate = num(b, protocol::field::SamplesPerS);
        if (r.samplesPerSec <= 0 && rate > 0) r.samplesPerSec = rate;
        const double st = num(b, protocol::field::Steps, -1);
        if (st >= 0) setStep(index, qint64(st));
        r.paramsSha256 = str(b, protocol::field::ParamsSha256);
        r.state = RankState::Done;
    } else if (e.type == protocol::ev::Checkpoint) {
        // A script's torch.save, with the rank's totals (the latest says them all; they never go back).
        const double saves = num(b, protocol::field::Saves, -1),
                     totalS = num(b, protocol::field::SaveTotalMs, -1);
        if (saves > r.saves && saves < 1.0e9) r.saves = int(saves);
        if (totalS / 1000.0 > r.saveS) r.saveS = qMin(totalS / 1000.0, 1.0e9);
        r.lastProgressT = qMax(r.lastProgressT, e.t);
        emit logLine(index,
                     tr("checkpoint at step %1: %2")
                         .arg(qint64(num(b, protocol::field::Step, 0)))
                         .arg(str(b, protocol::field::Path)),
                     false);
    } else if (e.type == protocol::ev::StoreNotice) {
        emit logLine(
            index,
            tr("store server [%1]: %2").arg(str(b, protocol::field::Code), str(b, protocol::field::Text)),
            true);
    }
    emit rankUpdated(index);
}

// A validation pass: shown while it goes on, its time counted apart from training (model/throughput.h), and
// progress for the stall watch while its forwards go on.
void RunModel::applyEval(int index, const protocol::Event& e) {
    RankStatus& r = m_ranks[index];
    const nlohmann::json& b = e.body;
    const QString state = str(b, protocol::field::State);
    const bool end = state == QLatin1String(protocol::eval_state::End);
    if (!end && state != QLatin1String(protocol::eval_state::Begin) &&
        state != QLatin1String(protocol::eval_state::Running))
        return;
    if (!r.evaluating && !end) r.evalSinceT = e.t - qMax(0.0, num(b, protocol::field::EvalMs, 0)) / 1000.0;
    r.evaluating = !end;
    // Totals: the latest event says them all, so a dropped one loses nothing; they never go back.
    const double totalS = num(b, protocol::field::EvalTotalMs, -1) / 1000.0;
    if (std::isfinite(totalS) && totalS > r.evalS) r.evalS = qMin(totalS, 1.0e9);
    const double passes = num(b, protocol::field::Passes, -1);
    if (passes >= r.evalPasses && passes < 1.0e9) r.evalPasses = int(passes);
    const double samples = num(b, protocol::field::Samples, -1);
    if (samples >= 0 && samples < 9.0e15) r.evalSamples = qint64(samples);
    r.lastProgressT = qMax(r.lastProgressT, e.t);
}

void RunModel::applyStep(int index, const protocol::Event& e) {
    RankStatus& r = m_ranks[index];
    const nlohmann::json& b = e.body;
    // A rank's steps never go back within an attempt (a restart resumes wherever its checkpoint was).
    if (!m_freshAttempt[index] && num(b, protocol::field::Step, double(r.step)) < double(r.step)) {
        ++r.staleStepEvents;
        return;
    }
    m_freshAttempt[index] = false;
    r.state = RankState::Training;
    r.evaluating = false; // a step: training again, whether or not the pass's end was read
    if (r.startup.firstStepT <= 0) r.startup.firstStepT = e.t;
    const qint64 before = r.step;
    setStep(index, qint64(num(b, protocol::field::Step, double(r.step))));
    r.epoch = toInt(num(b, protocol::field::Epoch, r.epoch));
    r.lastProgressT = e.t;
    if (m_firstStep < 0) {
        m_firstStep = r.step;
        m_firstStepT = e.t;
    }
    const double loss = num(b, protocol::field::Loss);
    if (!std::isnan(loss) || b.contains(protocol::field::Loss)) r.loss = loss;
    if (!m_nonFiniteLoss) noteNonFiniteLoss(r, b);

    // `samples` is this rank's cumulative sample count; per-step counts (a constant value) are turned into
    // one.
    const double s = num(b, "samples_total", num(b, protocol::field::Samples, -1));
    if (s >= 0) {
        const qint64 v = qint64(s);
        if (m_perStepSamples[index] < 0 && r.samples > 0 && v == r.samples && r.step > 1)
            m_perStepSamples[index] = v;
        r.samples =
            m_perStepSamples[index] > 0
                ? qint64(std::min(double(m_perStepSamples[index]) * double(r.step), 9.0e15)) // no overflow
                : v;
    }
    // Validation and saves between these steps (a script's eval_ms and save_ms, means per step): not training
    // time.
    const double asideMs =
        qBound(0.0, num(b, protocol::field::EvalMs, 0) + num(b, protocol::field::SaveMs, 0), 1.0e9);
    const double evalS = asideMs / 1000.0 * double(qMax<qint64>(1, r.step - before));
    const double rate = m_throughput.onStep(index, e.t, s >= 0 ? r.samples : -1, evalS);
    if (rate > 0) r.samplesPerSec = rate;
    const double direct = num(b, protocol::field::SamplesPerS, -1);
    if (direct > 0) r.samplesPerSec = direct;
    const double bytes = num(b, protocol::field::BytesAllreduced, -1);
    if (bytes >= 0) r.bytesPerStep = qint64(bytes);
    const double stepMs = num(b, protocol::field::StepMs, 0), commMs = num(b, protocol::field::CommWaitMs, 0);
    // Validation and checkpoint saves between the steps are neither the rank's training work nor its data
    // loading.
    const double evalMs = qMin(asideMs, qMax(0.0, stepMs));
    r.noDdp = protocol::JsonFields(b).flag(protocol::field::NoDdp, false);
    if (stepMs > 0) {
        r.commReported = r.commReported || b.contains(protocol::field::CommWaitMs);
        r.stepMs = stepMs;
        m_stepMs[index] += qMax(stepMs - evalMs, 1e-3);
        m_commMs[index] += qMax(0.0, commMs);
        r.commWaitShare = qBound(0.0, m_commMs[index] / m_stepMs[index], 1.0);
        m_straggler.onStep(index, e.t, stepMs - evalMs, b.contains(protocol::field::CommWaitMs) ? commMs : -1,
                           num(b, protocol::field::DataMs, -1));
        r.straggler = m_straggler.score(index);
    }
    const double x = e.t - m_startT;
    if (!std::isnan(r.loss) && std::isfinite(r.loss)) {
        appendPoint(m_loss[index], QPointF(x, r.loss));
        // The global curve advances when the slowest rank does, so it averages losses of the same step
        // instead of zig-zagging between ranks that are one step apart. Only then is the mean (a pass over
        // all ranks) taken: in lockstep training, once per step of the whole run, not once per event.
        const qint64 minStep = m_stepCounts.begin()->first;
        const double mean = minStep > m_globalStep ? meanLoss() : qQNaN();
        if (!std::isnan(mean)) {
            m_globalStep = minStep;
            appendPoint(m_globalLoss, QPointF(x, mean));
        }
    }
    if (r.samplesPerSec > 0) appendPoint(m_rate[index], QPointF(x, r.samplesPerSec));
    emit seriesAppended(index);
    emit progressChanged();
}

void RunModel::noteNonFiniteLoss(const RankStatus& r, const nlohmann::json& b) {
    const auto it = b.find(protocol::kLossNonFinite);
    const FailureKind* kind = findFailureKind(protocol::error_code::NanLoss);
    if (it == b.end() || !it->is_string() || !kind) return;
    const std::string value = it->get<std::string>();
    const auto line =
        b.find(protocol::field::Line); // the script's own output line, when the loss came from one
    // The step where it began: an event reports the latest step, and a throttled one may come many steps
    // later (the instrumentation names the first non-finite step since its previous event).
    qint64 step = r.step;
    const double first = num(b, protocol::field::LossNonFiniteStep, 0);
    if (first >= 1 && first <= double(step)) step = qint64(first);
    Diagnosis d{kind->code, kind->message, kind->fix, {}, r.rank, -1, {}};
    d.matched = line != b.end() && line->is_string()
                    ? line->get<std::string>()
                    : "step " + std::to_string(step) + ": loss " + value + " (the scalar backward() ran on)";
    m_nonFiniteLoss = d;
    emit logLine(-1,
                 tr("Rank %1's loss became %2 at step %3: training diverged [NAN_LOSS].")
                     .arg(r.rank)
                     .arg(QString::fromStdString(value))
                     .arg(step),
                 true);
}

std::optional<Diagnosis> RunModel::checkParamsIdentical() {
    m_summary.paramsIdentical = -1;
    const RankStatus* first = nullptr;
    int reported = 0;
    for (const RankStatus& r : m_ranks) {
        if (r.paramsSha256.isEmpty()) continue;
        ++reported;
        if (!first) first = &r;
        if (r.paramsSha256 == first->paramsSha256) continue;
        m_summary.paramsIdentical = 0;
        const FailureKind* kind = findFailureKind(protocol::diagnosis::RanksDiverged);
        if (!kind) return std::nullopt;
        Diagnosis d{kind->code, kind->message, kind->fix, {}, r.rank, -1, {}};
        d.matched = QStringLiteral("params_sha256 of rank %1: %2..., of rank %3: %4...")
                        .arg(first->rank)
                        .arg(first->paramsSha256.left(12))
                        .arg(r.rank)
                        .arg(r.paramsSha256.left(12))
                        .toStdString();
        return d;
    }
    if (reported >= 2 && reported == m_ranks.size()) m_summary.paramsIdentical = 1;
    return std::nullopt;
}

// A run that ended well without one training step trained nothing: say so, with what the rank said last.
std::optional<Diagnosis> RunModel::noTrainingSteps() const {
    if (m_summary.steps > 0 || m_firstStep >= 0 || m_ranks.isEmpty()) return std::nullopt;
    const RankStatus& r = m_ranks.front();
    Diagnosis d;
    d.code = protocol::diagnosis::NoTrainingSteps;
    d.rank = r.rank;
    d.message = tr("The run ended without reporting one training step: nothing was trained.").toStdString();
    d.fix =
        tr("Check that the training loop ran (an empty data set or loader, 0 epochs, a loop only some ranks "
           "enter) and that it calls optimizer.step(); with --no-instrument, steps are read from the "
           "script's "
           "loss lines only (--loss-regex).")
            .toStdString();
    d.matched = r.lastOutput.isEmpty() ? tr("(rank %1 printed nothing)").arg(r.rank).toStdString()
                                       : r.lastOutput.toStdString();
    return d;
}

void RunModel::applyMonitorEvent(const nlohmann::json& e) {
    const QString type = str(e, protocol::field::Event);
    if (type == QLatin1String(protocol::ev::Gpu))
        replaceNodeReadings(m_gpuReadings, readingsNode(e), gpuReadings(e));
    else if (type == QLatin1String(protocol::ev::Proc))
        replaceNodeReadings(m_procReadings, readingsNode(e), procReadings(e));
    else
        return;
    emit monitorSampled();
}

void RunModel::setCollectives(int index, qint64 entered, bool inside) {
    if (index < 0 || index >= m_ranks.size()) return;
    RankStatus& r = m_ranks[index];
    if (r.collectives == entered && r.inCollective == inside) return;
    r.collectives = entered;
    r.inCollective = inside;
    emit rankUpdated(index);
}

void RunModel::setCollectiveHistory(int index, std::vector<protocol::CollectiveEntry> history) {
    if (index < 0 || index >= m_ranks.size()) return;
    m_ranks[index].history = std::move(history);
    emit rankUpdated(index);
}

void RunModel::setLiveDiagnosis(const std::optional<Diagnosis>& d) {
    m_liveDiagnosis = d;
    // A straggler slows the run down but holds nobody up: not what a failed run is then explained by.
    if (d && d->code != protocol::diagnosis::Straggler) m_lastHoldUp = d;
    emit liveDiagnosisChanged();
}

void RunModel::noteRestart() {
    ++m_summary.restarts;
    for (int i = 0; i < m_ranks.size(); ++i) {
        RankStatus& r = m_ranks[i];
        r.state = RankState::Pending;
        r.pid = 0;
        r.exitCode = -1;
        r.exitText.clear();
        r.errorCode.clear();
        r.errorMessage.clear();
        m_throughput.restart(i);
        m_straggler.restart(i);
        r.straggler = StragglerScore{};
        m_perStepSamples[i] = -1;
        m_freshAttempt[i] = true;
        r.collectives = -1;
        r.inCollective = false;
        r.samples = 0;
        r.evaluating = false; // the new attempt counts its passes from 0
        r.evalS = 0;
        r.evalPasses = 0;
        r.evalSamples = 0;
        r.saves = 0;
        r.saveS = 0;
        emit rankUpdated(i);
    }
    m_firstStep = -1;
    m_globalStep = 0;
    m_liveDiagnosis.reset();
    emit restarted(m_summary.restarts);
}

QString RunModel::startupText(const RankStartup& s) {
    if (s.startedT <= 0) return QString();
    auto after = [&](double t) { return QString::number(std::max(0.0, t - s.startedT), 'f', 2); };
    QStringList parts;
    if (s.helloT > 0) parts << tr("running after %1 s").arg(after(s.helloT));
    if (s.readyT > 0) {
        QString ready = tr("ready to train at %1 s").arg(after(s.readyT));
        if (s.prepareS >= 0)
            ready += QLatin1Char(' ') +
                     tr("(data and model: %1 s beside the rendezvous)").arg(s.prepareS, 0, 'f', 2);
        parts << ready;
    }
    if (s.firstStepT > 0) parts << tr("first step at %1 s").arg(after(s.firstStepT));
    return parts.join(QStringLiteral(", "));
}

QVector<int> RunModel::laggingRanks(double nowT, double stallS) const {
    // Stale: alive but no step/epoch event for stallS. In DDP everyone waits for the slowest rank, so all
    // ranks go stale together; the ones to name are those whose step counter is behind the others'.
    QVector<int> stale, behind;
    qint64 maxStep = 0;
    int active = 0;
    for (const RankStatus& r : m_ranks)
        maxStep = qMax(maxStep, r.step);
    for (const RankStatus& r : m_ranks) {
        if (r.state != RankState::Starting && r.state != RankState::Rendezvous &&
            r.state != RankState::Training)
            continue;
        ++active;
        const double since = r.lastProgressT > 0 ? r.lastProgressT : m_startT;
        if (nowT - since < stallS) continue;
        stale.push_back(r.rank);
        if (r.step < maxStep) behind.push_back(r.rank);
    }
    if (!behind.isEmpty()) return behind;
    // Nobody is behind by steps: report when every active rank is stuck (e.g. in rendezvous, or a peer on
    // another node never came), never for one rank that is merely between events while others move.
    return (active > 0 && stale.size() == active) ? stale : QVector<int>();
}

// A mismatch the ranks' own words show (Gloo's sizes disagree, a peer finished first): what each rank's
// record says it was in last, and the line that sent it there, as the hold-up watch says it of a run that
// hangs.
void RunModel::addLastCollectives(Diagnosis& d) const {
    std::string each;
    for (const RankStatus& r : m_ranks)
        if (!r.history.empty())
            each += (each.empty() ? "" : "; ") + std::string("rank ") + std::to_string(r.rank) + " in " +
                    protocol::describeCollectiveEntry(r.history.back(), 0);
    if (!each.empty()) d.message += " Each rank's last collective: " + each + ".";
}

void RunModel::finish(const QString& status, int failedRank, const QString& reason) {
    updateSummaryLive();
    m_endT = now();
    m_summary.wallS = m_endT - m_startT;
    m_summary.status = status;
    m_summary.failedRank = failedRank;
    m_summary.failureReason = reason;
    const int idx = indexOfRank(failedRank);
    m_summary.failedRankStderr = idx >= 0 ? m_ranks[idx].lastStderr : QStringList();
    m_summary.diagnosis.reset();
    if (status == QLatin1String("failed")) {
        // Every rank's tail, the failed one looked at first: a rank that died without a word (killed) leaves
        // the explanation to its peers' errors. A worker's error event counts as a line of its output.
        std::vector<RankOutput> outputs;
        for (const RankStatus& r : m_ranks) {
            RankOutput o{r.rank, {}, r.exitText.toStdString(), r.exitCode};
            for (const QString& line : r.lastStderr)
                o.lines.push_back(line.toStdString());
            if (!r.errorCode.isEmpty() || !r.errorMessage.isEmpty())
                o.lines.push_back(QStringLiteral("%1: %2").arg(r.errorCode, r.errorMessage).toStdString());
            outputs.push_back(std::move(o));
        }
        m_summary.diagnosis = diagnoseRun(outputs, failedRank);
        if (m_summary.diagnosis && m_summary.diagnosis->code == protocol::diagnosis::CollectiveMismatch)
            addLastCollectives(*m_summary.diagnosis);
        if (!m_summary.diagnosis) m_summary.diagnosis = m_nonFiniteLoss;
        // A timeout or a lost peer is what waiting ends in: the rank everyone waited for is the cause.
        const FailureKind* kind = m_summary.diagnosis ? findFailureKind(m_summary.diagnosis->code) : nullptr;
        if (m_lastHoldUp && (!m_summary.diagnosis || (kind && kind->consequence)))
            m_summary.diagnosis = m_lastHoldUp;
    } else if (status == QLatin1String("stopped")) {
        m_summary.diagnosis = m_liveDiagnosis; // stopped while held up: why it hung
    } else if (status == QLatin1String("ok")) {
        const std::optional<Diagnosis> diverged = checkParamsIdentical();
        // Completed, but on a loss that diverged, with ranks that no longer agree, or without training at
        // all.
        m_summary.diagnosis = m_nonFiniteLoss ? m_nonFiniteLoss : diverged ? diverged : noTrainingSteps();
    }
    m_finished = true;
    emit progressChanged();
    emit runFinished(status == QLatin1String("ok"));
}

void RunModel::finishRecorded(const RunSummary& recorded) {
    m_endT = now();
    m_summary = recorded;
    m_finished = true;
    emit progressChanged();
    emit runFinished(recorded.status == QLatin1String("ok"));
}

RunSummary RunModel::summary() const {
    if (m_finished) return m_summary;
    RunSummary s = m_summary;
    fillLiveFigures(s);
    return s;
}

} // namespace ddpdesk::launch
