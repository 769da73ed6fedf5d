// The NVML loading path against real shared libraries: no library, the fake driver (full and minimal symbol
// sets), a driver that is installed but not loaded, and a library that is not NVML at all.

#include "fake_nvml_control.h"
#include "monitor/gpu_reader.h"
#include "monitor/nvml_library.h"
#include "monitor/nvml_status.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace ddpdesk::monitor;
using namespace ddpdesk::monitor::test;

class TestNvmlLoader : public QObject {
    Q_OBJECT
private slots:
    void dynamicLibraryOwnsItsHandle() {
        DynamicLibrary lib;
        std::string error;
        QVERIFY(!lib.open("/nonexistent/dir/libnothing-here.so", &error));
        QVERIFY(!lib.isOpen());
        QVERIFY2(!error.empty(), "a failed open must say why");
        QVERIFY(lib.symbol("nvmlInit_v2") == nullptr);

        QVERIFY2(lib.open(FAKE_NVML_PATH, &error), error.c_str());
        QVERIFY(lib.symbol("nvmlInit_v2") != nullptr);
        QVERIFY(lib.symbol("noSuchSymbolAnywhere") == nullptr);
        DynamicLibrary moved(std::move(lib));
        QVERIFY(!lib.isOpen());
        QVERIFY(moved.isOpen());
        QCOMPARE(QString::fromStdString(moved.path()), QStringLiteral(FAKE_NVML_PATH));
        moved.close();
        QVERIFY(!moved.isOpen());
        QVERIFY(moved.symbol("nvmlInit_v2") == nullptr);
    }

    void noLibraryIsANormalState() {
        QTemporaryDir dir;
        const QByteArray missing = (dir.path() + "/libnvidia-ml.so.1").toUtf8();
        ScopedEnv env;
        env.set(kNvmlLibraryEnv, missing);
        NvmlStatus status = probeNvml();
        QVERIFY(!status.available);
        QCOMPARE(status.deviceCount, 0);
        QVERIFY2(contains(status.reason, "could not load NVML from DDPDESK_NVML_LIBRARY"),
                 status.reason.c_str());
        QVERIFY2(contains(status.reason, missing.toStdString()), status.reason.c_str());

        GpuReader reader;
        QVERIFY(!reader.status().available);
        QCOMPARE(reader.deviceCount(), 0);
        QVERIFY(reader.sample().empty());
        QVERIFY(reader.takeNotices().empty());
    }

    void defaultSearchOnThisMachine() {
        // The real driver search: on a machine without NVIDIA's driver it must fail politely, naming the
        // library.
        ScopedEnv env;
        env.unset(kNvmlLibraryEnv);
        NvmlStatus status = probeNvml();
        if (status.available) {
            QVERIFY(status.deviceCount >= 0);
            QVERIFY(!status.driverVersion.empty());
            qInfo("real NVML: driver %s, %d GPU(s)", status.driverVersion.c_str(), status.deviceCount);
        } else {
            QVERIFY2(contains(status.reason, "no NVIDIA driver found") || contains(status.reason, "failed"),
                     status.reason.c_str());
            qInfo("no NVML here: %s", status.reason.c_str());
        }
    }

    void fakeDriverPrefersVersionedSymbols() {
        ScopedEnv env;
        useLibrary(env, FAKE_NVML_PATH);
        FakeNvmlControl fake(FAKE_NVML_PATH);
        const int inits = fake.inits(), shutdowns = fake.shutdowns();
        {
            NvmlLibrary nvml;
            // The fake's plain nvmlInit fails and its plain nvmlDeviceGetCount says 1: only the _v2 path
            // gives this.
            QVERIFY2(nvml.available(), nvml.status().reason.c_str());
            QCOMPARE(nvml.status().deviceCount, 2);
            QCOMPARE(QString::fromStdString(nvml.status().driverVersion), QStringLiteral("999.99.fake"));
            QVERIFY(nvml.status().reason.empty());
            for (const char* name : {"nvmlInit_v2", "nvmlDeviceGetCount_v2", "nvmlDeviceGetHandleByIndex_v2",
                                     "nvmlDeviceGetComputeRunningProcesses_v3", "nvmlDeviceGetPciInfo_v3"})
                QVERIFY2(containsName(nvml.resolvedSymbols(), name), name);
            const auto& resolved = nvml.resolvedSymbols();
            QVERIFY(std::find(resolved.begin(), resolved.end(), "nvmlInit") == resolved.end());
            QVERIFY(std::find(resolved.begin(), resolved.end(), "nvmlDeviceGetCount") == resolved.end());
            QVERIFY(nvml.missingOptionalSymbols().empty());
            QVERIFY(nvml.fn().deviceGetProcessesV2 != nullptr);
            QVERIFY(nvml.fn().deviceGetProcessesV1 == nullptr);
            QCOMPARE(QString::fromStdString(nvml.errorText(15)),
                     QStringLiteral("GPU is lost (NVML error 15)"));
            QCOMPARE(fake.inits(), inits + 1);
            QCOMPARE(fake.shutdowns(), shutdowns);
        }
        QCOMPARE(fake.shutdowns(), shutdowns + 1); // nvmlShutdown when the library object goes away

        NvmlStatus status = probeNvml();
        QVERIFY(status.available);
        QCOMPARE(status.deviceCount, 2);
        QCOMPARE(fake.shutdowns(), shutdowns + 2);
    }

    void driverNotLoaded() {
        ScopedEnv env;
        useLibrary(env, FAKE_NVML_PATH);
        env.set("FAKE_NVML_INIT_RESULT", "9");
        FakeNvmlControl fake(FAKE_NVML_PATH);
        const int shutdowns = fake.shutdowns();
        NvmlStatus status = probeNvml();
        QVERIFY(!status.available);
        QCOMPARE(status.deviceCount, 0);
        QVERIFY2(contains(status.reason, "nvmlInit_v2 failed: Driver Not Loaded (NVML error 9)"),
                 status.reason.c_str());
        QVERIFY2(contains(status.reason, "kernel driver is not running"), status.reason.c_str());
        QCOMPARE(fake.shutdowns(), shutdowns); // no shutdown for an init that failed
    }

    void minimalLibraryFallsBackAndReportsMissingOptionals() {
        ScopedEnv env;
        useLibrary(env, FAKE_NVML_MINIMAL_PATH);
        FakeNvmlControl fake(FAKE_NVML_MINIMAL_PATH);
        const int shutdowns = fake.shutdowns();
        {
            NvmlLibrary nvml;
            QVERIFY2(nvml.available(), nvml.status().reason.c_str());
            QCOMPARE(nvml.status().deviceCount, 2);
            QCOMPARE(QString::fromStdString(nvml.status().driverVersion), QStringLiteral("unknown"));
            const auto& resolved = nvml.resolvedSymbols();
            QVERIFY(std::find(resolved.begin(), resolved.end(), "nvmlInit") != resolved.end());
            QVERIFY(std::find(resolved.begin(), resolved.end(), "nvmlDeviceGetCount") != resolved.end());
            QVERIFY(std::find(resolved.begin(), resolved.end(), "nvmlDeviceGetComputeRunningProcesses") !=
                    resolved.end());
            QVERIFY(nvml.fn().deviceGetProcessesV1 != nullptr);
            QVERIFY(nvml.fn().deviceGetProcessesV2 == nullptr);
            for (const char* name :
                 {"nvmlErrorString", "nvmlSystemGetDriverVersion", "nvmlDeviceGetUUID",
                  "nvmlDeviceGetUtilizationRates", "nvmlDeviceGetFanSpeed", "nvmlDeviceGetPcieThroughput"})
                QVERIFY2(containsName(nvml.missingOptionalSymbols(), name), name);
            // Without nvmlErrorString the loader still words NVML's codes.
            QCOMPARE(QString::fromStdString(nvml.errorText(9)),
                     QStringLiteral("Driver Not Loaded (NVML error 9)"));
        }
        QCOMPARE(fake.shutdowns(), shutdowns + 1);
    }

    void libraryThatIsNotNvml() {
        ScopedEnv env;
        env.set(kNvmlLibraryEnv, NOT_NVML_PATH);
        NvmlLibrary nvml;
        QVERIFY(!nvml.available());
        const std::string& reason = nvml.status().reason;
        QVERIFY2(contains(reason, "is not a usable NVML library"), reason.c_str());
        QVERIFY2(contains(reason, "nvmlInit_v2, nvmlInit"), reason.c_str());
        QVERIFY2(contains(reason, "nvmlShutdown"), reason.c_str());
        QVERIFY(nvml.fn().init == nullptr); // nothing of the unloaded library stays reachable
        QVERIFY(nvml.libraryPath().empty());
    }
};

QTEST_GUILESS_MAIN(TestNvmlLoader)
#include "test_nvml_loader.moc"
