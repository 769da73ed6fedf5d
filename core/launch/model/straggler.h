#pragma once

// Which rank is slow, and at what: each rank's own work per step (its step time less the time it waited in
// the gradient exchange) against the fastest rank's, and against its own best. In synchronous DDP every
// rank's step takes as long as the slowest one's, so the step time alone cannot tell; the others' waiting
// can. A rank that stays kSlowRatio or more slower than the fastest for the sustained time is a straggler,
// with what is slow: its compute, or its data loading where the rank reports the time outside forward and
// backward.

#include "launch/diagnose/scaling.h"

#include <QString>
#include <QVector>

#include <cmath>
#include <deque>
#include <limits>
#include <set>

namespace ddpdesk::launch {

struct StragglerScore {
    double vsFastest =
        std::numeric_limits<double>::quiet_NaN(); // own time / the fastest rank's; NaN: unknown
    double vsOwnBest = std::numeric_limits<double>::quiet_NaN(); // own time / this rank's best so far
    double ownMs = -1;  // its own work per step (smoothed); -1: not measured
    double dataMs = -1; // of which outside forward and backward; -1: not reported
    double slowSinceT =
        0; // unix seconds since it has been kSlowRatio or more slower than the fastest; 0: not
    // The median of its own work per step over its last kSteadyEvents step events past the warm-up: what
    // the end of a run judges a straggler by, so one long step (an evaluation or a checkpoint on this rank
    // alone) moves the smoothed figure above but not this one. -1: not measured.
    double steadyMs = -1;
    bool known() const { return !std::isnan(vsFastest); }
};

struct StragglerWarning {
    int index = -1;   // the rank's index in the model
    int fastest = -1; // the fastest rank's index
    double ratio = 0, ownMs = 0, fastestMs = 0, slowForS = 0;
    QString slowPart; // "compute" or "data_loading" (summary.json, the diagnosis event)
    double partMs = 0, fastestPartMs = 0;
};

class StragglerMeter {
public:
    static constexpr double kSlowRatio = kStragglerRatio; // the diagnosis' threshold (diagnose/scaling.h)
    static constexpr int kWarmupEvents =
        2; // the first step events (buckets built, first allreduce) are left out
    static constexpr int kSteadyEvents = 64; // the events StragglerScore::steadyMs is the median of
    static constexpr double kMinExcessMs =
        2; // below this, a ratio of tiny step times is jitter, not a slow rank

    void reset(int ranks, double sustainS);
    void restart(int index); // a restarted rank: its history starts over
    // A step event: means per step since its previous event; commMs/dataMs < 0: not reported.
    void onStep(int index, double t, double stepMs, double commMs, double dataMs);
    const StragglerScore& score(int index) const { return m_ranks[index].score; }
    // A rank that has been a straggler for the sustained time and was not warned about yet (once per rank
    // until it catches up again).
    QVector<StragglerWarning> takeWarnings(double t);

private:
    struct Rank {
        int events = 0;
        double ownMs = -1, dataMs = -1, bestMs = -1;
        StragglerScore score;
        bool warned = false;
        std::deque<double> recent; // its last kSteadyEvents own times, for steadyMs
    };
    void rescore(Rank& r, double t);

    QVector<Rank> m_ranks;
    std::multiset<double> m_own; // every measured rank's own time: the fastest first
    double m_sustainS = 30;
};

} // namespace ddpdesk::launch
