#pragma once

// The small surface the panels use to draw charts. Qt Charts is deprecated in newer Qt; keeping every Qt
// Charts type behind this interface means only qt_line_chart.cpp changes when it is replaced.

#include <QColor>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QVector>

#include <memory>

class QWidget;

namespace ddpdesk::ui {

class LineChart {
public:
    virtual ~LineChart() = default;

    virtual QWidget* widget() = 0;
    virtual void setTitle(const QString& title) = 0;
    virtual void setAxisTitles(const QString& x, const QString& y) = 0;
    // Returns a series id. A dashed series is a reference line (e.g. "ideal").
    virtual int addSeries(const QString& name, const QColor& color, bool dashed = false) = 0;
    virtual void setSeriesName(int id, const QString& name) = 0;
    // Replaces the drawn points; callers pass already-downsampled data (see series_buffer.h). Drawn when
    // control returns to the event loop, once for all the series set until then (or at once by
    // drawPending()).
    virtual void setPoints(int id, const QVector<QPointF>& points) = 0;
    virtual void drawPending() = 0;
    virtual void setYRange(double min, double max) = 0; // fixed range (utilization %); min > max: automatic
    // A line over the plot area for what the chart cannot show ("n/a: why"); empty hides it.
    virtual void setNote(const QString& text) = 0;
    virtual QString note() const = 0;
    // What the axes show now (x: left/right, y: top = min, bottom = max), after pending points are drawn.
    virtual QRectF visibleRange() = 0;
    virtual void removeAllSeries() = 0;
    virtual bool savePng(const QString& path) = 0;
};

std::unique_ptr<LineChart> createLineChart(QWidget* parent);

// A palette that tells 8+ ranks apart and stays readable on light and dark backgrounds.
QColor seriesColor(int index);

} // namespace ddpdesk::ui
