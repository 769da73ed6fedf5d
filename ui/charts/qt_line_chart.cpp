#include "charts/line_chart.h"

#include <QChart>
#include <QChartView>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QPixmap>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace ddpdesk::ui {
namespace {

class QtLineChart final : public LineChart {
public:
    static constexpr int kAntialiasMaxPoints = 2000;

    explicit QtLineChart(QWidget* parent)
        : m_chart(new QChart), m_view(new QChartView(m_chart, parent)), m_x(new QValueAxis), m_y(new QValueAxis)
    {
        m_chart->addAxis(m_x, Qt::AlignBottom);
        m_chart->addAxis(m_y, Qt::AlignLeft);
        m_chart->legend()->setAlignment(Qt::AlignBottom);
        m_chart->setMargins(QMargins(4, 4, 4, 4));
        m_chart->setBackgroundRoundness(0);
        // Animations re-run on every update; with live data they only cost frames.
        m_chart->setAnimationOptions(QChart::NoAnimation);
        m_x->setLabelFormat(QStringLiteral("%g"));
        m_y->setLabelFormat(QStringLiteral("%.3g"));
        m_x->setRange(0, 1);
        m_y->setRange(0, 1);
        m_view->setRenderHint(QPainter::Antialiasing);
        m_view->setMinimumSize(240, 160);
    }

    QWidget* widget() override { return m_view; }

    void setTitle(const QString& title) override
    {
        QFont f = m_chart->titleFont();
        f.setBold(true);
        m_chart->setTitleFont(f);
        m_chart->setTitle(title);
    }

    void setAxisTitles(const QString& x, const QString& y) override
    {
        m_x->setTitleText(x);
        m_y->setTitleText(y);
    }

    int addSeries(const QString& name, const QColor& color, bool dashed) override
    {
        auto* s = new QLineSeries;
        s->setName(name);
        QPen pen(color, dashed ? 1.5 : 2.0);
        if (dashed)
            pen.setStyle(Qt::DashLine);
        s->setPen(pen);
        // OpenGL would be faster but is unavailable offscreen/under RDP; downsampling keeps this cheap instead.
        s->setUseOpenGL(false);
        m_chart->addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_y);
        m_series.push_back(s);
        m_bounds.push_back(Bounds());
        return m_series.size() - 1;
    }

    void setSeriesName(int id, const QString& name) override
    {
        if (id >= 0 && id < m_series.size())
            m_series[id]->setName(name);
    }

    void setPoints(int id, const QVector<QPointF>& points) override
    {
        if (id < 0 || id >= m_series.size())
            return;
        m_series[id]->replace(points); // one repaint instead of one per point
        m_bounds[id] = boundsOf(points);
        // Antialiased polylines cost several times more to rasterize; with many long series (8 ranks x 500 points)
        // that is what makes a repaint block the UI thread, and at that density nobody sees the jaggies.
        int total = 0;
        for (QLineSeries* s : m_series)
            total += s->count();
        m_view->setRenderHint(QPainter::Antialiasing, total <= kAntialiasMaxPoints);
        scheduleRanges();
    }

    void setYRange(double min, double max) override
    {
        m_fixedY = min <= max;
        if (m_fixedY)
            m_y->setRange(min, max);
        else
            scheduleRanges();
    }

    void removeAllSeries() override
    {
        m_chart->removeAllSeries();
        m_series.clear();
        m_bounds.clear();
        // Back to plain ticks: a dynamic interval left from a longer run would leave the empty axes unlabelled.
        for (QValueAxis* a : {m_x, m_y}) {
            a->setTickType(QValueAxis::TicksFixed);
            a->setTickCount(5);
            a->setLabelFormat(QStringLiteral("%g"));
        }
        m_x->setRange(0, 1);
        if (!m_fixedY)
            m_y->setRange(0, 1);
    }

    bool savePng(const QString& path) override
    {
        if (m_rangesPending)
            updateRanges();
        return m_view->grab().save(path, "PNG");
    }

    ~QtLineChart() override { *m_alive = false; }

private:
    // Ticks on round values (0, 5, 10 s; 0.2, 0.4 loss) without stretching the range past the data.
    static void setNiceTicks(QValueAxis* axis, double lo, double hi)
    {
        const double raw = (hi - lo) / 5.0;
        if (!(raw > 0) || !std::isfinite(raw))
            return;
        const double mag = std::pow(10.0, std::floor(std::log10(raw)));
        const double f = raw / mag;
        const double step = (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
        axis->setTickType(QValueAxis::TicksDynamic);
        axis->setTickAnchor(0.0);
        axis->setTickInterval(step);
        axis->setLabelFormat(step >= 1 && std::abs(hi) < 1e6 ? QStringLiteral("%.0f") : QStringLiteral("%.3g"));
    }

    // Bounds are cached per series when its points are set, so a refresh of N series costs O(points) once,
    // not O(N x points) per series.
    struct Bounds {
        double x0 = std::numeric_limits<double>::max(), x1 = std::numeric_limits<double>::lowest();
        double y0 = std::numeric_limits<double>::max(), y1 = std::numeric_limits<double>::lowest();
    };

    static Bounds boundsOf(const QVector<QPointF>& pts)
    {
        Bounds b;
        for (const QPointF& p : pts) {
            if (!std::isfinite(p.y()))
                continue;
            b.x0 = std::min(b.x0, p.x());
            b.x1 = std::max(b.x1, p.x());
            b.y0 = std::min(b.y0, p.y());
            b.y1 = std::max(b.y1, p.y());
        }
        return b;
    }

    // A range change makes Qt Charts re-lay out every series; do it once after a batch of setPoints calls
    // (one per rank) instead of once per call.
    void scheduleRanges()
    {
        if (m_rangesPending)
            return;
        m_rangesPending = true;
        QMetaObject::invokeMethod(m_view, [this, alive = m_alive] {
            if (*alive && m_rangesPending)
                updateRanges();
        }, Qt::QueuedConnection);
    }

    void updateRanges()
    {
        m_rangesPending = false;
        Bounds all;
        for (const Bounds& b : m_bounds) {
            all.x0 = std::min(all.x0, b.x0);
            all.x1 = std::max(all.x1, b.x1);
            all.y0 = std::min(all.y0, b.y0);
            all.y1 = std::max(all.y1, b.y1);
        }
        double x0 = all.x0, x1 = all.x1, y0 = all.y0, y1 = all.y1;
        if (x0 > x1)
            return;
        if (x1 <= x0)
            x1 = x0 + 1;
        m_x->setRange(x0, x1);
        setNiceTicks(m_x, x0, x1);
        if (m_fixedY)
            return;
        if (y1 <= y0) {
            y1 = y0 + 1;
        }
        const double pad = (y1 - y0) * 0.05;
        y0 = y0 >= 0 && y0 - pad < 0 ? 0 : y0 - pad;
        m_y->setRange(y0, y1 + pad);
        setNiceTicks(m_y, y0, y1 + pad);
    }

    QChart* m_chart;
    QChartView* m_view;
    QValueAxis* m_x;
    QValueAxis* m_y;
    QVector<QLineSeries*> m_series;
    QVector<Bounds> m_bounds; // per series
    bool m_rangesPending = false;
    std::shared_ptr<bool> m_alive = std::make_shared<bool>(true);
    bool m_fixedY = false;
};

} // namespace

std::unique_ptr<LineChart> createLineChart(QWidget* parent) { return std::make_unique<QtLineChart>(parent); }

QColor seriesColor(int index)
{
    static const QColor palette[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
                                     QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                                     QColor(0xe3, 0x77, 0xc2), QColor(0x17, 0xbe, 0xcf)};
    const int n = int(sizeof(palette) / sizeof(palette[0]));
    QColor c = palette[index % n];
    if (index >= n)
        c = c.darker(140); // a second lap of the palette still differs from the first
    return c;
}

} // namespace ddpdesk::ui
