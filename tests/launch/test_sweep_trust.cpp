// What a sweep's figures can be trusted for (core/launch/run/sweep_trust.h), from made-up rows as the sweep
// fills them: a speedup above what the workers can give, a rate too short to be steady or not measured at
// all, a size that ran beside other work (MACHINE_BUSY), and a size under 80 % efficiency without a measured
// cause, which says why none was found or could be measured. Then what the CLI's table and sweep.csv show of
// them. No process: milliseconds.

#include "launch/model/throughput.h"
#include "launch/run/sweep.h"
#include "launch/run/sweep_trust.h"

#include <QtTest>

#include <cmath>

using namespace ddpdesk::launch;

namespace {

SweepRow row(int nproc, double samplesPerS, double commWaitShare = 0.05) {
    SweepRow r;
    r.size.nproc = nproc;
    r.ok = true;
    r.status = QStringLiteral("ok");
    r.samplesPerS = samplesPerS;
    r.rateBasis = QString::fromLatin1(rate_basis::AfterWarmup);
    r.commWaitShare = commWaitShare;
    return r;
}

QString allNotes(const SweepRow& r) {
    return r.notesText.join(QLatin1Char('\n'));
}

} // namespace

class SweepTrustTest : public QObject {
    Q_OBJECT

private slots:
    // The Compare page once showed 29.98x and 1,499 % under load with no word: a size whose speedup is
    // above its workers' ratio says that one of the rates is off; the base size is not blamed.
    void aSpeedupAboveTheSizeIsNotTrusted() {
        QVector<SweepRow> rows = {row(1, 100), row(2, 2998)};
        computeSweepMetrics(rows);
        QCOMPARE(rows[1].notes, QStringList({sweep_note::SpeedupAboveSize}));
        QVERIFY2(allNotes(rows[1]).contains("speedup 29.98x with 2x the workers"),
                 qPrintable(allNotes(rows[1])));
        QVERIFY(rows[0].notes.isEmpty());
        // Within noise of ideal it is no note.
        rows = {row(1, 100), row(2, 205)};
        computeSweepMetrics(rows);
        QVERIFY2(rows[1].notes.isEmpty(), qPrintable(allNotes(rows[1])));
    }

    // A size measured while other work kept cores busy is slower than the machine gives: said, with how many
    // cores, and a size below 80 % then has no cause looked for. A little other work, or none known, is no
    // note.
    void aSizeThatRanBesideOtherWorkIsNotTrusted() {
        QVector<SweepRow> rows = {row(1, 100), row(2, 120)};
        rows[1].otherCores = 1.2;
        rows[1].machineCores = 2;
        computeSweepMetrics(rows);
        QCOMPARE(rows[1].notes, QStringList({sweep_note::MachineBusy, sweep_note::NoCauseMeasurable}));
        QVERIFY2(allNotes(rows[1]).contains("other work on this machine kept 1.2 of its 2 cores busy"),
                 qPrintable(allNotes(rows[1])));
        QVERIFY(rows[0].notes.isEmpty());
        for (const double other : {0.3, qQNaN()}) {
            rows = {row(1, 100), row(2, 190)};
            rows[1].otherCores = other;
            rows[1].machineCores = 2;
            computeSweepMetrics(rows);
            QVERIFY2(rows[1].notes.isEmpty(), qPrintable(allNotes(rows[1])));
        }
        // On 8 cores a quarter is 2: one core of other work leaves the rate as it is.
        rows = {row(1, 100), row(2, 190)};
        rows[1].otherCores = 1.0;
        rows[1].machineCores = 8;
        computeSweepMetrics(rows);
        QVERIFY2(rows[1].notes.isEmpty(), qPrintable(allNotes(rows[1])));
    }

    void aRateFromTheFirstStepIsTooShort() {
        QVector<SweepRow> rows = {row(1, 100), row(2, 190)};
        rows[1].rateBasis = QString::fromLatin1(rate_basis::FromFirstStep);
        computeSweepMetrics(rows);
        QCOMPARE(rows[1].notes, QStringList({sweep_note::TooShort}));
        QVERIFY(allNotes(rows[1]).contains("first step"));
        // Two steps: one interval after the warm-up is no steady rate either.
        rows = {row(1, 100), row(2, 190)};
        rows[1].steps = 2;
        computeSweepMetrics(rows);
        QCOMPARE(rows[1].notes, QStringList({sweep_note::TooShort}));
        QVERIFY2(allNotes(rows[1]).contains("2 step(s), fewer than 10"), qPrintable(allNotes(rows[1])));
    }

    void aRateNotMeasuredSaysWhy() {
        QVector<SweepRow> rows = {row(1, 100), row(2, 0)};
        rows[1].rateWhy = QStringLiteral("each rank reported one step; a rate needs two");
        computeSweepMetrics(rows);
        QCOMPARE(rows[1].notes, QStringList({sweep_note::RateNotMeasured}));
        QVERIFY(allNotes(rows[1]).contains("each rank reported one step; a rate needs two"));
    }

    // 54 % with 2 workers and 9.5 % comm wait once showed "-" as its reason: now it names what was
    // measured and what is left.
    void underTheFloorWithoutACauseSaysWhatWasMeasured() {
        QVector<SweepRow> rows = {row(1, 100), row(2, 108, 0.095)};
        computeSweepMetrics(rows);
        QCOMPARE(rows[1].notes, QStringList({sweep_note::NoCauseFound}));
        const QString text = allNotes(rows[1]);
        QVERIFY2(text.contains("efficiency 54 %") && text.contains("9.5 % of their step"), qPrintable(text));
        // A cause measured: the cause is the answer, no note.
        rows = {row(1, 100), row(2, 108, 0.6)};
        rows[1].scaling = QStringList({QStringLiteral("COMM_BOUND")});
        computeSweepMetrics(rows);
        QVERIFY(rows[1].notes.isEmpty());
        // At the floor and above: nothing to explain.
        rows = {row(1, 100), row(2, 160)};
        computeSweepMetrics(rows);
        QVERIFY(rows[1].notes.isEmpty());
    }

    void underTheFloorWithNothingMeasuredSaysSo() {
        QVector<SweepRow> rows = {row(1, 100), row(2, 108, qQNaN())};
        computeSweepMetrics(rows);
        QCOMPARE(rows[1].notes, QStringList({sweep_note::NoCauseMeasurable}));
        QVERIFY(allNotes(rows[1]).contains("no rank reported how long it waited"));
        // Too short to be steady: no cause is looked for in figures that are not.
        rows = {row(1, 100), row(2, 108)};
        rows[1].rateBasis = QString::fromLatin1(rate_basis::FromFirstStep);
        computeSweepMetrics(rows);
        QCOMPARE(rows[1].notes, QStringList({sweep_note::TooShort, sweep_note::NoCauseMeasurable}));
    }

    void aFailedSizeHasNoNotes() {
        QVector<SweepRow> rows = {row(1, 100), row(2, 0)};
        rows[1].ok = false;
        rows[1].status = QStringLiteral("failed");
        computeSweepMetrics(rows);
        QVERIFY(rows[1].notes.isEmpty());
    }

    // Each compared value has its own base: bf16's 2 workers against bf16's 1.
    void eachComparedValueIsJudgedAgainstItsOwnBase() {
        QVector<SweepRow> rows = {row(1, 100), row(2, 190), row(1, 40), row(2, 200)};
        for (int i : {2, 3}) {
            rows[i].size.setting = QStringLiteral("precision");
            rows[i].size.value = QStringLiteral("bf16");
        }
        computeSweepMetrics(rows);
        QVERIFY(rows[1].notes.isEmpty());
        QCOMPARE(rows[3].notes, QStringList({sweep_note::SpeedupAboveSize}));
        QVERIFY(sweepTable(rows).contains("size 2 precision=bf16: SPEEDUP_ABOVE_SIZE: speedup 5.00x"));
    }

    void theTableAndTheCsvShowTheNotes() {
        QVector<SweepRow> rows = {row(1, 100), row(2, 108, 0.095)};
        rows[0].commWaitShare = qQNaN(); // a size whose ranks never reported a wait: blank, not 0
        computeSweepMetrics(rows);
        const QString table = sweepTable(rows);
        QVERIFY2(table.contains("size 2: NO_CAUSE_FOUND: efficiency 54 %"), qPrintable(table));
        const QStringList lines = sweepCsv(rows).split('\n', Qt::SkipEmptyParts);
        QVERIFY(lines[0].endsWith(",variant,scaling,notes"));
        const QStringList first = lines[1].split(','), second = lines[2].split(',');
        QCOMPARE(first.size(), 12);
        QCOMPARE(second.size(), 12);
        QCOMPARE(first[7], QString()); // comm_wait_share
        QCOMPARE(second[11], QStringLiteral("NO_CAUSE_FOUND"));
    }
};

QTEST_GUILESS_MAIN(SweepTrustTest)
#include "test_sweep_trust.moc"
