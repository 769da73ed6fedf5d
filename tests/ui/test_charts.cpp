// The chart data path: downsampling keeps extremes and bounds the point count; smoothing matches TensorBoard's
// debiased EMA; the Qt Charts adapter draws and exports what it is given.

#include "charts/line_chart.h"
#include "charts/series_buffer.h"

#include <QTemporaryDir>
#include <QImage>
#include <QtTest>

#include <cmath>

using namespace ddpdesk::ui;

class TestCharts : public QObject {
    Q_OBJECT
private slots:
    void downsampleBoundsAndKeepsSpikes()
    {
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
            if (i)
                QVERIFY(out[i].x() > out[i - 1].x());
        }
        QVERIFY(hi);
        QVERIFY(lo);
        QCOMPARE(downsampleMinMax(pts.mid(0, 10), 800).size(), 10); // short series pass through
    }

    void smoothingIsDebiasedEma()
    {
        const QVector<QPointF> pts = {{0, 1.0}, {1, 3.0}, {2, 3.0}};
        const QVector<QPointF> s = smoothEma(pts, 0.5);
        QCOMPARE(s.size(), 3);
        QVERIFY(std::abs(s[0].y() - 1.0) < 1e-12);                 // debiased: first point is itself
        QVERIFY(std::abs(s[1].y() - 1.75 / 0.75) < 1e-9);           // (0.5*0.5 + 0.5*3) / (1 - 0.5^2)
        QVERIFY(std::abs(s[2].y() - 2.375 / 0.875) < 1e-9);
        QVERIFY(std::abs(smoothEma(pts, 0.0)[1].y() - 3.0) < 1e-12); // weight 0: raw
    }

    void qtChartDrawsAndExports()
    {
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
};

QTEST_MAIN(TestCharts)
#include "test_charts.moc"
