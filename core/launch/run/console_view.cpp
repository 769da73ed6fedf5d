#include "launch/run/console_view.h"

#include "launch/run/supervisor.h"
#include "os/console.h"

#include <cmath>
#include <cstdio>

namespace ddpdesk::launch {

namespace {

constexpr int kBarMs = 250;
constexpr int kPlainMs = 5000;

QString clock(double s) {
    if (s < 0 || !std::isfinite(s)) return QStringLiteral("--:--");
    const qint64 t = qint64(s + 0.5);
    return t >= 3600 ? QStringLiteral("%1:%2:%3")
                           .arg(t / 3600)
                           .arg((t / 60) % 60, 2, 10, QLatin1Char('0'))
                           .arg(t % 60, 2, 10, QLatin1Char('0'))
                     : QStringLiteral("%1:%2").arg(t / 60).arg(t % 60, 2, 10, QLatin1Char('0'));
}

} // namespace

ConsoleView::ConsoleView(Supervisor* run, const QString& label, QObject* parent)
    : QObject(parent), m_run(run), m_label(label), m_terminal(os::stderrIsTerminal()) {
    connect(run, &Supervisor::message, this, [this](const QString& text) { printLine(text); });
    connect(run, &Supervisor::attemptStarted, this, [this](int attempt) {
        const RunConfig& c = m_run->config();
        printLine(QStringLiteral("%1starting %2 worker(s) (ranks %3..%4 of world size %5)%6")
                      .arg(m_label.isEmpty() ? QString() : m_label + QStringLiteral(": "))
                      .arg(c.nproc)
                      .arg(c.globalRank(0))
                      .arg(c.globalRank(c.nproc - 1))
                      .arg(c.worldSize())
                      .arg(attempt > 0 ? QStringLiteral(", restart %1").arg(attempt) : QString()));
    });
    connect(run, &Supervisor::finished, this, [this] {
        m_timer.stop();
        tick();
        if (m_terminal && m_barShown) std::fputs("\n", stderr);
        m_barShown = false;
    });
    connect(&m_timer, &QTimer::timeout, this, &ConsoleView::tick);
    m_timer.start(m_terminal ? kBarMs : kPlainMs);
}

QString ConsoleView::progressText(const Supervisor& run, int width) {
    const RunModel& m = *run.model();
    int active = 0, done = 0, failed = 0;
    qint64 step = -1;
    for (const RankStatus& r : m.ranks()) {
        active += (r.state == RankState::Training || r.state == RankState::Rendezvous ||
                   r.state == RankState::Starting);
        done += r.state == RankState::Done;
        failed += r.state == RankState::Failed;
        step = step < 0 ? r.step : qMin(step, r.step);
    }
    QString ranks = active > 0 || done == 0 ? QStringLiteral("ranks %1/%2").arg(active).arg(m.rankCount())
                                            : QStringLiteral("done %1/%2").arg(done).arg(m.rankCount());
    if (failed > 0) ranks += QStringLiteral(", %1 failed").arg(failed);
    const double loss = m.meanLoss();
    const double rate = m.samplesRate().perS;
    const QString text =
        QStringLiteral("%1 | step %2%3 | loss %4 | samples/s %5 | ETA %6")
            .arg(ranks)
            .arg(qMax<qint64>(0, step))
            .arg(m.expectedSteps() > 0 ? QStringLiteral("/%1").arg(m.expectedSteps()) : QString())
            .arg(std::isfinite(loss) ? QString::number(loss, 'g', 4) : QStringLiteral("-"))
            .arg(rate > 0 ? QString::number(rate, 'f', 0) : QStringLiteral("n/a"))
            .arg(clock(m.etaS()));
    const double p = m.progress();
    if (p < 0) return text.left(width - 1);
    const QString percent = QStringLiteral("%1% ").arg(int(p * 100), 3);
    // The bar takes whatever room the numbers leave; the numbers matter more than the bar.
    const int barWidth = qMin(30, width - 1 - int(text.size() + percent.size()) - 3);
    if (barWidth < 5) return (percent + text).left(width - 1);
    const int filled = int(p * barWidth + 0.5);
    return QStringLiteral("[%1%2] ").arg(QString(filled, QLatin1Char('#')),
                                         QString(barWidth - filled, QLatin1Char('.'))) +
           percent + text;
}

void ConsoleView::tick() {
    if (!m_run->isRunning() && !m_run->model()->isFinished()) return;
    const int room =
        (m_terminal ? os::terminalColumns() : 200) - (m_label.isEmpty() ? 0 : int(m_label.size()) + 2);
    QString line = progressText(*m_run, qMax(20, room));
    if (!m_label.isEmpty()) line = m_label + QStringLiteral(": ") + line;
    if (m_terminal) {
        const QByteArray text = "\r\x1b[2K" + line.toLocal8Bit();
        std::fwrite(text.constData(), 1, size_t(text.size()), stderr);
        m_barShown = true;
    } else {
        std::fprintf(stderr, "%s\n", line.toLocal8Bit().constData());
    }
    std::fflush(stderr);
}

void ConsoleView::printLine(const QString& text) {
    if (m_terminal && m_barShown) std::fputs("\r\x1b[2K", stderr);
    std::fprintf(stderr, "%s\n", text.toLocal8Bit().constData());
    std::fflush(stderr);
    m_barShown = false;
}

} // namespace ddpdesk::launch
