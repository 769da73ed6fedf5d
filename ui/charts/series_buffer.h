#pragma once

// Chart data kept apart from the chart widget: every raw point stays (for export), while what is drawn is a
// bounded, downsampled view, so a 100k-step run costs the same to paint as a 1k-step one.

#include <QPointF>
#include <QVector>

namespace ddpdesk::ui {

// Min/max-per-bucket decimation: keeps spikes (a loss blow-up must stay visible) and the first/last point.
// Returns at most about maxPoints points; input must be sorted by x.
QVector<QPointF> downsampleMinMax(const QVector<QPointF>& points, int maxPoints);

// TensorBoard-style exponential moving average with debiasing, weight in [0, 1).
QVector<QPointF> smoothEma(const QVector<QPointF>& points, double weight);

class SeriesBuffer {
public:
    void append(double x, double y);
    void clear();
    const QVector<QPointF>& points() const { return m_points; }
    int size() const { return m_points.size(); }
    bool isEmpty() const { return m_points.isEmpty(); }
    double lastY() const { return m_points.isEmpty() ? 0.0 : m_points.back().y(); }
    // Bumped on every change so views can redraw only what changed.
    quint64 revision() const { return m_revision; }

private:
    QVector<QPointF> m_points;
    quint64 m_revision = 0;
};

} // namespace ddpdesk::ui
