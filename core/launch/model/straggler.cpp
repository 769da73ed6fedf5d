#include "launch/model/straggler.h"

#include <algorithm>
#include <vector>

namespace ddpdesk::launch {

namespace {

constexpr double kSmoothing = 0.3; // weight of the newest event: a rank's figure follows within a few events
constexpr double kMinExcessMs = StragglerMeter::kMinExcessMs;
// A slow rank has caught up only when clearly closer than kSlowRatio: on a busy machine the fastest rank's
// figure jitters too, and a ratio flapping around 1.3 would otherwise restart the sustained time each dip.
constexpr double kCaughtUpRatio = 1.15;

double smoothed(double previous, double value) {
    return previous < 0 ? value : (1 - kSmoothing) * previous + kSmoothing * value;
}

} // namespace

void StragglerMeter::reset(int ranks, double sustainS) {
    m_ranks = QVector<Rank>(ranks);
    m_own.clear();
    m_sustainS = sustainS;
}

void StragglerMeter::restart(int index) {
    if (index < 0 || index >= m_ranks.size()) return;
    if (m_ranks[index].ownMs >= 0) m_own.erase(m_own.find(m_ranks[index].ownMs));
    m_ranks[index] = Rank{};
}

void StragglerMeter::onStep(int index, double t, double stepMs, double commMs, double dataMs) {
    if (index < 0 || index >= m_ranks.size()) return;
    Rank& r = m_ranks[index];
    // Without the time it waited for the others, a rank's own work cannot be told from theirs.
    if (stepMs <= 0 || commMs < 0) return;
    if (++r.events <= kWarmupEvents) return;
    if (r.ownMs >= 0) m_own.erase(m_own.find(r.ownMs));
    const double own = std::max(0.0, stepMs - commMs);
    r.ownMs = smoothed(r.ownMs, own);
    r.recent.push_back(own);
    if (r.recent.size() > size_t(kSteadyEvents)) r.recent.pop_front();
    std::vector<double> sorted(r.recent.begin(), r.recent.end());
    std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
    r.score.steadyMs = sorted[sorted.size() / 2];
    m_own.insert(r.ownMs);
    if (dataMs >= 0) r.dataMs = smoothed(r.dataMs, std::min(dataMs, stepMs));
    if (r.events > kWarmupEvents + 2) // its best from a smoothed figure, not the first event's
        r.bestMs = r.bestMs < 0 ? r.ownMs : std::min(r.bestMs, r.ownMs);
    rescore(r, t);
}

// Only the rank that reported: per-event work does not grow with the rank count (the fastest is the ordered
// set's first). The others are rescored at their own next event.
void StragglerMeter::rescore(Rank& r, double t) {
    if (m_own.size() < 2) return;
    const double fastest = *m_own.begin();
    StragglerScore& s = r.score;
    s.ownMs = r.ownMs;
    s.dataMs = r.dataMs;
    s.vsFastest = fastest > 0 ? r.ownMs / fastest : 1.0;
    s.vsOwnBest = r.bestMs > 0 ? r.ownMs / r.bestMs : 1.0;
    const bool wasSlow = s.slowSinceT > 0;
    const bool slow = wasSlow ? s.vsFastest >= kCaughtUpRatio && r.ownMs - fastest >= kMinExcessMs / 2
                              : s.vsFastest >= kSlowRatio && r.ownMs - fastest >= kMinExcessMs;
    if (!slow) {
        s.slowSinceT = 0;
        r.warned = false;
    } else if (s.slowSinceT <= 0) {
        s.slowSinceT = t;
    }
}

QVector<StragglerWarning> StragglerMeter::takeWarnings(double t) {
    QVector<StragglerWarning> out;
    if (m_sustainS <= 0) return out;
    int fastest = -1;
    for (int i = 0; i < m_ranks.size(); ++i)
        if (m_ranks[i].ownMs >= 0 && (fastest < 0 || m_ranks[i].ownMs < m_ranks[fastest].ownMs)) fastest = i;
    if (fastest < 0) return out;
    const Rank& f = m_ranks[fastest];
    for (int i = 0; i < m_ranks.size(); ++i) {
        Rank& r = m_ranks[i];
        if (r.warned || r.score.slowSinceT <= 0 || t - r.score.slowSinceT < m_sustainS) continue;
        r.warned = true;
        StragglerWarning w;
        w.index = i;
        w.fastest = fastest;
        w.ratio = r.score.vsFastest;
        w.ownMs = r.ownMs;
        w.fastestMs = f.ownMs;
        w.slowForS = t - r.score.slowSinceT;
        // Which part of its own work makes up most of what it needs more than the fastest rank.
        if (r.dataMs >= 0 && f.dataMs >= 0) {
            const double dataExcess = r.dataMs - f.dataMs;
            const double computeExcess = (r.ownMs - r.dataMs) - (f.ownMs - f.dataMs);
            const bool data = dataExcess >= computeExcess;
            w.slowPart = data ? QStringLiteral("data_loading") : QStringLiteral("compute");
            w.partMs = data ? r.dataMs : r.ownMs - r.dataMs;
            w.fastestPartMs = data ? f.dataMs : f.ownMs - f.dataMs;
        } else {
            w.slowPart = QStringLiteral("compute");
            w.partMs = r.ownMs;
            w.fastestPartMs = f.ownMs;
        }
        out.push_back(w);
    }
    return out;
}

} // namespace ddpdesk::launch
