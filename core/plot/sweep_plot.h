#pragma once

// sweep.png: left, measured speedup against the ideal (linear) line; right, mean loss against wall time per
// size. Apart from the launcher so that only this needs QtGui (QPainter on a QImage); the CLI and the GUI
// hand it to their SweepRunner.

#include "launch/run/sweep.h"

#include <QString>
#include <QVector>

namespace ddpdesk::plot {

// False with *error naming the path when the image cannot be written. Needs a QGuiApplication (fonts).
bool drawSweepPng(const QVector<launch::SweepRow>& rows, const QString& path, QString* error);

} // namespace ddpdesk::plot
