// Which rank is slow, and at what (core/launch/model/straggler.h): the scores and the warning's rules on
// made-up step events. The live path (a real script with one slow rank, the launcher's watch, summary.json,
// metrics.jsonl) is launch.script_sweep's aSlowRankIsNamedAStraggler, and for ddpdesk-worker ranks
// launch.scaling's aWorkerRankBesideCpuHogsIsNamedAStraggler. The evidence beside a warning is read here from
// monitor events made by core/monitor itself (no GPU on the test machines: the GPU readings are made up).
#include "launch/model/run_model.h"
#include "launch/model/straggler.h"
#include "launch/watch/straggler_evidence.h"
#include "monitor/monitor_events.h"

#include <nlohmann/json.hpp>

#include <QtTest>

using ddpdesk::launch::StragglerMeter;

namespace {

// Both ranks step together every 100 ms of wall time (lockstep): the slow one works `slowOwnMs` of each
// step, the fast one `fastOwnMs` and waits the rest in the gradient exchange.
void lockstep(StragglerMeter& m, double from, double until, double fastOwnMs, double slowOwnMs,
              double slowDataMs = -1, double fastDataMs = -1) {
    const double stepMs = std::max(fastOwnMs, slowOwnMs) + 1;
    for (double t = from; t < until; t += 0.1) {
        m.onStep(0, t, stepMs, stepMs - fastOwnMs, fastDataMs);
        m.onStep(1, t, stepMs, stepMs - slowOwnMs, slowDataMs);
    }
}

} // namespace

class StragglerTest : public QObject {
    Q_OBJECT

private slots:
    void theEvidenceNamesAHotDownClockedGpuAndWhatElseRunsOnIt() {
        using namespace ddpdesk;
        launch::RunModel model;
        model.reset({0, 1}, 2, QStringLiteral("autoencoder"), 100);
        model.setPid(0, 1000);
        model.setPid(1, 1001);
        monitor::GpuSample fast, slow;
        fast.index = 0;
        fast.gpuUtilPercent = 99;
        fast.temperatureC = 61;
        fast.smClockMHz = 1980;
        fast.processes = std::vector<monitor::GpuProcess>{{1000, {}}};
        slow.index = 1;
        slow.gpuUtilPercent = 97;
        slow.temperatureC = 87;
        slow.smClockMHz = 1110;
        slow.processes = std::vector<monitor::GpuProcess>{{1001, {}}, {4242, {}}};
        model.applyMonitorEvent(monitor::gpuEvent({fast, slow}, monitor::NvmlStatus{}, 1.0));
        monitor::ProcessSample p;
        p.pid = 1001;
        p.rank = 1;
        p.alive = true;
        p.cpuPercent = 100;
        p.threads = 12;
        model.applyMonitorEvent(monitor::procEvent({p}, {fast, slow}, 1.0));

        const launch::StragglerEvidence e = launch::stragglerEvidence(model, 1, 1, 0, 0);
        const QString text = e.text.join(", ");
        QCOMPARE(text,
                 QStringLiteral("CPU 100 %, 12 threads, GPU 1 at 97 % utilization, 87 °C, SM clock 1110 "
                                "MHz against 1980 MHz on GPU 0 of the fastest rank, 1 other "
                                "process(es) on its GPU (pid 4242)"));
        QCOMPARE(e.fields["temperature_c"].toDouble(), 87.0);
        QCOMPARE(e.fields["sm_clock_mhz"].toDouble(), 1110.0);
        QCOMPARE(e.fields["fastest_sm_clock_mhz"].toDouble(), 1980.0);
        QCOMPARE(e.fields["gpu_other_pids"].toArray(), QJsonArray({4242}));
        QCOMPARE(e.fields["index"].toInt(), 1);

        // A GPU the driver gives no temperature, clock or process list for: only what it reads.
        slow.temperatureC.reset();
        slow.smClockMHz.reset();
        slow.processes.reset();
        model.applyMonitorEvent(monitor::gpuEvent({fast, slow}, monitor::NvmlStatus{}, 2.0));
        const launch::StragglerEvidence partial = launch::stragglerEvidence(model, 1, 1, 0, 0);
        QCOMPARE(partial.text.join(", "), QStringLiteral("CPU 100 %, 12 threads, GPU 1 at 97 % utilization"));
        QVERIFY(!partial.fields.contains("temperature_c") && !partial.fields.contains("gpu_other_pids"));
        // A rank on the CPU: its process alone.
        QCOMPARE(launch::stragglerEvidence(model, 1, -1, 0, -1).text.join(", "),
                 QStringLiteral("CPU 100 %, 12 threads"));
    }

    void theSlowRankScoresAgainstTheFastest() {
        StragglerMeter m;
        m.reset(2, 30);
        lockstep(m, 0, 5, 20, 60);
        QVERIFY(m.score(1).known());
        QVERIFY2(qAbs(m.score(1).vsFastest - 3.0) < 0.05, qPrintable(QString::number(m.score(1).vsFastest)));
        QVERIFY(qAbs(m.score(0).vsFastest - 1.0) < 0.01);
        QVERIFY(m.score(1).slowSinceT > 0);
        QCOMPARE(m.score(0).slowSinceT, 0.0);
        // Against its own best: it has always been this slow.
        QVERIFY(qAbs(m.score(1).vsOwnBest - 1.0) < 0.01);
    }

    // nanoGPT's shape: the ranks step alike, then rank 0 alone evaluates before its last step. The smoothed
    // figure (what the live warning follows) jumps; the steady one (the median of its recent steps, what the
    // end of the run judges by) does not.
    void oneLongStepMovesTheSmoothedFigureNotTheSteadyOne() {
        StragglerMeter m;
        m.reset(2, 30);
        lockstep(m, 0, 5, 20, 20);
        m.onStep(0, 5.0, 401, 1, -1); // 400 ms of its own: an evaluation on rank 0 alone
        m.onStep(1, 5.0, 401, 381, -1);
        QVERIFY2(m.score(0).vsFastest >= 1.3, qPrintable(QString::number(m.score(0).vsFastest)));
        QVERIFY(m.score(0).slowSinceT > 0);
        QVERIFY2(qAbs(m.score(0).steadyMs - 20) < 0.5, qPrintable(QString::number(m.score(0).steadyMs)));
        QVERIFY(qAbs(m.score(1).steadyMs - 20) < 0.5);
        // A rank slow on every step is slow on its steady figure too.
        m.reset(2, 30);
        lockstep(m, 0, 5, 20, 60);
        QVERIFY(qAbs(m.score(1).steadyMs / m.score(0).steadyMs - 3.0) < 0.05);
    }

    void aWarningComesAfterTheSustainedTimeAndOnce() {
        StragglerMeter m;
        m.reset(2, 3);
        lockstep(m, 0, 2, 20, 60);
        QVERIFY(m.takeWarnings(2).isEmpty()); // slow for about 2 s: not yet
        lockstep(m, 2, 4, 20, 60);
        const auto warnings = m.takeWarnings(4);
        QCOMPARE(warnings.size(), 1);
        QCOMPARE(warnings[0].index, 1);
        QCOMPARE(warnings[0].fastest, 0);
        QVERIFY(warnings[0].slowForS >= 3);
        QCOMPARE(warnings[0].slowPart, QStringLiteral("compute")); // no data_ms reported
        QVERIFY(m.takeWarnings(10).isEmpty());                     // said once
    }

    void catchingUpRearmsTheWarning() {
        StragglerMeter m;
        m.reset(2, 1);
        lockstep(m, 0, 2, 20, 60);
        QCOMPARE(m.takeWarnings(2).size(), 1);
        lockstep(m, 2, 6, 20, 20); // the same speed again
        QCOMPARE(m.score(1).slowSinceT, 0.0);
        QVERIFY(m.takeWarnings(6).isEmpty());
        lockstep(m, 6, 9, 20, 60);
        QCOMPARE(m.takeWarnings(9).size(), 1);
    }

    // On a busy machine the fastest rank's figure jitters too: a slow rank whose ratio dips under 1.3 for a
    // moment has not caught up, and its sustained time goes on.
    void aRatioDippingBelowTheThresholdForAMomentKeepsTheSustainedTime() {
        StragglerMeter m;
        m.reset(2, 3);
        lockstep(m, 0, 2, 20, 30); // 1.5x
        const double since = m.score(1).slowSinceT;
        QVERIFY(since > 0);
        lockstep(m, 2, 2.3, 20, 23); // 1.15x for three steps: about 1.25x smoothed
        QVERIFY2(m.score(1).vsFastest < StragglerMeter::kSlowRatio,
                 qPrintable(QString::number(m.score(1).vsFastest)));
        QCOMPARE(m.score(1).slowSinceT, since);
        lockstep(m, 2.3, 4, 20, 30);
        QCOMPARE(m.takeWarnings(4).size(), 1);
    }

    void whatIsSlowIsTheLargerExcess() {
        StragglerMeter m;
        m.reset(2, 1);
        // Both compute 20 ms; the slow rank also spends 40 ms outside forward and backward.
        lockstep(m, 0, 3, 21, 61, 41, 1);
        auto w = m.takeWarnings(3);
        QCOMPARE(w.size(), 1);
        QCOMPARE(w[0].slowPart, QStringLiteral("data_loading"));
        QVERIFY(qAbs(w[0].partMs - 41) < 1);
        QVERIFY(qAbs(w[0].fastestPartMs - 1) < 1);

        StragglerMeter c;
        c.reset(2, 1);
        lockstep(c, 0, 3, 21, 61, 1, 1); // the same data loading, 40 ms more compute
        w = c.takeWarnings(3);
        QCOMPARE(w.size(), 1);
        QCOMPARE(w[0].slowPart, QStringLiteral("compute"));
    }

    void tinyStepsAreJitterNotStragglers() {
        StragglerMeter m;
        m.reset(2, 1);
        lockstep(m, 0, 5, 0.3, 0.9); // 3x, but less than a millisecond apart
        QVERIFY(m.score(1).vsFastest > 2);
        QCOMPARE(m.score(1).slowSinceT, 0.0);
        QVERIFY(m.takeWarnings(5).isEmpty());
    }

    void oneRankOrNoCommWaitIsNotMeasured() {
        StragglerMeter one;
        one.reset(1, 1);
        for (double t = 0; t < 3; t += 0.1)
            one.onStep(0, t, 50, 0, -1);
        QVERIFY(!one.score(0).known());

        StragglerMeter noComm;
        noComm.reset(2, 1);
        for (double t = 0; t < 3; t += 0.1) {
            noComm.onStep(0, t, 50, -1, -1);
            noComm.onStep(1, t, 50, -1, -1);
        }
        QVERIFY(!noComm.score(0).known());
        QVERIFY(noComm.takeWarnings(3).isEmpty());
    }

    void aRestartedRankStartsOver() {
        StragglerMeter m;
        m.reset(2, 1);
        lockstep(m, 0, 3, 20, 60);
        m.restart(1);
        QVERIFY(!m.score(1).known());
        QVERIFY(m.takeWarnings(3).isEmpty());
        lockstep(m, 3, 6, 20, 20);
        QVERIFY(qAbs(m.score(1).vsFastest - 1.0) < 0.05);
    }
};

QTEST_GUILESS_MAIN(StragglerTest)
#include "test_straggler.moc"
