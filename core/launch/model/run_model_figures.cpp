// RunModel's figures as they stand now: the clock, progress and ETA, samples/s (model/throughput.h), the mean
// loss, and the live summary built from them. Computed when asked for, not on every event.

#include "launch/model/run_model.h"

#include "protocol/telemetry.h"

#include <cmath>

namespace ddpdesk::launch {

double RunModel::now() const {
    return m_clockT > 0 ? m_clockT : protocol::nowSeconds();
}

double RunModel::elapsedS() const {
    return (m_endT > 0 ? m_endT : now()) - m_startT;
}

double RunModel::progress() const {
    if (m_expectedSteps <= 0 || m_ranks.isEmpty()) return -1;
    const qint64 minStep = m_stepCounts.begin()->first;
    return qBound(0.0, double(minStep) / double(m_expectedSteps), 1.0);
}

double RunModel::etaS() const {
    const double p = progress();
    if (p <= 0 || m_firstStep < 0 || m_finished) return p >= 1 ? 0 : -1;
    const double startP = double(m_firstStep) / double(m_expectedSteps);
    const double spent = now() - m_firstStepT;
    if (p <= startP || spent <= 0) return -1;
    return spent * (1.0 - p) / (p - startP);
}

double RunModel::globalSamplesPerS() const {
    double sum = 0;
    for (const RankStatus& r : m_ranks)
        sum += r.samplesPerSec;
    return sum * worldScale();
}

double RunModel::worldScale() const {
    return m_summary.worldSize > 0 && !m_ranks.isEmpty() ? double(m_summary.worldSize) / m_ranks.size() : 1;
}

SamplesRate RunModel::samplesRate() const {
    double sum = 0;
    for (const RankStatus& r : m_ranks)
        sum += r.samplesPerSec;
    return m_throughput.global(sum, worldScale());
}

bool RunModel::everyRankAlone() const {
    int stepped = 0;
    for (const RankStatus& r : m_ranks) {
        if (r.step <= 0) continue;
        if (!r.noDdp) return false;
        ++stepped;
    }
    return stepped > 0;
}

double RunModel::meanLoss() const {
    double sum = 0;
    int n = 0;
    for (const RankStatus& r : m_ranks)
        if (std::isfinite(r.loss)) {
            sum += r.loss;
            ++n;
        }
    return n ? sum / n : qQNaN();
}

void RunModel::updateSummaryLive() {
    if (!m_finished) fillLiveFigures(m_summary);
}

// Computed when asked for (summary(), finish()), not on every event: each is a pass over all ranks.
void RunModel::fillLiveFigures(RunSummary& s) const {
    s.steps = m_stepCounts.empty() ? 0 : qMax(qint64(0), m_stepCounts.rbegin()->first);
    s.wallS = elapsedS();
    const SamplesRate rate = samplesRate();
    s.samplesPerS = rate.perS;
    s.samplesPerSBasis = rate.basis;
    s.samplesPerSWhy = rate.why;
    if (s.samplesPerS <= 0 && everyRankAlone())
        s.samplesPerSWhy =
            tr("no rank ran a forward of a model wrapped in DistributedDataParallel, where a script's "
               "samples are counted: each rank trains alone");
    s.finalLoss = meanLoss();
}

} // namespace ddpdesk::launch
