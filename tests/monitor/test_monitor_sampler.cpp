// The background sampler: snapshots at the configured rate with GPUs (fake NVML) and processes, a prompt stop
// even with a long interval, notices delivered once, and the events a snapshot turns into.

#include "fake_nvml_control.h"
#include "monitor/monitor_events.h"
#include "monitor/monitor_sampler.h"
#include "os/process.h"
#include "protocol/telemetry.h"

#include <QtTest>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>

using namespace ddpdesk;
using namespace ddpdesk::monitor;
using namespace ddpdesk::monitor::test;

namespace {

// Collects snapshots from the sampler thread; waits are bounded and name what they waited for.
class Collector {
public:
    MonitorSampler::Callback callback() {
        return [this](const MonitorSnapshot& s) {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_snapshots.push_back(s);
            m_changed.notify_all();
        };
    }
    bool waitFor(size_t count, int timeoutMs = 15000) {
        std::unique_lock<std::mutex> lock(m_mutex);
        return m_changed.wait_for(lock, std::chrono::milliseconds(timeoutMs),
                                  [&] { return m_snapshots.size() >= count; });
    }
    std::vector<MonitorSnapshot> snapshots() {
        std::lock_guard<std::mutex> lock(m_mutex);
        return m_snapshots;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<MonitorSnapshot> m_snapshots;
};

} // namespace

class TestMonitorSampler : public QObject {
    Q_OBJECT
private slots:
    void samplesGpusAndProcessesUntilStopped() {
        ScopedEnv env;
        useLibrary(env, FAKE_NVML_PATH);
        const std::int64_t self = ddpdesk::os::currentPid();
        Collector collector;
        MonitorOptions options;
        options.intervalSeconds = 0.05;
        options.processes = {{self, 0}};
        MonitorSampler sampler(options, collector.callback());
        QVERIFY(!sampler.isRunning());
        sampler.start();
        sampler.start(); // idempotent
        QVERIFY2(collector.waitFor(4), "fewer than 4 snapshots within 15 s at 20 Hz");
        sampler.stop();
        QVERIFY(!sampler.isRunning());
        const size_t delivered = collector.snapshots().size();
        QTest::qWait(200);
        QCOMPARE(collector.snapshots().size(), delivered); // nothing after stop()

        auto snapshots = collector.snapshots();
        for (size_t i = 0; i < snapshots.size(); ++i) {
            const MonitorSnapshot& s = snapshots[i];
            QCOMPARE(s.sequence, int(i));
            QVERIFY(s.nvml.available);
            QCOMPARE(int(s.gpus.size()), 2);
            QCOMPARE(s.gpus[0].gpuUtilPercent.value_or(0), 37u);
            QCOMPARE(int(s.processes.size()), 1);
            QVERIFY(s.processes[0].alive);
            QCOMPARE(s.processes[0].cpuPercent.has_value(), i > 0);
            QVERIFY(s.notices.empty());
            if (i > 0) QVERIFY(s.t >= snapshots[i - 1].t);
        }

        // A snapshot becomes one gpu and one proc event, both valid telemetry lines.
        auto events = snapshotEvents(snapshots.back());
        QCOMPARE(int(events.size()), 2);
        auto gpu = protocol::parseLine(protocol::encodeLine(events[0]));
        auto proc = protocol::parseLine(protocol::encodeLine(events[1]));
        QVERIFY(gpu && proc);
        QCOMPARE(QString::fromStdString(gpu->type), QStringLiteral("gpu"));
        QCOMPARE(QString::fromStdString(proc->type), QStringLiteral("proc"));
        QCOMPARE(gpu->t, snapshots.back().t);
        QCOMPARE(proc->body["processes"][0]["rank"].get<int>(), 0);
        QVERIFY(proc->body["processes"][0]["cpu_percent"].is_number());

        // Restartable after a stop.
        sampler.start();
        QVERIFY(collector.waitFor(delivered + 1));
        sampler.stop();
    }

    void stopWakesALongInterval() {
        // With an hour between samples, only the condition variable can end this test before its ctest
        // timeout.
        ScopedEnv env;
        useLibrary(env, FAKE_NVML_PATH);
        Collector collector;
        MonitorOptions options;
        options.intervalSeconds = 3600;
        MonitorSampler sampler(options, collector.callback());
        sampler.start();
        QVERIFY(collector.waitFor(1));
        sampler.stop();
        QVERIFY(!sampler.isRunning());
        QCOMPARE(int(collector.snapshots().size()), 1);
    }

    void noticesAreDeliveredOnce() {
        ScopedEnv env;
        useLibrary(env, FAKE_NVML_PATH);
        env.set("FAKE_NVML_LOST_AFTER", "1");
        Collector collector;
        MonitorOptions options;
        options.intervalSeconds = 0.02;
        MonitorSampler sampler(options, collector.callback());
        sampler.start();
        QVERIFY(collector.waitFor(5));
        sampler.stop();
        int notices = 0;
        for (const MonitorSnapshot& s : collector.snapshots()) {
            notices += int(s.notices.size());
            QCOMPARE(int(s.gpus.size()), 2);
            QVERIFY(!s.gpus[0].lost);
        }
        QCOMPARE(notices, 1);
        auto snapshots = collector.snapshots();
        QVERIFY(snapshots[0].notices.empty());
        QVERIFY(snapshots[1].gpus[1].lost);
        auto events = snapshotEvents(snapshots[1]);
        QCOMPARE(int(events.size()),
                 2); // the notice as a log event, then the gpu event; no processes watched
        QCOMPARE(QString::fromStdString(events[0]["event"].get<std::string>()), QStringLiteral("log"));
        QVERIFY(events[1]["gpus"][1]["lost"].get<bool>());
    }

    void noDriverNoticeOnceAndProcessesStillSampled() {
        ScopedEnv env;
        env.set(kNvmlLibraryEnv, "/nonexistent/libnvidia-ml.so.1");
        Collector collector;
        MonitorOptions options;
        options.intervalSeconds = 0.02;
        MonitorSampler sampler(options, collector.callback());
        sampler.setProcesses({{ddpdesk::os::currentPid(), 5}});
        sampler.start();
        QVERIFY(collector.waitFor(3));
        sampler.stop();
        auto snapshots = collector.snapshots();
        QCOMPARE(int(snapshots[0].notices.size()), 1);
        QVERIFY2(contains(snapshots[0].notices[0], "NVML not available"), snapshots[0].notices[0].c_str());
        QVERIFY(contains(snapshots[0].notices[0], "/nonexistent/libnvidia-ml.so.1"));
        for (size_t i = 0; i < snapshots.size(); ++i) {
            QVERIFY(!snapshots[i].nvml.available);
            QVERIFY(snapshots[i].gpus.empty());
            QCOMPARE(snapshots[i].processes[0].rank, 5);
            if (i > 0) QVERIFY(snapshots[i].notices.empty());
        }
        auto events = snapshotEvents(snapshots[1]);
        QCOMPARE(int(events.size()), 1); // just the proc event: no gpu event without GPUs
        QCOMPARE(QString::fromStdString(events[0]["event"].get<std::string>()), QStringLiteral("proc"));
    }

    void gpuSamplingOffNeverLoadsNvml() {
        ScopedEnv env;
        useLibrary(env, FAKE_NVML_PATH);
        FakeNvmlControl fake(FAKE_NVML_PATH);
        const int inits = fake.inits();
        Collector collector;
        MonitorOptions options;
        options.intervalSeconds = 0.02;
        options.sampleGpus = false;
        MonitorSampler sampler(options, collector.callback());
        sampler.start();
        QVERIFY(collector.waitFor(2));
        sampler.stop();
        QCOMPARE(fake.inits(), inits);
        for (const MonitorSnapshot& s : collector.snapshots()) {
            QVERIFY(s.gpus.empty());
            QVERIFY(s.notices.empty());
        }
    }

    void callbackMayThrowOrStopTheSampler() {
        ScopedEnv env;
        env.set(kNvmlLibraryEnv, "/nonexistent/libnvidia-ml.so.1");
        std::mutex mutex;
        std::condition_variable changed;
        int calls = 0;
        MonitorOptions options;
        options.intervalSeconds = 0.02;
        MonitorSampler* self = nullptr;
        MonitorSampler sampler(options, [&](const MonitorSnapshot&) {
            std::lock_guard<std::mutex> lock(mutex);
            ++calls;
            changed.notify_all();
            if (calls == 3) self->stop(); // from the sampler thread: must not deadlock
            if (calls < 3) throw std::runtime_error("callback failure must not end sampling");
        });
        self = &sampler;
        sampler.start();
        {
            std::unique_lock<std::mutex> lock(mutex);
            QVERIFY(changed.wait_for(lock, std::chrono::seconds(15), [&] { return calls >= 3; }));
        }
        QTRY_VERIFY_WITH_TIMEOUT(!sampler.isRunning(), 10000);
        QTest::qWait(100);
        std::lock_guard<std::mutex> lock(mutex);
        QCOMPARE(calls, 3);
    }

    void stopGivesUpOnAHungDriverCall() {
        // The fake's second utilization read blocks until released: stop() must return within its timeout,
        // say so, and the late sample must never reach the callback.
        ScopedEnv env;
        useLibrary(env, FAKE_NVML_PATH);
        env.set("FAKE_NVML_HANG_AFTER", "1");
        FakeNvmlControl fake(FAKE_NVML_PATH);
        Collector collector;
        MonitorOptions options;
        options.intervalSeconds = 0.01;
        MonitorSampler sampler(options, collector.callback());
        sampler.start();
        QVERIFY(collector.waitFor(1));
        QTRY_VERIFY2_WITH_TIMEOUT(fake.hanging() == 1, "the second sample never reached the hanging call",
                                  10000);
        QVERIFY(!sampler.stop(0.2));
        fake.releaseHang();
        QTRY_VERIFY_WITH_TIMEOUT(!sampler.isRunning(), 15000); // the detached thread ends by itself
        QCOMPARE(int(collector.snapshots().size()), 1);
        QVERIFY(sampler.stop()); // nothing left to wait for
    }

    void invalidIntervalIsRejected() {
        for (double bad : {0.0, -1.0, 0.001, 7200.0, std::numeric_limits<double>::quiet_NaN()}) {
            MonitorOptions options;
            options.intervalSeconds = bad;
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, MonitorSampler(options, nullptr));
        }
    }
};

QTEST_GUILESS_MAIN(TestMonitorSampler)
#include "test_monitor_sampler.moc"
