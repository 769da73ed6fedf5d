// Drawn with QPainter on a QImage so it works headless (QT_QPA_PLATFORM=offscreen) and needs no chart
// library.
#include "plot/sweep_plot.h"

#include <QColor>
#include <QFont>
#include <QImage>
#include <QPainter>
#include <QPainterPath>

#include <cmath>

namespace ddpdesk::plot {

using launch::SweepRow;

namespace {

const QColor kPalette[] = {QColor(31, 119, 180),  QColor(255, 127, 14),  QColor(44, 160, 44),
                           QColor(214, 39, 40),   QColor(148, 103, 189), QColor(140, 86, 75),
                           QColor(227, 119, 194), QColor(127, 127, 127)};

struct Axes {
    QRectF area;
    double x0, x1, y0, y1;
    QPointF map(double x, double y) const {
        const double fx = x1 > x0 ? (x - x0) / (x1 - x0) : 0.5;
        const double fy = y1 > y0 ? (y - y0) / (y1 - y0) : 0.5;
        return {area.left() + fx * area.width(), area.bottom() - fy * area.height()};
    }
};

// Plain numbers (no exponent) with as many decimals as the axis span needs.
QString tick(double v, double span) {
    const int decimals = span >= 20 ? 0 : span >= 2 ? 1 : span >= 0.2 ? 2 : 3;
    return QString::number(v, 'f', decimals);
}

void drawFrame(QPainter& p, const Axes& a, const QString& title, const QString& xLabel,
               const QString& yLabel) {
    p.setPen(QPen(Qt::black, 1));
    p.drawRect(a.area);
    const QFontMetrics fm = p.fontMetrics();
    p.drawText(QRectF(a.area.left(), a.area.top() - 30, a.area.width(), 24), Qt::AlignCenter, title);
    p.drawText(QRectF(a.area.left(), a.area.bottom() + 24, a.area.width(), 20), Qt::AlignCenter, xLabel);
    p.save();
    p.translate(a.area.left() - 62, a.area.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-a.area.height() / 2, -10, a.area.height(), 20), Qt::AlignCenter, yLabel);
    p.restore();
    for (int i = 0; i <= 4; ++i) {
        const double x = a.x0 + (a.x1 - a.x0) * i / 4.0, y = a.y0 + (a.y1 - a.y0) * i / 4.0;
        const QPointF px = a.map(x, a.y0), py = a.map(a.x0, y);
        p.setPen(QPen(QColor(220, 220, 220), 1));
        p.drawLine(QPointF(px.x(), a.area.top()), QPointF(px.x(), a.area.bottom()));
        p.drawLine(QPointF(a.area.left(), py.y()), QPointF(a.area.right(), py.y()));
        p.setPen(Qt::black);
        const QString xs = tick(x, a.x1 - a.x0), ys = tick(y, a.y1 - a.y0);
        p.drawText(QPointF(px.x() - fm.horizontalAdvance(xs) / 2.0, a.area.bottom() + 16), xs);
        p.drawText(QPointF(a.area.left() - 6 - fm.horizontalAdvance(ys), py.y() + 4), ys);
    }
}

void drawSpeedup(QPainter& p, const QRectF& area, const QVector<SweepRow>& rows) {
    int maxN = 1, minN = 0;
    double maxS = 1;
    for (const SweepRow& r : rows) {
        maxN = qMax(maxN, r.size.nproc);
        if (r.ok && r.speedup > 0 && (minN == 0 || r.size.nproc < minN)) minN = r.size.nproc;
        maxS = qMax(maxS, r.speedup);
    }
    minN = qMax(1, minN);
    maxS = qMax(maxS, double(maxN) / minN);
    const Axes a{area, 0, double(maxN), 0, std::ceil(maxS * 1.1 * 2) / 2};
    drawFrame(p, a, QStringLiteral("Speedup vs workers"), QStringLiteral("workers"),
              QStringLiteral("speedup"));
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(Qt::gray, 1.5, Qt::DashLine));
    p.drawLine(a.map(0, 0), a.map(maxN, double(maxN) / minN));
    // One measured line per compared value (a plain sweep has one, unnamed).
    QStringList variants;
    for (const SweepRow& r : rows)
        if (!variants.contains(r.size.variant())) variants << r.size.variant();
    p.setPen(Qt::gray);
    p.drawText(a.area.adjusted(8, 6, -8, -6), Qt::AlignLeft | Qt::AlignTop,
               QStringLiteral("- - ideal (linear)"));
    for (int v = 0; v < variants.size(); ++v) {
        const QColor color = kPalette[v % 8];
        QPainterPath path;
        bool first = true;
        p.setPen(QPen(color, 2.5));
        for (const SweepRow& r : rows) {
            if (!(r.speedup > 0) || r.size.variant() != variants[v]) continue;
            const QPointF pt = a.map(r.size.nproc, r.speedup);
            first ? path.moveTo(pt) : path.lineTo(pt);
            first = false;
            p.setBrush(color);
            p.drawEllipse(pt, 4, 4);
        }
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        p.drawText(a.area.adjusted(8, 24 + 18 * v, -8, -6), Qt::AlignLeft | Qt::AlignTop,
                   QStringLiteral("— measured") +
                       (variants[v].isEmpty() ? QString() : QStringLiteral(", ") + variants[v]));
    }
}

void drawLoss(QPainter& p, const QRectF& area, const QVector<SweepRow>& rows) {
    double maxT = 1, minL = qInf(), maxL = -qInf();
    for (const SweepRow& r : rows)
        for (const QPointF& pt : r.lossVsWall)
            if (std::isfinite(pt.y())) {
                maxT = qMax(maxT, pt.x());
                minL = qMin(minL, pt.y());
                maxL = qMax(maxL, pt.y());
            }
    if (!std::isfinite(minL)) {
        minL = 0;
        maxL = 1;
    }
    const double pad = (maxL - minL) * 0.05 + 1e-9;
    const Axes a{area, 0, maxT, qMax(0.0, minL - pad), maxL + pad};
    drawFrame(p, a, QStringLiteral("Loss vs wall time"), QStringLiteral("seconds"), QStringLiteral("loss"));
    p.setRenderHint(QPainter::Antialiasing);
    for (int i = 0; i < rows.size(); ++i) {
        const QColor color = kPalette[i % 8];
        QPainterPath path;
        bool first = true;
        for (const QPointF& pt : rows[i].lossVsWall) {
            if (!std::isfinite(pt.y())) continue;
            first ? path.moveTo(a.map(pt.x(), pt.y())) : path.lineTo(a.map(pt.x(), pt.y()));
            first = false;
        }
        p.setPen(QPen(color, 2));
        p.drawPath(path);
        QString label = rows[i].size.devices == QLatin1String("cpu")
                            ? QStringLiteral("%1 worker(s)").arg(rows[i].size.nproc)
                            : QStringLiteral("GPUs %1").arg(rows[i].size.devices);
        if (!rows[i].size.setting.isEmpty()) label += QStringLiteral(", ") + rows[i].size.variant();
        p.drawText(QPointF(a.area.right() - 8 - p.fontMetrics().horizontalAdvance(label),
                           a.area.top() + 20 + 18 * i),
                   label);
    }
}

} // namespace

bool drawSweepPng(const QVector<SweepRow>& rows, const QString& path, QString* error) {
    QImage img(1280, 560, QImage::Format_ARGB32);
    img.fill(Qt::white);
    {
        QPainter p(&img);
        QFont f = p.font();
        f.setPixelSize(13);
        p.setFont(f);
        drawSpeedup(p, QRectF(80, 50, 500, 430), rows);
        drawLoss(p, QRectF(720, 50, 500, 430), rows);
    }
    if (!img.save(path, "PNG")) {
        if (error) *error = QStringLiteral("cannot write '%1'").arg(path);
        return false;
    }
    return true;
}

} // namespace ddpdesk::plot
