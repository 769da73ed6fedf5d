// GpuReader over the fake NVML, through the real loading path: every metric, per-metric NOT_SUPPORTED
// probing, a GPU lost mid-run, the old-driver symbol set, and the events/table made from the samples.

#include "fake_nvml_control.h"
#include "monitor/gpu_reader.h"
#include "monitor/gpu_table.h"
#include "monitor/monitor_events.h"
#include "os/process.h"
#include "protocol/telemetry.h"

#include <QtTest>

#include <sstream>

using namespace ddpdesk;
using namespace ddpdesk::monitor;
using namespace ddpdesk::monitor::test;

namespace {
constexpr std::uint64_t GiB = 1024ULL * 1024 * 1024;
}

class TestGpuReader : public QObject {
    Q_OBJECT
private slots:
    void readsEveryMetric() {
        ScopedEnv env;
        useLibrary(env, FAKE_NVML_PATH);
        env.set("FAKE_NVML_PROCESSES", "0:4242:1073741824,0:4343:na,1:5151:2147483648");
        GpuReader reader;
        QVERIFY2(reader.status().available, reader.status().reason.c_str());
        QCOMPARE(reader.deviceCount(), 2);
        std::vector<GpuSample> s = reader.sample();
        QCOMPARE(int(s.size()), 2);

        const GpuSample& g0 = s[0];
        QCOMPARE(g0.index, 0);
        QVERIFY(!g0.lost);
        QCOMPARE(QString::fromStdString(g0.name), QStringLiteral("DDP Desk Fake GPU 0"));
        QCOMPARE(QString::fromStdString(g0.uuid), QStringLiteral("GPU-fa4e0000-0000-4000-8000-000000000000"));
        QCOMPARE(QString::fromStdString(g0.pciBusId), QStringLiteral("00000000:3B:00.0"));
        QCOMPARE(g0.gpuUtilPercent.value_or(999), 37u);
        QCOMPARE(g0.memUtilPercent.value_or(999), 12u);
        QCOMPARE(g0.memTotalBytes.value_or(0), 80 * GiB);
        QCOMPARE(g0.memUsedBytes.value_or(0), 5 * GiB);
        QCOMPARE(g0.temperatureC.value_or(0), 41u);
        QCOMPARE(g0.powerDrawW.value_or(0), 123.456);
        QCOMPARE(g0.powerLimitW.value_or(0), 400.0);
        QCOMPARE(g0.smClockMHz.value_or(0), 1410u);
        QCOMPARE(g0.memClockMHz.value_or(0), 1593u);
        QCOMPARE(g0.fanPercent.value_or(999), 30u);
        QCOMPARE(g0.pcieTxBytesPerSecond.value_or(0), 1000.0 * 1024);
        QCOMPARE(g0.pcieRxBytesPerSecond.value_or(0), 2000.0 * 1024);
        QVERIFY(g0.processes.has_value());
        QCOMPARE(int(g0.processes->size()), 2);
        QCOMPARE((*g0.processes)[0].pid, 4242u);
        QCOMPARE((*g0.processes)[0].usedMemoryBytes.value_or(0), GiB);
        QCOMPARE((*g0.processes)[1].pid, 4343u);
        QVERIFY(!(*g0.processes)[1].usedMemoryBytes.has_value()); // NVML_VALUE_NOT_AVAILABLE
        QVERIFY(g0.t > 1.6e9);

        const GpuSample& g1 = s[1];
        QCOMPARE(QString::fromStdString(g1.pciBusId), QStringLiteral("00000000:86:00.0"));
        QCOMPARE(g1.gpuUtilPercent.value_or(0), 88u);
        QVERIFY(!g1.fanPercent.has_value()); // NOT_SUPPORTED on this device only
        QCOMPARE(int(g1.processes->size()), 1);
        QCOMPARE((*g1.processes)[0].usedMemoryBytes.value_or(0), 2 * GiB);
        QVERIFY(reader.takeNotices().empty());
    }

    void unsupportedMetricIsProbedOnce() {
        ScopedEnv env;
        useLibrary(env, FAKE_NVML_PATH);
        FakeNvmlControl fake(FAKE_NVML_PATH);
        GpuReader reader;
        for (int i = 0; i < 4; ++i) {
            auto s = reader.sample();
            QVERIFY(!s[1].fanPercent.has_value());
            QCOMPARE(s[0].fanPercent.value_or(0), 30u);
        }
        QCOMPARE(fake.calls("nvmlDeviceGetFanSpeed", 1), 1);
        QCOMPARE(fake.calls("nvmlDeviceGetFanSpeed", 0), 4);
        QCOMPARE(fake.calls("nvmlDeviceGetUtilizationRates", 1), 4);
    }

    void gpuLostMidRunIsReportedOnceAndOthersContinue() {
        ScopedEnv env;
        useLibrary(env, FAKE_NVML_PATH);
        env.set("FAKE_NVML_LOST_AFTER", "2");
        FakeNvmlControl fake(FAKE_NVML_PATH);
        GpuReader reader;
        for (int i = 0; i < 2; ++i) {
            auto s = reader.sample();
            QVERIFY(!s[1].lost);
            QCOMPARE(s[1].gpuUtilPercent.value_or(0), 88u);
            QVERIFY(reader.takeNotices().empty());
        }
        auto s = reader.sample(); // the third utilization read of GPU 1 finds it gone
        QVERIFY(s[1].lost);
        QVERIFY(!s[1].gpuUtilPercent.has_value());
        QVERIFY(!s[1].memUsedBytes.has_value());
        QCOMPARE(QString::fromStdString(s[1].name), QStringLiteral("DDP Desk Fake GPU 1")); // identity stays
        QVERIFY(!s[0].lost);
        QCOMPARE(s[0].gpuUtilPercent.value_or(0), 37u);
        auto notices = reader.takeNotices();
        QCOMPARE(int(notices.size()), 1);
        QVERIFY2(
            contains(notices[0],
                     "GPU 1 (DDP Desk Fake GPU 1, 00000000:86:00.0) was lost: GPU is lost (NVML error 15)"),
            notices[0].c_str());
        const int utilCallsWhenLost = fake.calls("nvmlDeviceGetUtilizationRates", 1);
        const int memCallsWhenLost = fake.calls("nvmlDeviceGetMemoryInfo", 1);

        for (int i = 0; i < 3; ++i) {
            auto later = reader.sample();
            QCOMPARE(int(later.size()), 2);
            QVERIFY(later[1].lost);
            QVERIFY(!later[0].lost);
            QCOMPARE(later[0].temperatureC.value_or(0), 41u);
        }
        QVERIFY(reader.takeNotices().empty());                                       // reported once
        QCOMPARE(fake.calls("nvmlDeviceGetUtilizationRates", 1), utilCallsWhenLost); // never asked again
        QCOMPARE(fake.calls("nvmlDeviceGetMemoryInfo", 1), memCallsWhenLost);
        QCOMPARE(fake.calls("nvmlDeviceGetUtilizationRates", 0), 6); // 2 + 1 + 3 samples
    }

    void oldDriverWithoutOptionalSymbols() {
        ScopedEnv env;
        useLibrary(env, FAKE_NVML_MINIMAL_PATH);
        env.set("FAKE_NVML_PROCESSES", "1:777:3221225472,1:778:1024");
        GpuReader reader;
        QVERIFY2(reader.status().available, reader.status().reason.c_str());
        auto s = reader.sample();
        QCOMPARE(int(s.size()), 2);
        QCOMPARE(QString::fromStdString(s[1].name), QStringLiteral("DDP Desk Fake GPU 1"));
        QVERIFY(s[1].uuid.empty());
        QVERIFY(s[1].pciBusId.empty());
        QCOMPARE(s[1].memUsedBytes.value_or(0), 70 * GiB);
        QVERIFY(!s[1].gpuUtilPercent.has_value());
        QVERIFY(!s[1].temperatureC.has_value());
        QVERIFY(!s[1].powerDrawW.has_value());
        QVERIFY(!s[1].pcieTxBytesPerSecond.has_value());
        // The plain process query fills the short v1 records: reading them as v2 would garble the second
        // entry.
        QVERIFY(s[1].processes.has_value());
        QCOMPARE(int(s[1].processes->size()), 2);
        QCOMPARE((*s[1].processes)[0].pid, 777u);
        QCOMPARE((*s[1].processes)[0].usedMemoryBytes.value_or(0), 3 * GiB);
        QCOMPARE((*s[1].processes)[1].pid, 778u);
        QCOMPARE((*s[1].processes)[1].usedMemoryBytes.value_or(0), 1024ULL);
        QVERIFY(s[0].processes.has_value() && s[0].processes->empty());
    }

    void eventsCarryEveryFieldAndMapPidsToGpus() {
        ScopedEnv env;
        useLibrary(env, FAKE_NVML_PATH);
        const std::int64_t self = ddpdesk::os::currentPid();
        env.set("FAKE_NVML_PROCESSES", QByteArray("1:") + QByteArray::number(qint64(self)) + ":2147483648");
        GpuReader reader;
        auto gpus = reader.sample();
        ProcessSampler sampler;
        auto processes = sampler.sample({{self, 3}});

        auto gpuLine = protocol::encodeLine(gpuEvent(gpus, reader.status(), 1700000000.5));
        auto parsed = protocol::parseLine(gpuLine);
        QVERIFY(parsed.has_value());
        QCOMPARE(QString::fromStdString(parsed->type), QStringLiteral("gpu"));
        QCOMPARE(parsed->rank, -1);
        QCOMPARE(parsed->t, 1700000000.5);
        const nlohmann::json& body = parsed->body;
        QCOMPARE(QString::fromStdString(body["driver"].get<std::string>()), QStringLiteral("999.99.fake"));
        QCOMPARE(int(body["gpus"].size()), 2);
        const nlohmann::json& g0 = body["gpus"][0];
        QCOMPARE(g0["index"].get<int>(), 0);
        QCOMPARE(QString::fromStdString(g0["uuid"].get<std::string>()),
                 QStringLiteral("GPU-fa4e0000-0000-4000-8000-000000000000"));
        QCOMPARE(g0["gpu_util_percent"].get<int>(), 37);
        QCOMPARE(g0["mem_util_percent"].get<int>(), 12);
        QCOMPARE(g0["mem_used_bytes"].get<std::uint64_t>(), 5 * GiB);
        QCOMPARE(g0["mem_total_bytes"].get<std::uint64_t>(), 80 * GiB);
        QCOMPARE(g0["temperature_c"].get<int>(), 41);
        QCOMPARE(g0["power_w"].get<double>(), 123.456);
        QCOMPARE(g0["power_limit_w"].get<double>(), 400.0);
        QCOMPARE(g0["sm_clock_mhz"].get<int>(), 1410);
        QCOMPARE(g0["mem_clock_mhz"].get<int>(), 1593);
        QCOMPARE(g0["fan_percent"].get<int>(), 30);
        QCOMPARE(g0["pcie_tx_bytes_per_s"].get<double>(), 1024000.0);
        QCOMPARE(g0["pcie_rx_bytes_per_s"].get<double>(), 2048000.0);
        QCOMPARE(g0["lost"].get<bool>(), false);
        QVERIFY(g0["processes"].is_array() && g0["processes"].empty());
        QVERIFY(body["gpus"][1]["fan_percent"].is_null()); // not supported: null, never a made-up 0
        QCOMPARE(body["gpus"][1]["processes"][0]["pid"].get<std::int64_t>(), self);

        auto proc = protocol::parseLine(protocol::encodeLine(procEvent(processes, gpus, 1700000000.5)));
        QVERIFY(proc.has_value());
        QCOMPARE(QString::fromStdString(proc->type), QStringLiteral("proc"));
        const nlohmann::json& p = proc->body["processes"][0];
        QCOMPARE(p["pid"].get<std::int64_t>(), self);
        QCOMPARE(p["rank"].get<int>(), 3);
        QVERIFY(p["alive"].get<bool>());
        QVERIFY(p["cpu_percent"].is_null()); // first sample: no interval yet
        QVERIFY(p["rss_bytes"].get<std::uint64_t>() > 0);
        QVERIFY(p["threads"].get<int>() >= 1);
        QCOMPARE(int(p["gpus"].size()), 1);
        QCOMPARE(p["gpus"][0]["index"].get<int>(), 1);
        QCOMPARE(p["gpus"][0]["used_mem_bytes"].get<std::uint64_t>(), 2 * GiB);

        auto log = protocol::parseLine(protocol::encodeLine(noticeEvent("GPU 1 was lost", 5.0)));
        QVERIFY(log.has_value());
        QCOMPARE(QString::fromStdString(log->type), QStringLiteral("log"));
        QCOMPARE(QString::fromStdString(log->body["source"].get<std::string>()), QStringLiteral("monitor"));
        QCOMPARE(QString::fromStdString(log->body["text"].get<std::string>()),
                 QStringLiteral("GPU 1 was lost"));
    }

    void tableShowsValuesNotAvailableAndLost() {
        ScopedEnv env;
        useLibrary(env, FAKE_NVML_PATH);
        env.set("FAKE_NVML_LOST_AFTER", "1").set("FAKE_NVML_PROCESSES", "0:4242:1073741824");
        GpuReader reader;
        auto first = reader.sample();
        std::string table = formatGpuTable(reader.status(), first, first[0].t);
        for (const char* expected :
             {"NVML driver 999.99.fake", "2 GPU(s)", "DDP Desk Fake GPU 0", "00000000:86:00.0", "37% / 12%",
              "41C / 30%", "5.00 / 80.0 GiB", "123W / 400W", "1410 / 1593 MHz", "0.98 / 1.95 MiB/s",
              "GPU 0  PID 4242  1.00 GiB"})
            QVERIFY2(contains(table, expected), (std::string(expected) + " missing in\n" + table).c_str());
        // GPU 1 has no fan: its first line says N/A in that column.
        std::string row1 = table.substr(table.rfind('\n', table.find("DDP Desk Fake GPU 1")) + 1);
        row1 = row1.substr(0, row1.find('\n'));
        QVERIFY2(contains(row1, "67C / N/A"), row1.c_str());

        auto second = reader.sample();
        std::string lostTable = formatGpuTable(reader.status(), second, second[0].t);
        QVERIFY2(contains(lostTable, "GPU lost"), lostTable.c_str());
        // Every line of the table has the same width, lost row included.
        std::istringstream lines(lostTable);
        size_t width = 0;
        for (std::string line; std::getline(lines, line);) {
            if (line.empty() || (line[0] != '|' && line[0] != '+')) continue;
            if (width == 0) width = line.size();
            QCOMPARE(line.size(), width);
        }
        QVERIFY(width > 0);

        NvmlStatus none;
        none.reason = "no NVIDIA driver found";
        std::string noDriver = formatGpuTable(none, {}, 0);
        QVERIFY(contains(noDriver, "NVML could not be loaded"));
        QVERIFY(contains(noDriver, "no NVIDIA driver found"));
    }
};

QTEST_GUILESS_MAIN(TestGpuReader)
#include "test_gpu_reader.moc"
