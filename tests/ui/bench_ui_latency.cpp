// Responsiveness benchmark (not a pass/fail test): feeds telemetry into a live Run page at a fixed event rate
// and measures what a user would feel on the UI thread:
//   - event-loop latency: how late a 5 ms precise timer fires (p50 / p99 / max);
//   - the worst single stall: the longest one event dispatch kept the UI thread away from the event loop, and
//   what
//     it was (event type and receiver), with the slowest event nested inside it (usually a paint).
//   bench_ui_latency [--rate 10000] [--ranks 8] [--nodes 1] [--seconds 10] [--load] [--prefill STEPS]
//     --nodes N       the ranks spread over N nodes: node 0 is this process, each other node a child process
//                     whose launcher side forwards its ranks' events over a real node link (bench_nodes.h);
//                     the process's CPU time is then node 0's launcher's
//     --load          a child process spins on another core for the whole run, so the figures are a loaded
//     machine's
//     --prefill STEPS feed STEPS steps per rank before measuring (a long run: full, downsampled series), and
//     report
//                     how long the finished-run view (History's "Show in Run page") takes to draw such a run
// Target: max latency under 50 ms at 10,000 events/s. The numbers are wall-clock: other processes add to
// them.

#include "bench_nodes.h"
#include "launch/model/run_model.h"
#include "protocol/telemetry.h"
#include "run_panel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QHash>
#include <QMetaEnum>
#include <QProcess>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <memory>
#include <vector>

using namespace ddpdesk;
using ddpdesk::bench::stepLine;

namespace {

// What one event dispatch was, captured before it runs (the receiver may be gone afterwards); formatted only
// for the report, so timing every event stays cheap.
struct Dispatch {
    QEvent::Type type = QEvent::None;
    const char* cls = "";
    const char* parentCls = nullptr; // a viewport or other anonymous child: the widget it belongs to
    QString name;

    QString text() const {
        const char* t = QMetaEnum::fromType<QEvent::Type>().valueToKey(type);
        QString who = QString::fromLatin1(cls);
        if (!name.isEmpty()) who += QStringLiteral(" '%1'").arg(name);
        if (parentCls) who += QStringLiteral(" in %1").arg(QString::fromLatin1(parentCls));
        return QStringLiteral("%1 -> %2").arg(t ? QString::fromLatin1(t) : QString::number(type), who);
    }
};

// Times every top-level event dispatch on the UI thread: that is a stall as the user sees it.
class TimedApp : public QApplication {
public:
    using QApplication::QApplication;

    bool notify(QObject* receiver, QEvent* e) override {
        if (!m_measuring || m_depth > 1) return QApplication::notify(receiver, e);
        const int depth = m_depth++;
        Dispatch d;
        d.type = e->type();
        d.cls = receiver->metaObject()->className();
        d.name = receiver->objectName();
        if (receiver->isWidgetType() && receiver->parent())
            d.parentCls = receiver->parent()->metaObject()->className();
        QElapsedTimer t;
        t.start();
        const std::clock_t c0 = depth == 0 ? std::clock() : 0;
        const bool r = QApplication::notify(receiver, e);
        const double ms = t.nsecsElapsed() / 1e6;
        // CPU time tells our own work from time the OS gave to other processes in the middle of it.
        const double cpuMs = depth == 0 ? 1000.0 * double(std::clock() - c0) / CLOCKS_PER_SEC : 0;
        --m_depth;
        if (depth == 0) {
            m_busyMs += ms;
            Cost& c = m_costs[d.text()];
            c.totalMs += ms;
            c.maxMs = std::max(c.maxMs, ms);
            c.maxCpuMs = std::max(c.maxCpuMs, cpuMs);
            ++c.count;
            if (cpuMs > m_worstCpuMs) {
                m_worstCpuMs = cpuMs;
                m_worstCpu = d;
            }
            if (ms > m_worstMs) {
                m_worstMs = ms;
                m_worstMsCpu = cpuMs;
                m_worst = d;
                m_worstInner = m_inner;
                m_worstInnerMs = m_innerMs;
            }
            m_innerMs = 0;
        } else if (ms > m_innerMs) {
            m_innerMs = ms;
            m_inner = d;
        }
        return r;
    }

    struct Cost {
        double totalMs = 0, maxMs = 0, maxCpuMs = 0;
        int count = 0;
    };
    bool m_measuring = false;
    QHash<QString, Cost> m_costs; // per kind of top-level dispatch: where the UI thread's time goes
    double m_busyMs = 0, m_worstMs = 0, m_worstMsCpu = 0, m_worstInnerMs = 0, m_worstCpuMs = 0;
    Dispatch m_worst, m_worstInner, m_worstCpu;

private:
    int m_depth = 0;
    double m_innerMs = 0;
    Dispatch m_inner;
};

// What core/monitor reports per worker process, twice a second (feeds the CPU and memory charts).
nlohmann::json procSample(int ranks, double t) {
    auto e = protocol::makeEvent(protocol::ev::Proc, -1);
    nlohmann::json procs = nlohmann::json::array();
    for (int r = 0; r < ranks; ++r)
        procs.push_back({{"pid", 1000 + r},
                         {"rank", r},
                         {"cpu_percent", 90 + 10 * std::sin(t + r)},
                         {"rss_bytes", (400.0 + 5 * r + t) * 1024 * 1024}});
    e["processes"] = procs;
    return e;
}

double percentile(const std::vector<double>& sorted, double q) {
    return sorted.empty() ? 0 : sorted[size_t(std::floor(q * double(sorted.size() - 1)))];
}

// --busy-child: spin until the parent ends us (or `seconds` pass, so it never outlives a crashed parent).
int busyChild(double seconds) {
    QElapsedTimer t;
    t.start();
    volatile double x = 0;
    while (t.elapsed() < seconds * 1000)
        for (int i = 0; i < 100000; ++i)
            x = x + std::sqrt(double(i));
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::string(argv[i]) == "--busy-child") return busyChild(std::atof(argv[i + 1]));
        if (std::string(argv[i]) == "--node-child") {
            QCoreApplication child(argc, argv);
            return bench::runNodeChild(child.arguments().mid(i + 1));
        }
    }

    TimedApp app(argc, argv);
    int rate = 10000, ranks = 8, nodes = 1;
    double seconds = 10;
    qint64 prefill = 0;
    bool load = false;
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        const bool hasValue = i + 1 < args.size();
        if (args[i] == QLatin1String("--load"))
            load = true;
        else if (args[i] == QLatin1String("--rate") && hasValue)
            rate = args[++i].toInt();
        else if (args[i] == QLatin1String("--ranks") && hasValue)
            ranks = args[++i].toInt();
        else if (args[i] == QLatin1String("--nodes") && hasValue)
            nodes = args[++i].toInt();
        else if (args[i] == QLatin1String("--seconds") && hasValue)
            seconds = args[++i].toDouble();
        else if (args[i] == QLatin1String("--prefill") && hasValue)
            prefill = args[++i].toLongLong();
        else {
            std::fprintf(
                stderr,
                "bench_ui_latency: unknown option '%s'; valid: --rate N --ranks N --nodes N --seconds S "
                "--prefill STEPS --load\n",
                qPrintable(args[i]));
            return 2;
        }
    }
    if (rate <= 0 || ranks <= 0 || seconds <= 0 || prefill < 0 || nodes <= 0 || ranks % nodes != 0 ||
        (nodes > 1 && prefill > 0)) {
        std::fprintf(stderr, "bench_ui_latency: --rate, --ranks, --nodes and --seconds must be positive, "
                             "--ranks a multiple of --nodes, --prefill >= 0 (and only with one node)\n");
        return 2;
    }
    const int perNode = ranks / nodes;

    QProcess busy;
    if (load) {
        busy.start(QCoreApplication::applicationFilePath(),
                   {QStringLiteral("--busy-child"), QString::number(seconds + 60)});
        if (!busy.waitForStarted(10000)) {
            std::fprintf(stderr, "bench_ui_latency: could not start the --load child: %s\n",
                         qPrintable(busy.errorString()));
            return 1;
        }
    }

    launch::RunModel model;
    QVector<int> global;
    for (int r = 0; r < ranks; ++r)
        global << r;
    const qint64 totalSteps = prefill + qint64(rate * seconds / ranks) + 1;
    model.reset(global, ranks, QStringLiteral("autoencoder"), totalSteps);
    QVector<qint64> step(ranks, 0);
    qint64 sent = 0;

    // A long run so far: every rank at `prefill` steps, series already full and thinned. Fed before the panel
    // watches, as History's replay does, so this also times RunModel alone.
    if (prefill > 0) {
        QElapsedTimer t;
        t.start();
        for (qint64 s = 1; s <= prefill; ++s)
            for (int r = 0; r < ranks; ++r) {
                model.applyLine(r, stepLine(r, ++step[r], sent++));
                if (s % 1000 == 0 && r == 0) model.applyMonitorEvent(procSample(ranks, double(s) / 1000));
            }
        std::printf(
            "prefill: %lld steps x %d ranks through RunModel in %.2f s (%.0f events/s incl. encoding)\n",
            (long long)prefill, ranks, t.elapsed() / 1000.0, sent / (t.elapsed() / 1000.0 + 1e-9));
        ui::RunPanel finished;
        finished.resize(1280, 800);
        finished.show();
        QElapsedTimer d;
        d.start();
        finished.showModel(&model, QStringLiteral("replay"));
        QCoreApplication::sendPostedEvents(); // deferred chart work (ranges, slices, scene updates)
        finished.repaint();                   // the first full paint of table and all four charts
        std::printf("finished-run view of %lld steps: first full draw %.1f ms (one stall, when it opens)\n",
                    (long long)prefill, d.nsecsElapsed() / 1e6);
    }

    ui::RunPanel panel;
    panel.resize(1280, 800);
    panel.show();
    panel.watch(&model);
    std::unique_ptr<bench::NodeHub> hub;
    if (nodes > 1) {
        model.setNodes(0, nodes, perNode, true, QStringLiteral("bench-node0"));
        hub = std::make_unique<bench::NodeHub>(panel, model, nodes, perNode);
        QString why;
        if (!hub->start(QCoreApplication::applicationFilePath(), rate, seconds + 0.5, &why)) {
            std::fprintf(stderr, "bench_ui_latency: %s\n", qPrintable(why));
            return 1;
        }
    }
    const std::clock_t cpu0 = std::clock();

    QElapsedTimer clock;
    clock.start();
    QTimer feeder;
    feeder.setObjectName(QStringLiteral("bench feeder"));
    feeder.setInterval(10); // 100 batches per second, as pipe reads arrive
    double nextSample = 0;
    QObject::connect(&feeder, &QTimer::timeout, [&] {
        // With nodes, this node's share of the rate for its own ranks; the children send the rest.
        const qint64 due = prefill * ranks + qint64(clock.elapsed() / 1000.0 * rate / nodes);
        while (sent < due) {
            const int r = int((sent - prefill * ranks) % perNode);
            model.applyLine(r, stepLine(r, ++step[r], sent));
            if (step[r] % 50 == 0) model.applyLine(r, QByteArray("plain log text from the rank"));
            ++sent;
        }
        if (clock.elapsed() / 1000.0 >= nextSample) {
            nextSample += 0.5;
            model.applyMonitorEvent(procSample(perNode, clock.elapsed() / 1000.0));
        }
    });

    std::vector<double> lateMs;
    QElapsedTimer tick;
    QTimer probe;
    probe.setObjectName(QStringLiteral("bench probe"));
    probe.setInterval(5);
    probe.setTimerType(Qt::PreciseTimer);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        // The first second (window shown, first layout, fonts loaded) is start-up, not steady-state latency.
        if (tick.isValid() && clock.elapsed() > 1000) {
            app.m_measuring = true;
            lateMs.push_back(std::max(0.0, tick.nsecsElapsed() / 1e6 - 5.0));
        }
        tick.restart();
    });

    feeder.start();
    probe.start();
    QTimer::singleShot(int(seconds * 1000), &app, &QApplication::quit);
    app.exec();
    const double cpuS = double(std::clock() - cpu0) / CLOCKS_PER_SEC, wallS = clock.elapsed() / 1000.0;
    const double measuredS = clock.elapsed() / 1000.0 - 1.0;
    if (load) {
        busy.kill();
        busy.waitForFinished(5000);
    }

    std::sort(lateMs.begin(), lateMs.end());
    const double mx = lateMs.empty() ? 0 : lateMs.back();
    const qint64 live = sent - prefill * ranks + (hub ? hub->remoteEvents() : 0);
    if (hub)
        std::printf("nodes: %d (%d of %d others connected), %d ranks each; %lld events of other nodes' ranks "
                    "applied\n",
                    nodes, hub->connectedNodes(), nodes - 1, perNode, (long long)hub->remoteEvents());
    std::printf("this process (node 0's launcher and its Run page): %.2f CPU s in %.1f s wall = %.2f cores\n",
                cpuS, wallS, cpuS / wallS);
    std::printf(
        "bench_ui_latency%s: %lld events in %.1f s (%.0f events/s, %d ranks%s), %zu latency samples\n",
        load ? " --load" : "", (long long)live, clock.elapsed() / 1000.0, live / (clock.elapsed() / 1000.0),
        ranks, prefill ? qPrintable(QStringLiteral(", after %1 prefilled steps").arg(prefill)) : "",
        lateMs.size());
    const auto over = std::count_if(lateMs.begin(), lateMs.end(), [](double v) { return v >= 50.0; });
    std::printf(
        "event-loop latency after 1 s warm-up: p50 %.2f ms, p99 %.2f ms, max %.2f ms, %lld of %zu ticks "
        ">= 50 ms (target < 50 ms): %s\n",
        percentile(lateMs, 0.5), percentile(lateMs, 0.99), mx, (long long)over, lateMs.size(),
        mx < 50 ? "OK" : "OVER");
    std::printf("worst single UI-thread stall: %.2f ms (%.2f ms CPU) in %s", app.m_worstMs, app.m_worstMsCpu,
                qPrintable(app.m_worst.text()));
    if (app.m_worstInnerMs >= 0.1)
        std::printf(" (largest part %.2f ms: %s)", app.m_worstInnerMs, qPrintable(app.m_worstInner.text()));
    std::printf("\nmost CPU in one dispatch: %.2f ms in %s\n", app.m_worstCpuMs,
                qPrintable(app.m_worstCpu.text()));
    std::printf("UI thread busy %.0f%% of the measured %.1f s\n", 100.0 * app.m_busyMs / 1000.0 / measuredS,
                measuredS);
    QVector<QPair<double, QString>> kinds;
    for (auto it = app.m_costs.cbegin(); it != app.m_costs.cend(); ++it)
        kinds.push_back({it->totalMs, it.key()});
    std::sort(kinds.begin(), kinds.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (int i = 0; i < kinds.size() && i < 6; ++i) {
        const auto& c = app.m_costs[kinds[i].second];
        std::printf("  %6.0f ms in %5d x %s (max %.2f ms, %.2f ms CPU)\n", c.totalMs, c.count,
                    qPrintable(kinds[i].second), c.maxMs, c.maxCpuMs);
    }
    std::printf("(wall-clock numbers: other processes on the machine add to them%s)\n",
                load ? "; --load kept another core busy" : "; try --load for a loaded machine");
    return 0;
}
