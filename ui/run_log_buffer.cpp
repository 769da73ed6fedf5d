#include "run_log_buffer.h"

#include <algorithm>

namespace ddpdesk::ui {

void RunLogBuffer::resize(int count) {
    if (m_lines.size() == count) return;
    m_lines = QVector<QStringList>(count);
    m_pending = QVector<QStringList>(count);
}

void RunLogBuffer::trim(QStringList& lines, int max) {
    // Let a list run 1/8 over before cutting it back, so the cut's cost is spread over many lines.
    if (lines.size() > max + std::max(1, max / 8))
        lines.erase(lines.begin(), lines.begin() + (lines.size() - max));
}

QString RunLogBuffer::joinLast(const QStringList& lines, int max) {
    return lines.size() <= max ? lines.join(QLatin1Char('\n'))
                               : lines.mid(lines.size() - max).join(QLatin1Char('\n'));
}

void RunLogBuffer::append(int slot, const QString& line) {
    if (slot < 0 || slot >= m_lines.size()) return;
    m_lines[slot] << line;
    trim(m_lines[slot], m_max);
    m_pending[slot] << line;
    trim(m_pending[slot], m_max);
}

QString RunLogBuffer::text(int slot) const {
    return slot >= 0 && slot < m_lines.size() ? joinLast(m_lines[slot], m_max) : QString();
}

bool RunLogBuffer::takePending(int slot, QString* text) {
    if (slot < 0 || slot >= m_pending.size() || m_pending[slot].isEmpty()) return false;
    *text = joinLast(m_pending[slot], m_max);
    m_pending[slot].clear();
    return true;
}

} // namespace ddpdesk::ui
