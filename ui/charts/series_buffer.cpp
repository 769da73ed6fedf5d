#include "charts/series_buffer.h"

#include <algorithm>
#include <cmath>

namespace ddpdesk::ui {

QVector<QPointF> downsampleMinMax(const QVector<QPointF>& points, int maxPoints) {
    const int n = points.size();
    if (maxPoints < 4 || n <= maxPoints) return points;
    // Each bucket contributes its min and its max (in x order), so buckets = maxPoints / 2.
    const int buckets = std::max(1, (maxPoints - 2) / 2);
    QVector<QPointF> out;
    out.reserve(buckets * 2 + 2);
    out.push_back(points.front());
    const double span = double(n - 2) / buckets;
    for (int b = 0; b < buckets; ++b) {
        const int begin = 1 + int(std::floor(b * span));
        const int end = std::min(n - 1, 1 + int(std::floor((b + 1) * span)));
        if (begin >= end) continue;
        int lo = begin, hi = begin;
        for (int i = begin; i < end; ++i) {
            if (points[i].y() < points[lo].y()) lo = i;
            if (points[i].y() > points[hi].y()) hi = i;
        }
        if (lo == hi) {
            out.push_back(points[lo]);
        } else {
            out.push_back(points[std::min(lo, hi)]);
            out.push_back(points[std::max(lo, hi)]);
        }
    }
    out.push_back(points.back());
    return out;
}

QVector<QPointF> smoothEma(const QVector<QPointF>& points, double weight) {
    if (weight <= 0.0) return points;
    weight = std::min(weight, 0.999);
    QVector<QPointF> out;
    out.reserve(points.size());
    double last = 0.0;
    int count = 0;
    for (const QPointF& p : points) {
        if (!std::isfinite(p.y())) {
            out.push_back(p);
            continue;
        }
        last = last * weight + (1.0 - weight) * p.y();
        ++count;
        // Debias: an EMA started at 0 is pulled towards 0 for the first points.
        const double debias = 1.0 - std::pow(weight, count);
        out.push_back(QPointF(p.x(), last / debias));
    }
    return out;
}

void SeriesBuffer::append(double x, double y) {
    m_points.push_back(QPointF(x, y));
    ++m_revision;
}

void SeriesBuffer::clear() {
    m_points.clear();
    ++m_revision;
}

} // namespace ddpdesk::ui
