#include "launch/run/sweep_trust.h"

#include "launch/diagnose/scaling.h"
#include "launch/model/throughput.h"

#include <QCoreApplication>

#include <cmath>

namespace ddpdesk::launch {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ddpdesk::launch::SweepTrust", text);
}

void note(SweepRow& r, const char* code, const QString& text) {
    r.notes << QString::fromLatin1(code);
    r.notesText << QStringLiteral("%1: %2").arg(QString::fromLatin1(code), text);
}

} // namespace

void judgeSweepRows(QVector<SweepRow>& rows) {
    for (SweepRow& r : rows) {
        r.notes.clear();
        r.notesText.clear();
        if (!r.ok) continue; // its status says what happened
        bool trusted = true;
        if (!(r.samplesPerS > 0)) {
            trusted = false;
            note(r, sweep_note::RateNotMeasured,
                 tr("samples/s could not be measured, so this size is not compared: %1")
                     .arg(r.rateWhy.isEmpty() ? tr("no rank reported its samples") : r.rateWhy));
        } else if (r.rateBasis == QLatin1String(rate_basis::FromFirstStep)) {
            trusted = false;
            note(r, sweep_note::TooShort,
                 tr("too short to measure a steady rate: its samples/s includes each rank's first step "
                    "(allocation, the first gradient exchange); give the sweep more steps"));
        } else if (r.steps >= 0 && r.steps < kSteadySteps) {
            trusted = false;
            note(
                r, sweep_note::TooShort,
                tr("too short to measure a steady rate: %1 step(s), fewer than %2; give the sweep more steps")
                    .arg(r.steps)
                    .arg(kSteadySteps));
        }
        if (std::isfinite(r.otherCores) && r.otherCores >= qMax(kBusyCoresMin, kBusyShare * r.machineCores)) {
            trusted = false;
            note(r, sweep_note::MachineBusy,
                 tr("other work on this machine kept %1 of its %2 cores busy while this size ran: its "
                    "samples/s is below what the machine gives, and the speedups against it are off; run the "
                    "sweep again on an otherwise idle machine")
                     .arg(r.otherCores, 0, 'f', 1)
                     .arg(r.machineCores, 0, 'f', 0));
        }
        // efficiency = speedup / (workers against the base's): the workers' ratio is their quotient.
        const double workers = r.efficiency > 0 ? r.speedup / r.efficiency : 0;
        if (workers > 0 && r.speedup > workers * kSpeedupSlack) {
            trusted = false;
            note(r, sweep_note::SpeedupAboveSize,
                 tr("speedup %1x with %2x the workers is more than they can give: one of the two rates "
                    "compared is off (a run too short to be steady, or other work on this machine while one "
                    "of the sizes ran); run the sweep again with more steps on an otherwise idle machine")
                     .arg(r.speedup, 0, 'f', 2)
                     .arg(workers, 0, 'g', 3));
        }
        if (!(r.efficiency > 0) || r.efficiency >= kEfficiencyFloor || !r.scaling.isEmpty()) continue;
        const QString efficiency = QString::number(r.efficiency * 100, 'f', 0);
        if (!trusted) {
            note(r, sweep_note::NoCauseMeasurable,
                 tr("efficiency %1 % and no cause measured: this size's figures are not steady enough to "
                    "look for one (the notes above)")
                     .arg(efficiency));
        } else if (!std::isfinite(r.commWaitShare)) {
            note(r, sweep_note::NoCauseMeasurable,
                 tr("efficiency %1 % and no cause could be measured: no rank reported how long it waited on "
                    "the gradient exchange (a script without a DDP model, or ranks that never stepped)")
                     .arg(efficiency));
        } else {
            note(
                r, sweep_note::NoCauseFound,
                tr("efficiency %1 % and none of the causes DDP Desk looks for (the gradient exchange, data "
                   "loading, threads against cores, a straggler, the network interface) reached its bar: the "
                   "ranks waited %2 % of their step on the exchange (a cause from %3 %); what is left is "
                   "outside those: the start-up of a short run, or other work on this machine")
                    .arg(efficiency)
                    .arg(r.commWaitShare * 100, 0, 'f', 1)
                    .arg(kCommBoundShare * 100, 0, 'f', 0));
        }
    }
}

} // namespace ddpdesk::launch
