#pragma once

// The terminal view of a run: a live one-line progress bar (ranks, loss, samples/s, ETA) when stderr is a
// terminal, plain progress lines every few seconds otherwise; launcher messages (failures, restarts, stalls)
// as lines.

#include <QObject>
#include <QString>
#include <QTimer>

namespace ddpdesk::launch {

class Supervisor;

class ConsoleView : public QObject {
    Q_OBJECT
public:
    explicit ConsoleView(Supervisor* run, const QString& label = QString(), QObject* parent = nullptr);
    static QString progressText(const Supervisor& run, int width); // the bar line, without control characters

private:
    void tick();
    void printLine(const QString& text);

    Supervisor* m_run;
    QString m_label;
    QTimer m_timer;
    bool m_terminal;
    bool m_barShown = false;
};

} // namespace ddpdesk::launch
