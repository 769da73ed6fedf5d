// Responsiveness benchmark (not a pass/fail test): feeds telemetry into a live Run page at a fixed event rate and
// measures how late a 5 ms UI-thread timer fires, i.e. the event-loop latency a user would feel.
//   bench_ui_latency [--rate 10000] [--ranks 8] [--seconds 10]
// Target: max and p99 latency under 50 ms at 10,000 events/s.

#include "launch/run_model.h"
#include "protocol/telemetry.h"
#include "run_panel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

using namespace ddpdesk;

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    int rate = 10000, ranks = 8;
    double seconds = 10;
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); ++i) {
        if (args[i] == QLatin1String("--rate"))
            rate = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--ranks"))
            ranks = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--seconds"))
            seconds = args[i + 1].toDouble();
    }
    if (rate <= 0 || ranks <= 0 || seconds <= 0) {
        std::fprintf(stderr, "bench_ui_latency: --rate, --ranks and --seconds must be positive\n");
        return 2;
    }

    launch::RunModel model;
    QVector<int> global;
    for (int r = 0; r < ranks; ++r)
        global << r;
    const qint64 totalSteps = qint64(rate * seconds / ranks) + 1;
    model.reset(global, ranks, QStringLiteral("autoencoder"), totalSteps);
    ui::RunPanel panel;
    panel.resize(1280, 800);
    panel.show();
    panel.watch(&model);

    // Pre-encoded lines are parsed by RunModel exactly as a worker's stdout would be.
    QVector<qint64> step(ranks, 0);
    qint64 sent = 0;
    QElapsedTimer clock;
    clock.start();
    QTimer feeder;
    feeder.setInterval(10); // 100 batches per second
    QObject::connect(&feeder, &QTimer::timeout, [&] {
        const qint64 due = qint64(clock.elapsed() / 1000.0 * rate);
        while (sent < due) {
            const int r = int(sent % ranks);
            auto e = protocol::makeEvent(protocol::ev::Step, r);
            e["epoch"] = 0;
            e["step"] = ++step[r];
            e["loss"] = 1.0 / std::sqrt(double(step[r])) + 0.01 * (sent % 7);
            e["samples"] = 64;
            e["step_ms"] = 1.0;
            e["compute_ms"] = 0.8;
            e["comm_wait_ms"] = 0.2;
            e["bytes_allreduced"] = 1 << 20;
            model.applyLine(r, QByteArray::fromStdString(protocol::encodeLine(e)));
            if (step[r] % 50 == 0) {
                model.applyLine(r, QByteArray("plain log text from the rank"));
            }
            ++sent;
        }
    });

    std::vector<double> lateMs;
    QElapsedTimer tick;
    QTimer probe;
    probe.setInterval(5);
    probe.setTimerType(Qt::PreciseTimer);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        // The first second (window shown, first layout, fonts loaded) is start-up, not steady-state latency.
        if (tick.isValid() && clock.elapsed() > 1000)
            lateMs.push_back(std::max(0.0, tick.nsecsElapsed() / 1e6 - 5.0));
        tick.restart();
    });

    feeder.start();
    probe.start();
    QTimer::singleShot(int(seconds * 1000), &app, &QApplication::quit);
    app.exec();

    std::sort(lateMs.begin(), lateMs.end());
    const double p99 = lateMs.empty() ? 0 : lateMs[size_t(std::floor(0.99 * double(lateMs.size() - 1)))];
    const double mx = lateMs.empty() ? 0 : lateMs.back();
    const double achieved = sent / (clock.elapsed() / 1000.0);
    std::printf("bench_ui_latency: %lld events in %.1f s (%.0f events/s, %d ranks), %zu latency samples\n",
                (long long)sent, clock.elapsed() / 1000.0, achieved, ranks, lateMs.size());
    const auto over = std::count_if(lateMs.begin(), lateMs.end(), [](double v) { return v >= 50.0; });
    std::printf("event-loop latency after 1 s warm-up: p50 %.2f ms, p99 %.2f ms, max %.2f ms, %lld of %zu ticks "
                ">= 50 ms (target < 50 ms): %s\n",
                lateMs.empty() ? 0 : lateMs[lateMs.size() / 2], p99, mx, (long long)over, lateMs.size(),
                mx < 50 && p99 < 50 ? "OK" : "OVER");
    std::printf("(wall-clock numbers: other processes on the machine add to them; compare runs on an idle machine)\n");
    return 0;
}
