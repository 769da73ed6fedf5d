// The Run page's monitor charts follow the run, not the machine (issue 40): a CPU-worker run on a GPU machine
// shows each worker's CPU and memory, not the idle GPU; a GPU run shows the GPUs it uses and each rank's own
// GPU memory; what cannot be measured says n/a and why, never 0. The samples are core/monitor's own events,
// fed to the model the way the launcher feeds them.

#include "launch/model/run_model.h"
#include "monitor/monitor_events.h"
#include "protocol/telemetry.h"
#include "run_panel.h"
#include "ui_test_util.h"

#include <QChart>
#include <QChartView>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLineSeries>
#include <QTabWidget>
#include <QtTest>

using namespace ddpdesk;
using namespace ddpdesk::ui;

namespace {

constexpr std::uint64_t kMiB = 1024 * 1024;

monitor::GpuSample gpu(int index, unsigned util, std::uint64_t usedMiB,
                       std::vector<monitor::GpuProcess> procs) {
    monitor::GpuSample g;
    g.index = index;
    g.name = "NVIDIA H200";
    g.gpuUtilPercent = util;
    g.memUsedBytes = usedMiB * kMiB;
    g.memTotalBytes = 143771 * kMiB;
    g.processes = std::move(procs);
    return g;
}

monitor::ProcessSample worker(std::int64_t pid, int rank, double cpu, std::uint64_t rssMiB) {
    monitor::ProcessSample p;
    p.pid = pid;
    p.rank = rank;
    p.alive = true;
    p.cpuPercent = cpu;
    p.residentBytes = rssMiB * kMiB;
    p.threads = 4;
    return p;
}

// One snapshot, as MonitorFeed hands it to the model.
void sample(launch::RunModel& model, const std::vector<monitor::GpuSample>& gpus,
            const std::vector<monitor::ProcessSample>& procs) {
    monitor::MonitorSnapshot s;
    s.t = protocol::nowSeconds();
    s.gpus = gpus;
    s.processes = procs;
    for (const nlohmann::json& e : monitor::snapshotEvents(s))
        model.applyMonitorEvent(e);
}

struct ChartView {
    QString title;
    QStringList series; // names of the series with points
    QStringList texts;  // every visible text on it (title, labels, notes)
};

QVector<ChartView> charts(RunPanel& run) {
    QVector<ChartView> out;
    for (QChartView* v : run.tabs()->widget(0)->findChildren<QChartView*>()) {
        ChartView c;
        c.title = v->chart()->title();
        for (QAbstractSeries* s : v->chart()->series())
            if (auto* line = qobject_cast<QLineSeries*>(s); line && line->count() > 0) c.series << s->name();
        for (QGraphicsItem* item : v->scene()->items()) {
            if (!item->isVisible()) continue;
            if (auto* t = dynamic_cast<QGraphicsTextItem*>(item)) c.texts << t->toPlainText();
            if (auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(item)) c.texts << t->text();
        }
        c.series.sort();
        out << c;
    }
    return out;
}

ChartView chartTitled(RunPanel& run, const QString& start) {
    for (const ChartView& c : charts(run))
        if (c.title.startsWith(start)) return c;
    return {};
}

QString describe(RunPanel& run) {
    QStringList out;
    for (const ChartView& c : charts(run))
        out << QStringLiteral("[%1: %2 | %3]")
                   .arg(c.title, c.series.join(QLatin1Char(',')), c.texts.join(QLatin1Char(',')));
    return out.join(QLatin1Char(' '));
}

} // namespace

class TestRunMonitor : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { test::isolateSettings(m_dir); }

    // The H200 picture: CPU workers, one idle GPU in the machine. The charts are the workers'.
    void cpuRunOnAGpuMachineShowsTheWorkers() {
        launch::RunModel model;
        model.reset({0, 1}, 2, QStringLiteral("autoencoder"), 100);
        model.setPid(0, 4101);
        model.setPid(1, 4102);
        RunPanel run;
        run.resize(1200, 800);
        run.show();
        run.watch(&model);
        for (int i = 0; i < 3; ++i)
            sample(model, {gpu(0, 0, 615, {})},
                   {worker(4101, 0, 95.0 + i, 310 + i), worker(4102, 1, 97.0 - i, 320 + i)});
        run.refreshNow();
        const QString all = describe(run);
        QVERIFY2(chartTitled(run, QStringLiteral("GPU")).title.isEmpty(), qPrintable(all));
        const ChartView cpu = chartTitled(run, QStringLiteral("CPU"));
        QCOMPARE(cpu.series, QStringList({QStringLiteral("rank 0"), QStringLiteral("rank 1")}));
        const ChartView mem = chartTitled(run, QStringLiteral("Memory"));
        QCOMPARE(mem.series, QStringList({QStringLiteral("rank 0"), QStringLiteral("rank 1")}));
    }

    // A GPU run on GPU 1 of two: GPU 1's utilization and memory, and each rank's own GPU memory; the other
    // job's GPU 0 is not this run's.
    void gpuRunShowsItsGpusAndEachRanksMemory() {
        launch::RunModel model;
        model.reset({0, 1}, 2, QStringLiteral("fashion-mnist"), 100);
        model.setPid(0, 5101);
        model.setPid(1, 5102);
        RunPanel run;
        run.resize(1200, 800);
        run.show();
        run.watch(&model);
        for (int i = 0; i < 3; ++i)
            sample(model,
                   {gpu(0, 40, 9000, {{777, 8000 * kMiB}}),
                    gpu(1, 80 + i, 2600, {{5101, 996 * kMiB}, {5102, 1002 * kMiB}})},
                   {worker(5101, 0, 101.0, 900), worker(5102, 1, 99.0, 910)});
        run.refreshNow();
        const QString all = describe(run);
        const ChartView util = chartTitled(run, QStringLiteral("GPU utilization"));
        QVERIFY2(util.series == QStringList({QStringLiteral("GPU 1")}), qPrintable(all));
        const ChartView mem = chartTitled(run, QStringLiteral("GPU memory"));
        QVERIFY2(mem.series == QStringList({QStringLiteral("GPU 1"), QStringLiteral("rank 0"),
                                            QStringLiteral("rank 1")}),
                 qPrintable(all));
    }

    // Windows (WDDM) lists a rank's process on its GPU but attributes no memory to it: the rank's GPU memory
    // says n/a and why, it is never drawn as 0.
    void unattributedGpuMemorySaysWhy() {
        launch::RunModel model;
        model.reset({0}, 1, QStringLiteral("fashion-mnist"), 100);
        model.setPid(0, 6101);
        RunPanel run;
        run.resize(1200, 800);
        run.show();
        run.watch(&model);
        monitor::GpuProcess p;
        p.pid = 6101; // usedMemoryBytes unknown
        for (int i = 0; i < 2; ++i)
            sample(model, {gpu(0, 70, 2000, {p})}, {worker(6101, 0, 100.0, 800)});
        run.refreshNow();
        const QString all = describe(run);
        const ChartView mem = chartTitled(run, QStringLiteral("GPU memory"));
        QVERIFY2(mem.series == QStringList({QStringLiteral("GPU 0")}), qPrintable(all));
        QVERIFY2(mem.texts.join(QLatin1Char(' ')).contains(QLatin1String("n/a")), qPrintable(all));
    }
};

QTEST_MAIN(TestRunMonitor)
#include "test_run_monitor.moc"
