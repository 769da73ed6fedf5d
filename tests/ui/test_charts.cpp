// The chart data path: downsampling keeps extremes and bounds the point count; smoothing matches
// TensorBoard's debiased EMA; the Qt Charts adapter draws and exports what it is given, and a live chart's
// axes move only now and then (every axis move re-lays out every series, which is what used to stall the UI
// thread); the Run page's log buffer stays bounded.

#include "charts/line_chart.h"
#include "charts/series_buffer.h"
#include "run_log_buffer.h"

#include <QChartView>
#include <QGraphicsTextItem>
#include <QImage>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QtTest>

#include <cmath>
#include <set>

using namespace ddpdesk::ui;

class TestCharts : public QObject {
    Q_OBJECT
private slots:
    void downsampleBoundsAndKeepsSpikes() {
        QVector<QPointF> pts;
        for (int i = 0; i < 100000; ++i)
            pts << QPointF(i, std::sin(i * 0.001));
        pts[54321].setY(50.0); // a loss spike must survive decimation
        pts[7777].setY(-50.0);
        const QVector<QPointF> out = downsampleMinMax(pts, 800);
        QVERIFY(out.size() <= 802);
        QVERIFY(out.size() > 400);
        QCOMPARE(out.front(), pts.front());
        QCOMPARE(out.back(), pts.back());
        bool hi = false, lo = false;
        for (int i = 0; i < out.size(); ++i) {
            hi = hi || out[i] == QPointF(54321, 50.0);
            lo = lo || out[i] == QPointF(7777, -50.0);
            if (i) QVERIFY(out[i].x() > out[i - 1].x());
        }
        QVERIFY(hi);
        QVERIFY(lo);
        QCOMPARE(downsampleMinMax(pts.mid(0, 10), 800).size(), 10); // short series pass through
    }

    void smoothingIsDebiasedEma() {
        const QVector<QPointF> pts = {{0, 1.0}, {1, 3.0}, {2, 3.0}};
        const QVector<QPointF> s = smoothEma(pts, 0.5);
        QCOMPARE(s.size(), 3);
        QVERIFY(std::abs(s[0].y() - 1.0) < 1e-12);        // debiased: first point is itself
        QVERIFY(std::abs(s[1].y() - 1.75 / 0.75) < 1e-9); // (0.5*0.5 + 0.5*3) / (1 - 0.5^2)
        QVERIFY(std::abs(s[2].y() - 2.375 / 0.875) < 1e-9);
        QVERIFY(std::abs(smoothEma(pts, 0.0)[1].y() - 3.0) < 1e-12); // weight 0: raw
    }

    void qtChartDrawsAndExports() {
        auto chart = createLineChart(nullptr);
        chart->setTitle(QStringLiteral("Loss"));
        const int id = chart->addSeries(QStringLiteral("rank 0"), seriesColor(0));
        chart->setPoints(id, {{0, 1.0}, {1, 0.5}, {2, 0.25}});
        chart->widget()->resize(400, 300);
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("c.png"));
        QVERIFY(chart->savePng(png));
        const QImage img(png);
        QVERIFY(!img.isNull());
        QVERIFY(img.width() >= 400);
        // The series colour must actually be on the image (the line was drawn, not just axes).
        const QColor c = seriesColor(0);
        int hits = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) {
                const QColor p = img.pixelColor(x, y);
                hits += std::abs(p.red() - c.red()) < 20 && std::abs(p.green() - c.green()) < 20 &&
                        std::abs(p.blue() - c.blue()) < 20;
            }
        QVERIFY2(hits > 50, qPrintable(QStringLiteral("series pixels: %1").arg(hits)));
        delete chart->widget();
    }

    // A line needs two points; a series with one sample (a short run's CPU share) still shows it, as a dot.
    void aLoneSampleIsDrawn() {
        auto seriesPixels = [](const QVector<QPointF>& points) {
            auto chart = createLineChart(nullptr);
            const int id = chart->addSeries(QStringLiteral("rank 0"), seriesColor(0));
            chart->setPoints(id, points);
            chart->widget()->resize(400, 300);
            QTemporaryDir dir;
            const QString png = dir.filePath(QStringLiteral("c.png"));
            const bool saved = chart->savePng(png);
            delete chart->widget();
            const QImage img(png);
            if (!saved || img.isNull()) return -1;
            const QColor c = seriesColor(0);
            int hits = 0; // the legend's marker has the colour too: compare with and without the sample
            for (int y = 0; y < img.height(); ++y)
                for (int x = 0; x < img.width(); ++x) {
                    const QColor p = img.pixelColor(x, y);
                    hits += std::abs(p.red() - c.red()) < 20 && std::abs(p.green() - c.green()) < 20 &&
                            std::abs(p.blue() - c.blue()) < 20;
                }
            return hits;
        };
        const int none = seriesPixels({});
        const int one = seriesPixels({{2.0, 40.0}});
        QVERIFY(none >= 0);
        QVERIFY2(one > none + 10, qPrintable(QStringLiteral("%1 vs %2 pixels").arg(one).arg(none)));
    }

    void firstRangeFitsTheData() {
        auto chart = createLineChart(nullptr);
        const int id = chart->addSeries(QStringLiteral("rank 0"), seriesColor(0));
        chart->setPoints(id, {{2, 1.0}, {10, 3.0}});
        const QRectF r = chart->visibleRange();
        QCOMPARE(r.left(),
                 2.0); // a finished run or a comparison: no headroom, the line ends at the right edge
        QCOMPARE(r.right(), 10.0);
        QVERIFY(r.top() <= 1.0 && r.top() > 0.8);
        QVERIFY(r.bottom() >= 3.0 && r.bottom() < 3.2);
        delete chart->widget();
    }

    void tinyThenWideRangeKeepsFewTicks() {
        // A CPU chart's first samples (one per rank) can be microseconds apart; the next ones span minutes.
        // Qt Charts makes one item per tick, so the tick step must follow the range: with the tiny range's
        // step the wide range meant millions of ticks and a UI thread stuck for minutes.
        auto chart = createLineChart(nullptr);
        chart->widget()->resize(600, 400);
        chart->widget()->show();
        const int a = chart->addSeries(QStringLiteral("rank 0"), seriesColor(0));
        const int b = chart->addSeries(QStringLiteral("rank 1"), seriesColor(1));
        chart->setPoints(a, {{132.18832, 40.0}});
        chart->setPoints(b, {{132.18840, 42.0}});
        QRectF r = chart->visibleRange();
        QVERIFY2(r.width() >= 0.1,
                 qPrintable(QString::number(r.width(), 'g', 12))); // readable, not 8e-5 wide
        chart->setPoints(a, {{0.5, 10.0}, {132.18832, 40.0}});
        chart->setPoints(b, {{0.7, 12.0}, {132.18840, 42.0}});
        r = chart->visibleRange();
        QVERIFY(r.left() <= 0.5 && r.right() >= 132.1884);
        QTest::qWait(50); // let the chart lay out and paint its axes
        auto* view = qobject_cast<QChartView*>(chart->widget());
        QVERIFY(view);
        for (QAbstractAxis* abstractAxis : view->chart()->axes()) {
            auto* axis = qobject_cast<QValueAxis*>(abstractAxis);
            QVERIFY(axis);
            if (axis->tickType() == QValueAxis::TicksDynamic)
                QVERIFY2(
                    (axis->max() - axis->min()) / axis->tickInterval() < 50,
                    qPrintable(
                        QStringLiteral("%1 ticks").arg((axis->max() - axis->min()) / axis->tickInterval())));
        }
        delete chart->widget();
    }

    // Issue 40: a monitor chart with one sample per series (two series 0.6 ms apart) had an x axis from
    // 0.0466 to 0.0472 s, and a lone value a y axis of 995.95..997.05 MiB.
    void oneSampleHasASensibleAxis() {
        auto chart = createLineChart(nullptr);
        chart->widget()->resize(600, 400);
        const int a = chart->addSeries(QStringLiteral("GPU 0"), seriesColor(0));
        const int b = chart->addSeries(QStringLiteral("rank 0"), seriesColor(1));
        chart->setPoints(a, {{0.0466, 996.0}});
        chart->setPoints(b, {{0.0472, 996.0}});
        const QRectF r = chart->visibleRange();
        QVERIFY2(r.left() <= 0.0466 && r.right() >= 0.0472,
                 qPrintable(QStringLiteral("%1..%2").arg(r.left()).arg(r.right())));
        QVERIFY2(r.width() >= 1.0, qPrintable(QStringLiteral("%1..%2").arg(r.left()).arg(r.right())));
        QVERIFY2(r.top() <= 996.0 && r.bottom() >= 996.0,
                 qPrintable(QStringLiteral("%1..%2").arg(r.top()).arg(r.bottom())));
        QVERIFY2(r.height() >= 100.0, qPrintable(QStringLiteral("%1..%2").arg(r.top()).arg(r.bottom())));
        delete chart->widget();
    }

    // Issue 40: the Throughput chart of a two-node run showed "..." for every y label once its range had
    // grown from the first samples' to thousands of samples/s.
    void axisLabelsStayReadable() {
        auto chart = createLineChart(nullptr);
        chart->setTitle(QStringLiteral("Throughput"));
        chart->setAxisTitles(QStringLiteral("seconds"), QStringLiteral("samples/s"));
        chart->widget()->resize(300, 200); // one of the Run page's four charts on a laptop screen
        chart->widget()->show();
        QVector<int> ids;
        for (int i = 0; i < 4; ++i)
            ids << chart->addSeries(QStringLiteral("rank %1").arg(i), seriesColor(i));
        QVector<QVector<QPointF>> pts(4);
        auto labels = [&] {
            QStringList out;
            auto* view = qobject_cast<QChartView*>(chart->widget());
            for (QGraphicsItem* item : view->scene()->items())
                if (auto* text = dynamic_cast<QGraphicsTextItem*>(item); text && text->isVisible())
                    out << text->toPlainText();
            return out;
        };
        for (int tick = 1; tick <= 40; ++tick) {
            for (int i = 0; i < 4; ++i) {
                const double y = tick < 3 ? 0.5 * tick : 2000.0 * tick + 137.25 * i;
                pts[i] << QPointF(tick * 0.5, y);
                chart->setPoints(ids[i], pts[i]);
            }
            chart->drawPending();
            QTest::qWait(20);
            QCoreApplication::processEvents();
            for (const QString& l : labels()) // the axis labels: numbers, or what is left of them
                QVERIFY2(
                    l.isEmpty() || l.front().isLetter() ||
                        (!l.contains(QLatin1String("...")) && !l.contains(QChar(0x2026))),
                    qPrintable(
                        QStringLiteral("tick %1: %2").arg(tick).arg(labels().join(QLatin1String(" | ")))));
        }
        delete chart->widget();
    }

    void liveAxesMoveRarelyAndShowEveryPoint() {
        auto chart = createLineChart(nullptr);
        const int a = chart->addSeries(QStringLiteral("rank 0"), seriesColor(0));
        const int b = chart->addSeries(QStringLiteral("rank 1"), seriesColor(1));
        QVector<QPointF> pa, pb;
        std::set<std::pair<double, double>> xRanges, yRanges;
        for (int tick = 1; tick <= 400; ++tick) { // 100 s of a live run at 4 refreshes a second
            const double t = tick * 0.25;
            pa << QPointF(t, 2.0 / std::sqrt(t) + 0.05 * std::sin(t));
            pb << QPointF(t, 2.2 / std::sqrt(t));
            chart->setPoints(a, pa);
            chart->setPoints(b, pb);
            const QRectF r = chart->visibleRange();
            for (const QVector<QPointF>* s : {&pa, &pb})
                for (const QPointF& p : *s)
                    QVERIFY2(r.left() <= p.x() && p.x() <= r.right() && r.top() <= p.y() &&
                                 p.y() <= r.bottom(),
                             qPrintable(QStringLiteral("point (%1, %2) outside the axes at tick %3")
                                            .arg(p.x())
                                            .arg(p.y())
                                            .arg(tick)));
            QVERIFY(r.right() - pa.front().x() <=
                    1.2 * (pa.back().x() - pa.front().x()) + 1); // little empty space
            xRanges.insert({r.left(), r.right()});
            yRanges.insert({r.top(), r.bottom()});
        }
        // Growing by 15% at a time: about 30 moves over 0.25..100 s instead of one per refresh.
        QVERIFY2(xRanges.size() < 60, qPrintable(QString::number(xRanges.size())));
        QVERIFY2(yRanges.size() < 60, qPrintable(QString::number(yRanges.size())));
        delete chart->widget();
    }

    void logBufferStaysBounded() {
        RunLogBuffer logs(100);
        logs.resize(3);
        for (int i = 0; i < 1000; ++i)
            logs.append(1, QStringLiteral("line %1").arg(i));
        logs.append(7, QStringLiteral("ignored: no such slot"));
        const QStringList shown = logs.text(1).split(QLatin1Char('\n'));
        QCOMPARE(shown.size(), 100);
        QCOMPARE(shown.front(), QStringLiteral("line 900"));
        QCOMPARE(shown.back(), QStringLiteral("line 999"));
        QString pending;
        QVERIFY(logs.takePending(1, &pending));
        QCOMPARE(pending, logs.text(1));         // never more than the view keeps
        QVERIFY(!logs.takePending(1, &pending)); // taken
        logs.append(1, QString());
        QVERIFY(logs.takePending(1, &pending)); // an empty line is still a line
        QVERIFY(pending.isEmpty());
        QVERIFY(logs.text(0).isEmpty());
        logs.resize(3);
        QVERIFY(!logs.text(1).isEmpty()); // same rank count: a reset of the same run keeps its lines
    }
};

QTEST_MAIN(TestCharts)
#include "test_charts.moc"
