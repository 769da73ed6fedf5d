#include "run_rank_table.h"

#include "icons.h"
#include "launch/model/run_model.h"
#include "protocol/telemetry.h"
#include "run_panel.h"

#include <QHeaderView>
#include <QTableWidget>

#include <cmath>

namespace ddpdesk::ui {

using launch::RankState;

// Translated in RunPanel's context, where these strings have always lived (the shipped translations use it).
QString rankStateText(RankState s) {
    switch (s) {
    case RankState::Pending:
        return RunPanel::tr("pending");
    case RankState::Starting:
        return RunPanel::tr("starting");
    case RankState::Rendezvous:
        return RunPanel::tr("rendezvous");
    case RankState::Training:
        return RunPanel::tr("training");
    case RankState::Done:
        return RunPanel::tr("done");
    case RankState::Failed:
        return RunPanel::tr("failed");
    case RankState::Stopped:
        return RunPanel::tr("stopped");
    }
    return launch::rankStateName(s);
}

namespace {

QColor stateColor(RankState s) {
    switch (s) {
    case RankState::Training:
        return QColor(0x10, 0x7c, 0x10);
    case RankState::Done:
        return QColor(0x00, 0x67, 0xc0);
    case RankState::Failed:
        return QColor(0xc4, 0x2b, 0x1c);
    case RankState::Stopped:
        return QColor(0x8a, 0x6d, 0x00);
    default:
        return QColor(0x55, 0x55, 0x55);
    }
}

} // namespace

RunRankTable::RunRankTable(QWidget* parent) : m_table(new QTableWidget(0, ColCount, parent)) {
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    // "killed by signal 15 (SIGTERM) (stopped by the launcher)" must be readable, not elided.
    m_table->horizontalHeader()->setSectionResizeMode(ColExit, QHeaderView::ResizeToContents);
    m_table->setAlternatingRowColors(true);
}

void RunRankTable::retranslate() {
    m_table->setHorizontalHeaderLabels(
        {RunPanel::tr("Rank"), RunPanel::tr("State"), RunPanel::tr("Step"), RunPanel::tr("Loss"),
         RunPanel::tr("Samples/s"), RunPanel::tr("Comm wait"), RunPanel::tr("Own work"),
         RunPanel::tr("Collective #"), RunPanel::tr("Node"), RunPanel::tr("PID"), RunPanel::tr("Exit")});
    m_shownState.fill(-1); // state names are translated: redraw them
}

void RunRankTable::setRowCount(int rows) {
    m_table->setRowCount(rows);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < ColCount; ++c)
            if (!m_table->item(r, c)) {
                auto* item = new QTableWidgetItem;
                item->setTextAlignment(c == ColState ? Qt::AlignLeft | Qt::AlignVCenter
                                                     : Qt::AlignRight | Qt::AlignVCenter);
                m_table->setItem(r, c, item);
            }
    m_shownState = QVector<int>(rows, -1);
    m_shownGroup = QVector<int>(rows, -1);
}

// A multi-node run groups its ranks by node (they come node by node): every other node's rows are tinted,
// in place of the alternating row colours.
void RunRankTable::showNodeGroup(int row, int node, bool multiNode) {
    const int group = multiNode ? node % 2 : 2;
    if (m_shownGroup[row] == group) return;
    m_shownGroup[row] = group;
    m_table->setAlternatingRowColors(!multiNode);
    const QBrush brush = group == 1 ? QBrush(QColor(0xe8, 0xf0, 0xfa)) : QBrush();
    for (int c = 0; c < ColCount; ++c)
        m_table->item(row, c)->setBackground(brush);
}

// Its own work per step against the fastest rank's ("1.0x" for the fastest): amber from kSlowRatio on, and
// the tooltip says what the figure is and against what.
void RunRankTable::showStraggler(int row, const launch::StragglerScore& s) {
    QTableWidgetItem* item = m_table->item(row, ColStraggler);
    const QString text =
        s.known() ? QStringLiteral("%1\u00d7").arg(s.vsFastest, 0, 'f', 2) : QStringLiteral("\u2013");
    if (item->text() == text) return;
    item->setText(text);
    const bool slow = s.known() && s.slowSinceT > 0;
    item->setForeground(slow ? QColor(0xb3, 0x5c, 0x00) : QColor());
    item->setToolTip(
        s.known() ? RunPanel::tr("Own work per step (step time less the time it waited for the others): "
                                 "%1 ms, %2x the fastest rank's, %3x its own best")
                        .arg(s.ownMs, 0, 'f', 1)
                        .arg(s.vsFastest, 0, 'f', 2)
                        .arg(s.vsOwnBest, 0, 'f', 2)
                  : RunPanel::tr("Not measured yet: needs two ranks or more reporting their step and "
                                 "comm wait times"));
}

// The tooltip of the collective column: the rank's last 8 collectives, newest last.
QString RunRankTable::collectiveHistoryText(const launch::RankStatus& r) {
    if (r.history.empty()) return {};
    QStringList lines{RunPanel::tr("Last collectives of rank %1 (newest last):").arg(r.rank)};
    const double now = protocol::nowSeconds();
    protocol::CollectiveWords words; // the describer's phrases in the GUI's language
    words.bytes = RunPanel::tr("%1 bytes").toStdString();
    words.group = RunPanel::tr("%1 group").toStdString();
    words.at = RunPanel::tr(" at %1").toStdString();
    words.completedIn = RunPanel::tr(", completed in %1 ms").toStdString();
    words.startedAgo = RunPanel::tr(", started %1 s ago, not completed").toStdString();
    words.notCompleted = RunPanel::tr(", not completed").toStdString();
    const std::size_t from = r.history.size() > 8 ? r.history.size() - 8 : 0;
    for (std::size_t k = from; k < r.history.size(); ++k)
        lines << QString::fromStdString(protocol::describeCollectiveEntry(r.history[k], now, words));
    return lines.join(QLatin1Char('\n'));
}

void RunRankTable::update(const launch::RunModel& model) {
    const int n = model.rankCount();
    if (m_table->rowCount() != n) setRowCount(n);
    const bool multiNode = model.nodes().size() > 1;
    for (int i = 0; i < n; ++i) {
        const launch::RankStatus& r = model.rank(i);
        showNodeGroup(i, r.node, multiNode);
        auto set = [&](int col, const QString& text) {
            QTableWidgetItem* item = m_table->item(i, col);
            if (item->text() != text) item->setText(text);
        };
        set(ColRank, QString::number(r.rank));
        QString state = r.storeOnly && r.state == RankState::Pending
                            ? RunPanel::tr("in the store (another launcher)")
                            : rankStateText(r.state);
        if (r.state == RankState::Rendezvous && !r.rendezvousPhase.isEmpty())
            state += QStringLiteral(" (%1)").arg(r.rendezvousPhase);
        if (r.state == RankState::Training && r.evaluating) state = RunPanel::tr("evaluating");
        set(ColState, state);
        QString stateTip = launch::RunModel::startupText(r.startup);
        if (r.evalPasses > 0)
            stateTip += (stateTip.isEmpty() ? QString() : QStringLiteral("\n")) +
                        RunPanel::tr("validation passes: %1, %2 s in all (not counted as training time "
                                     "nor training samples)")
                            .arg(r.evalPasses)
                            .arg(r.evalS, 0, 'f', 1);
        if (r.saves > 0)
            stateTip += (stateTip.isEmpty() ? QString() : QStringLiteral("\n")) +
                        RunPanel::tr("checkpoint saves: %1, %2 s in all (not counted as training time)")
                            .arg(r.saves)
                            .arg(r.saveS, 0, 'f', 1);
        if (m_table->item(i, ColState)->toolTip() != stateTip)
            m_table->item(i, ColState)->setToolTip(stateTip);
        if (m_shownState[i] != int(r.state)) {
            // Colour and icon only change with the state; setting them anyway would repaint the cell every
            // tick.
            m_shownState[i] = int(r.state);
            m_table->item(i, ColState)->setForeground(stateColor(r.state));
            m_table->item(i, ColState)
                ->setIcon(r.state == RankState::Failed ? icon(IconId::Error)
                          : r.state == RankState::Done ? icon(IconId::Ok)
                                                       : QIcon());
        }
        set(ColStep, QString::number(r.step));
        set(ColLoss, std::isfinite(r.loss) ? QString::number(r.loss, 'g', 4) : QStringLiteral("\u2013"));
        set(ColRate,
            r.samplesPerSec > 0 ? QString::number(r.samplesPerSec, 'f', 0) : QStringLiteral("\u2013"));
        // Never stepped, or stepped without reporting a wait (a script rank without DDP): nothing was
        // measured.
        set(ColComm, r.step > 0 && r.commReported
                         ? QStringLiteral("%1 %").arg(r.commWaitShare * 100.0, 0, 'f', 1)
                         : RunPanel::tr("n/a"));
        showStraggler(i, r.straggler);
        // The latest collective this rank entered; "waiting" while it is inside it (the hold-up watch's
        // reading).
        set(ColCollective, r.collectives < 0 ? QStringLiteral("\u2013")
                           : r.inCollective  ? RunPanel::tr("#%1 (waiting)").arg(r.collectives)
                                             : QStringLiteral("#%1").arg(r.collectives));
        // Its last collectives (what, how big, from which line of the script or which bucket, how long).
        const QString history = collectiveHistoryText(r);
        if (m_table->item(i, ColCollective)->toolTip() != history)
            m_table->item(i, ColCollective)->setToolTip(history);
        set(ColNode,
            r.host.isEmpty() ? QString::number(r.node) : QStringLiteral("%1 (%2)").arg(r.node).arg(r.host));
        set(ColPid, r.pid ? QString::number(r.pid) : QString());
        set(ColExit,
            r.exitText.isEmpty() ? (r.exitCode >= 0 ? QString::number(r.exitCode) : QString()) : r.exitText);
        if (m_table->item(i, ColExit)->toolTip() != r.exitText)
            m_table->item(i, ColExit)->setToolTip(r.exitText);
    }
}

} // namespace ddpdesk::ui
