#pragma once

// Per-rank log lines for the Run page's log view: the last kMaxLines of each rank (plus one slot for launcher
// messages), and what the view has not shown yet. Trimming is amortized (a block at a time), so a busy rank's
// lines cost O(1) each instead of shifting thousands of lines per line.

#include <QString>
#include <QStringList>
#include <QVector>

namespace ddpdesk::ui {

class RunLogBuffer {
public:
    explicit RunLogBuffer(int maxLines) : m_max(maxLines) {}

    void resize(int count); // keeps the lines when the count is unchanged (a reset of the same run)
    int slotCount() const { return m_lines.size(); }
    void append(int slot, const QString& line);
    QString text(int slot) const;              // the last maxLines lines, joined
    bool takePending(int slot, QString* text); // lines since the last take (at most maxLines), joined
    void clearPending(int slot) { m_pending[slot].clear(); }

private:
    static void trim(QStringList& lines, int max);
    static QString joinLast(const QStringList& lines, int max);

    int m_max;
    QVector<QStringList> m_lines;
    QVector<QStringList> m_pending;
};

} // namespace ddpdesk::ui
