#include "charts/line_chart.h"

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QPixmap>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>

namespace ddpdesk::ui {
namespace {

// Runs a callback before a widget paints. While a chart's points go in slice by slice its updates are off, so
// only grab()/render() (screenshots, exports) paint it then; they must see the finished picture, not emptied
// series.
class BeforePaint : public QObject {
public:
    BeforePaint(QWidget* widget, std::function<void()> callback)
        : QObject(widget), m_callback(std::move(callback)) {
        widget->installEventFilter(this);
    }

    bool eventFilter(QObject*, QEvent* e) override {
        if (e->type() == QEvent::Paint) m_callback();
        return false;
    }

private:
    std::function<void()> m_callback;
};

class QtLineChart final : public LineChart {
public:
    static constexpr int kAntialiasMaxPoints = 2000;
    static constexpr int kPointsPerSlice = 1000; // handed to Qt Charts per event-loop turn (~1-2 ms of work)

    explicit QtLineChart(QWidget* parent)
        : m_chart(new QChart), m_view(new QChartView(m_chart, parent)), m_x(new QValueAxis),
          m_y(new QValueAxis) {
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
        // Every live update moves items; a BSP index would be rebuilt for them each time and a chart never
        // needs item lookups by position.
        m_view->scene()->setItemIndexMethod(QGraphicsScene::NoIndex);
        new BeforePaint(m_view->viewport(), [this, alive = m_alive] {
            if (*alive && !m_view->updatesEnabled()) drawPending();
        });
        m_note = new QGraphicsSimpleTextItem(m_chart);
        m_note->setBrush(QColor(0x60, 0x60, 0x60));
        m_note->setZValue(10);
        m_note->hide();
        // The tick step follows the axes' length on screen (labels must not crowd each other into "..."), and
        // the note sits in the plot area: both move when the chart is laid out again.
        QObject::connect(m_chart, &QChart::plotAreaChanged, m_view, [this, alive = m_alive] {
            if (!*alive) return;
            placeNote();
            if (m_hasRange) setRangeAndTicks(m_x, m_x->min(), m_x->max(), maxTicks(Qt::Horizontal));
            if (m_hasRange || m_fixedY) setRangeAndTicks(m_y, m_y->min(), m_y->max(), maxTicks(Qt::Vertical));
        });
    }

    QWidget* widget() override { return m_view; }

    void setTitle(const QString& title) override {
        QFont f = m_chart->titleFont();
        f.setBold(true);
        m_chart->setTitleFont(f);
        m_chart->setTitle(title);
    }

    void setAxisTitles(const QString& x, const QString& y) override {
        m_x->setTitleText(x);
        m_y->setTitleText(y);
    }

    int addSeries(const QString& name, const QColor& color, bool dashed) override {
        auto* s = new QLineSeries;
        s->setName(name);
        QPen pen(color, dashed ? 1.5 : 2.0);
        if (dashed) pen.setStyle(Qt::DashLine);
        s->setPen(pen);
        // OpenGL would be faster but is unavailable offscreen/under RDP; downsampling keeps this cheap
        // instead.
        s->setUseOpenGL(false);
        m_chart->addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_y);
        m_series.push_back(s);
        m_widths.push_back(pen.widthF());
        m_bounds.push_back(Bounds());
        m_points.push_back({});
        m_dirty.push_back(false);
        return m_series.size() - 1;
    }

    void setSeriesName(int id, const QString& name) override {
        if (id >= 0 && id < m_series.size()) m_series[id]->setName(name);
    }

    void setPoints(int id, const QVector<QPointF>& points) override {
        if (id < 0 || id >= m_series.size()) return;
        // Only stored here: the flush after this batch draws every changed series once, after at most one
        // range change, instead of Qt Charts recomputing every series' geometry per call and again per axis.
        m_points[id] = points;
        m_bounds[id] = boundsOf(points);
        m_dirty[id] = true;
        scheduleFlush();
    }

    void drawPending() override {
        while (m_flushPending)
            flush();
    }

    QRectF visibleRange() override {
        drawPending();
        return QRectF(QPointF(m_x->min(), m_y->min()), QPointF(m_x->max(), m_y->max()));
    }

    void setYRange(double min, double max) override {
        m_fixedY = min <= max;
        if (m_fixedY)
            setRangeAndTicks(m_y, min, max, maxTicks(Qt::Vertical));
        else
            scheduleFlush();
    }

    void setNote(const QString& text) override {
        if (m_note->text() == text && m_note->isVisible() == !text.isEmpty()) return;
        m_note->setText(text);
        m_note->setVisible(!text.isEmpty());
        placeNote();
    }

    QString note() const override { return m_note->isVisible() ? m_note->text() : QString(); }

    void removeAllSeries() override {
        m_chart->removeAllSeries();
        m_series.clear();
        m_widths.clear();
        m_dense = false;
        m_view->setRenderHint(QPainter::Antialiasing);
        m_bounds.clear();
        m_points.clear();
        m_dirty.clear();
        m_hasRange = false;
        // Back to plain ticks: a dynamic interval left from a longer run would leave the empty axes
        // unlabelled.
        for (QValueAxis* a : {m_x, m_y}) {
            a->setTickType(QValueAxis::TicksFixed);
            a->setTickCount(5);
            a->setLabelFormat(QStringLiteral("%g"));
        }
        m_x->setRange(0, 1);
        if (!m_fixedY) m_y->setRange(0, 1);
    }

    bool savePng(const QString& path) override {
        drawPending();
        return m_view->grab().save(path, "PNG");
    }

    ~QtLineChart() override { *m_alive = false; }

private:
    // Pixels between two labels: a y label is a line of text high, an x label a number wide. Denser ticks
    // make Qt Charts cut every label to "..." (the Throughput chart of a two-node run showed nothing else).
    static constexpr double kMinTickSpacingY = 32, kMinTickSpacingX = 64;

    // How many tick intervals fit the axis as the chart is laid out now (5 before it has a size).
    int maxTicks(Qt::Orientation o) const {
        const QRectF area = m_chart->plotArea();
        const double length = o == Qt::Vertical ? area.height() : area.width();
        if (!(length > 0)) return 5;
        return std::clamp(int(length / (o == Qt::Vertical ? kMinTickSpacingY : kMinTickSpacingX)), 1, 10);
    }

    void placeNote() {
        if (!m_note->isVisible()) return;
        const QRectF area = m_chart->plotArea();
        const QRectF text = m_note->boundingRect();
        m_note->setPos(area.center().x() - text.width() / 2, area.center().y() - text.height() / 2);
    }

    // Ticks on round values (0, 5, 10 s; 0.2, 0.4 loss) without stretching the range past the data, and never
    // more than maxTicks intervals. Sets the range and its ticks together. Qt Charts creates one item per
    // tick as soon as either changes, so the order matters: a 0..130 s range under the 0.00002 s interval of
    // a previous tiny range would mean millions of tick items (the UI thread hung for minutes). The step
    // grows before the range does and shrinks after it.
    static void setRangeAndTicks(QValueAxis* axis, double lo, double hi, int maxTicks) {
        const double raw = (hi - lo) / std::max(1, maxTicks);
        if (!(raw > 0) || !std::isfinite(raw)) {
            axis->setRange(lo, hi);
            return;
        }
        const double mag = std::pow(10.0, std::floor(std::log10(raw)));
        const double f = raw / mag;
        // Rounded up: a step under `raw` would put more ticks on the axis than fit.
        const double step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
        // As many decimals as the step needs: "%.3g" printed 280.5 MiB as "280", twice on one axis.
        const int decimals = std::max(0, int(-std::floor(std::log10(step) + 1e-9)));
        const QString format = std::max(std::abs(lo), std::abs(hi)) < 1e6 && decimals <= 6
                                   ? QStringLiteral("%.%1f").arg(decimals)
                                   : QStringLiteral("%.3g");
        // The format first: the range change below lays the axis out for labels of the new width (set after
        // it, "2000.2" kept the room of "0.25" and read "200...").
        if (axis->labelFormat() != format) axis->setLabelFormat(format);
        // Each setter re-lays out the axis and its labels: touch only what changed (mostly nothing, as the
        // step changes only with the range's order of magnitude).
        const bool growing = step >= axis->tickInterval();
        if (!growing && (axis->min() != lo || axis->max() != hi)) axis->setRange(lo, hi);
        if (axis->tickInterval() != step) axis->setTickInterval(step);
        if (axis->tickAnchor() != 0.0) axis->setTickAnchor(0.0);
        if (axis->tickType() != QValueAxis::TicksDynamic) axis->setTickType(QValueAxis::TicksDynamic);
        if (growing && (axis->min() != lo || axis->max() != hi)) axis->setRange(lo, hi);
    }

    // Bounds are cached per series when its points are set, so a flush of N series costs O(points) once,
    // not O(N x points) per series.
    struct Bounds {
        double x0 = std::numeric_limits<double>::max(), x1 = std::numeric_limits<double>::lowest();
        double y0 = std::numeric_limits<double>::max(), y1 = std::numeric_limits<double>::lowest();
    };

    static Bounds boundsOf(const QVector<QPointF>& pts) {
        Bounds b;
        for (const QPointF& p : pts) {
            if (!std::isfinite(p.y())) continue;
            b.x0 = std::min(b.x0, p.x());
            b.x1 = std::max(b.x1, p.x());
            b.y0 = std::min(b.y0, p.y());
            b.y1 = std::max(b.y1, p.y());
        }
        return b;
    }

    void scheduleFlush() {
        if (m_flushPending) return;
        m_flushPending = true;
        QMetaObject::invokeMethod(
            m_view,
            [this, alive = m_alive] {
                if (*alive && m_flushPending) flush();
            },
            Qt::QueuedConnection);
    }

    // An axis range change makes Qt Charts recompute every series' geometry (once per axis) and re-lay out
    // the axes: with 9 series of 500 points that was most of a live chart's cost. So ranges move rarely (a
    // live chart keeps headroom, see targetRange) and, when they do, the series are emptied first and
    // refilled once.
    void flush() {
        m_flushPending = false;
        Bounds all;
        for (const Bounds& b : m_bounds) {
            all.x0 = std::min(all.x0, b.x0);
            all.x1 = std::max(all.x1, b.x1);
            all.y0 = std::min(all.y0, b.y0);
            all.y1 = std::max(all.y1, b.y1);
        }
        bool xChanged = false, yChanged = false;
        double x0 = m_x->min(), x1 = m_x->max(), y0 = m_y->min(), y1 = m_y->max();
        if (all.x0 <= all.x1) {
            // Every x axis here is seconds or a worker count. Under one unit of data (one sample per series,
            // or two samples microseconds apart) the axis spans one whole unit from the unit below: 0..1 s,
            // not 0.0466..0.0472 s or 132.18832..132.18840.
            double ix0 = all.x0, ix1 = all.x1;
            if (ix1 - ix0 < kMinXSpan) {
                ix0 = std::floor(all.x0 / kMinXSpan) * kMinXSpan;
                ix1 = std::max(all.x1, ix0 + kMinXSpan);
            }
            xChanged = targetRange(ix0, ix1, x0, x1);
            if (!m_fixedY) {
                // A flat series (one sample: 996 MiB) is drawn against zero, not zoomed into 995.95..997.05.
                double iy0 = all.y0, iy1 = all.y1;
                if (iy1 <= iy0) {
                    iy0 = std::min(0.0, all.y0 * 1.2);
                    iy1 = all.y0 > 0 ? all.y0 * 1.2 : all.y0 < 0 ? 0.0 : 1.0;
                }
                const double pad = (iy1 - iy0) * 0.05;
                iy0 = iy0 >= 0 && iy0 - pad < 0 ? 0 : iy0 - pad;
                yChanged = targetRange(iy0, iy1 + pad, y0, y1);
            }
        }
        if (xChanged || yChanged) {
            for (int i = 0; i < m_series.size(); ++i)
                if (m_series[i]->count() > 0) {
                    m_series[i]->clear();
                    m_dirty[i] = true;
                }
            if (xChanged) setRangeAndTicks(m_x, x0, x1, maxTicks(Qt::Horizontal));
            if (yChanged) setRangeAndTicks(m_y, y0, y1, maxTicks(Qt::Vertical));
            m_hasRange = true;
            // The axes re-lay out in this turn; the points follow in the next ones, behind disabled updates
            // so the emptied series are never painted.
            m_view->setUpdatesEnabled(false);
            scheduleFlush();
            return;
        }
        setDense();
        // A slice at a time, each in its own event-loop turn, so no single turn stalls the UI thread for all
        // the series; the view shows the previous picture until the last slice is in, then repaints once.
        int budget = kPointsPerSlice;
        for (int i = 0; i < m_series.size(); ++i) {
            if (!m_dirty[i]) continue;
            if (budget <= 0) {
                if (m_view->updatesEnabled()) m_view->setUpdatesEnabled(false);
                scheduleFlush();
                return;
            }
            m_dirty[i] = false;
            m_series[i]->replace(m_points[i]); // one geometry update instead of one per point
            // A line needs two points: a lone sample (the CPU share of a short run has one) shows as a dot.
            m_series[i]->setPointsVisible(m_points[i].size() == 1);
            budget -= std::max<int>(1, m_points[i].size());
        }
        if (!m_view->updatesEnabled()) m_view->setUpdatesEnabled(true); // repaints the whole chart, once
    }

    // Antialiased or wide polylines cost several times more to rasterize than 1-px aliased ones; with many
    // long series (8 ranks x 500 points) that is what makes a repaint block the UI thread, and at that
    // density the lines overlap anyway: dense charts draw thin, sharp lines.
    void setDense() {
        int total = 0;
        for (const QVector<QPointF>& p : m_points)
            total += p.size();
        const bool dense = total > kAntialiasMaxPoints;
        if (dense == m_dense) return;
        m_dense = dense;
        m_view->setRenderHint(QPainter::Antialiasing, !dense);
        for (int i = 0; i < m_series.size(); ++i) {
            QPen pen = m_series[i]->pen();
            pen.setWidthF(dense ? 1.0 : m_widths[i]);
            pen.setCosmetic(dense);
            m_series[i]->setPen(pen);
        }
    }

    // Decides an axis range for data spanning [lo, hi]. The first range fits the data exactly (a finished run
    // or a comparison is drawn once). Afterwards the axis stays put while the data fits and fills at least
    // half of it, and otherwise grows with 15% headroom on the side that grew, so a live run changes it only
    // now and then.
    bool targetRange(double lo, double hi, double& min, double& max) const {
        if (!m_hasRange) {
            min = lo;
            max = hi;
            return true;
        }
        const bool inside = lo >= min && hi <= max;
        if (inside && (hi - lo) >= 0.5 * (max - min)) return false;
        if (inside) { // the data shrank to less than half the axis: fit it again
            min = lo;
            max = hi;
            return true;
        }
        const double span = hi - lo, head = 0.15 * span;
        // Only the side the data left moves. Non-negative data near zero (a falling loss, memory) gets zero
        // as its floor at once, instead of a new floor for every step it falls.
        if (lo < min) min = lo >= 0 && lo - head < span ? 0 : lo - head;
        if (hi > max) max = hi + head;
        return true;
    }

    static constexpr double kMinXSpan = 1.0; // seconds, or workers

    QChart* m_chart;
    QChartView* m_view;
    QGraphicsSimpleTextItem* m_note; // "n/a: why" over the plot area, hidden when empty
    QValueAxis* m_x;
    QValueAxis* m_y;
    QVector<QLineSeries*> m_series;
    QVector<double> m_widths; // per series, the pen width asked for (drawn at 1 px while the chart is dense)
    bool m_dense = false;
    QVector<Bounds> m_bounds;           // per series
    QVector<QVector<QPointF>> m_points; // per series, what the next flush draws
    QVector<bool> m_dirty;              // per series: points not yet handed to Qt Charts
    bool m_flushPending = false;
    bool m_hasRange = false; // a range was fitted to data since the last removeAllSeries
    std::shared_ptr<bool> m_alive = std::make_shared<bool>(true);
    bool m_fixedY = false;
};

} // namespace

std::unique_ptr<LineChart> createLineChart(QWidget* parent) {
    return std::make_unique<QtLineChart>(parent);
}

QColor seriesColor(int index) {
    static const QColor palette[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e),
                                     QColor(0x2c, 0xa0, 0x2c), QColor(0xd6, 0x27, 0x28),
                                     QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                                     QColor(0xe3, 0x77, 0xc2), QColor(0x17, 0xbe, 0xcf)};
    const int n = int(sizeof(palette) / sizeof(palette[0]));
    QColor c = palette[index % n];
    if (index >= n) c = c.darker(140); // a second lap of the palette still differs from the first
    return c;
}

} // namespace ddpdesk::ui
