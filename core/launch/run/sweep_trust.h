#pragma once

// What a sweep's figures can be trusted for, size by size. A size's samples/s can be too short to be steady
// (it includes the first step), not measured at all, measured while other work took the machine's cores, or
// give a speedup above what its workers could (one of the two rates compared is off: a short run, or other
// work on this machine while one size ran). A size
// under kEfficiencyFloor with no measured cause says why none was found or could be measured, instead of an
// empty "why not faster". Plain rows in, notes out (SweepRow::notes / notesText), after
// computeSweepMetrics: the CLI's table, sweep.csv's `notes` and the Compare page show them.

#include "launch/run/sweep.h"

namespace ddpdesk::launch {

namespace sweep_note {
constexpr const char* RateNotMeasured = "RATE_NOT_MEASURED";   // samples/s n/a: nothing to compare
constexpr const char* TooShort = "TOO_SHORT";                  // its rate includes the first step
constexpr const char* SpeedupAboveSize = "SPEEDUP_ABOVE_SIZE"; // more than its workers can give
constexpr const char* MachineBusy = "MACHINE_BUSY";            // other work took cores while it ran
constexpr const char* NoCauseFound = "NO_CAUSE_FOUND"; // under the floor; every measured cause below its bar
constexpr const char* NoCauseMeasurable =
    "NO_CAUSE_MEASURABLE"; // under the floor; the causes could not be measured
} // namespace sweep_note

constexpr double kEfficiencyFloor = 0.80;
// Fewer steps than this give a rate that is not steady yet, whatever its warm-up left out.
constexpr qint64 kSteadySteps = 10;
// A speedup this much above the workers' ratio is more than noise in the figure: the rates are off.
constexpr double kSpeedupSlack = 1.10;
// Other work that kept this many cores busy on average (at least kBusyCoresMin) while a size ran slowed it.
constexpr double kBusyShare = 0.25;
constexpr double kBusyCoresMin = 0.5;

void judgeSweepRows(QVector<SweepRow>& rows);

} // namespace ddpdesk::launch
