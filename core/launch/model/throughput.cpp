#include "launch/model/throughput.h"

#include <QCoreApplication>

namespace ddpdesk::launch {

void ThroughputMeter::reset(int ranks) {
    m_ranks = QVector<Rank>(ranks);
}

void ThroughputMeter::restart(int index) {
    m_ranks[index] = Rank();
}

double ThroughputMeter::runAside() const {
    double most = 0;
    for (const Rank& r : m_ranks)
        most = qMax(most, r.asideS);
    return most;
}

double ThroughputMeter::trainingSpan(double span, double asideFrom) const {
    const double training = span - qMax(0.0, runAside() - asideFrom);
    // A validation longer than the span it is taken from (a rank whose pass began before that rank's first
    // event): the span as measured rather than a rate from almost no time.
    return training >= 0.1 * span ? training : span;
}

double ThroughputMeter::onStep(int index, double t, qint64 samples, double asideS) {
    Rank& r = m_ranks[index];
    ++r.events;
    if (asideS > 0) r.asideS += asideS; // before the snapshots below: it lies before this event's t
    if (samples < 0) return 0;
    if (r.firstSamples < 0) {
        r.firstT = t;
        r.firstSamples = samples;
        r.firstAsideS = runAside();
    }
    r.lastT = t;
    r.lastSamples = samples;
    if (r.events == 2) {
        r.warmT = t;
        r.warmSamples = samples;
        r.warmAsideS = runAside();
    } else if (r.events > 2 && r.warmSamples >= 0 && t > r.warmT) {
        return double(samples - r.warmSamples) / trainingSpan(t - r.warmT, r.warmAsideS);
    }
    return 0;
}

SamplesRate ThroughputMeter::global(double afterWarmup, double scale) const {
    SamplesRate out;
    if (afterWarmup > 0) {
        out.perS = afterWarmup * scale;
        out.basis = QLatin1String(rate_basis::AfterWarmup);
        return out;
    }
    double sum = 0;
    int events = 0, counted = 0;
    for (const Rank& r : m_ranks) {
        events = qMax(events, r.events);
        counted += r.firstSamples >= 0;
        if (r.lastT > r.firstT && r.lastSamples > r.firstSamples)
            sum += double(r.lastSamples - r.firstSamples) / trainingSpan(r.lastT - r.firstT, r.firstAsideS);
    }
    if (sum > 0) {
        out.perS = sum * scale;
        out.basis = QLatin1String(rate_basis::FromFirstStep);
    } else if (events == 0) {
        out.why = QCoreApplication::translate("ddpdesk::launch::RunModel", "no training step was reported");
    } else if (counted == 0) {
        out.why = QCoreApplication::translate("ddpdesk::launch::RunModel",
                                              "the ranks did not report how many samples they trained on");
    } else {
        out.why = QCoreApplication::translate("ddpdesk::launch::RunModel",
                                              "each rank reported one step; a rate needs two");
    }
    return out;
}

} // namespace ddpdesk::launch
