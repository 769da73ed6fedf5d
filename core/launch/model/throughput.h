#pragma once

// Samples per second as the ranks' step events show it. The run's figure leaves each rank's first step out
// (allocation, the first allreduce); a run too short for that is measured from its first step on and says so;
// one that cannot be measured at all says why instead of showing 0. Training samples over training time: the
// validation passes between a rank's steps (its step events' eval_ms) are left out of the time. In
// synchronous DDP every rank waits for the one that validates longest (at its next gradient exchange), so
// each rank's time leaves out the most validation any rank reported between its steps since that rank began
// to be measured.

#include <QString>
#include <QVector>

#include <QtGlobal>

namespace ddpdesk::launch {

// What a samples/s figure covers (summary.json `samples_per_s_basis`).
namespace rate_basis {
constexpr const char* AfterWarmup = "after_warmup";      // from each rank's second step event on
constexpr const char* FromFirstStep = "from_first_step"; // too few steps to leave the first one out
} // namespace rate_basis

struct SamplesRate {
    double perS = 0; // 0: not measured (then `why` says why)
    QString basis;   // a rate_basis value; empty when not measured
    QString why;     // plain words when not measured
};

class ThroughputMeter {
public:
    void reset(int ranks);
    void restart(int index); // the rank starts again (a restart): its counts start over
    // A rank's step event with its cumulative sample count at unix time t (samples < 0: none reported).
    // Returns the rank's rate after warm-up, 0 while it is still warming up.
    // asideS: the seconds of validation between this event's steps and the previous event's.
    double onStep(int index, double t, qint64 samples, double asideS = 0);
    // The run's rate: afterWarmup is the sum of the ranks' rates after warm-up (the caller's, which may come
    // from the ranks' own figures); scale turns the local ranks' sum into the world's.
    SamplesRate global(double afterWarmup, double scale) const;

private:
    struct Rank {
        int events = 0;
        double firstT = 0, warmT = 0, lastT = 0;
        qint64 firstSamples = -1, warmSamples = -1, lastSamples = -1;
        double asideS = 0;                      // its validation between its steps so far
        double firstAsideS = 0, warmAsideS = 0; // the run's (runAside()) at its first and warm events
    };
    double runAside() const; // the longest validation time so far of any rank
    // Span less the validation the ranks waited for since `from`; the span itself when that leaves too
    // little.
    double trainingSpan(double span, double asideFrom) const;
    QVector<Rank> m_ranks;
};

} // namespace ddpdesk::launch
