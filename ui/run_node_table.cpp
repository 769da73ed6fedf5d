#include "run_node_table.h"

#include "launch/model/run_model.h"
#include "run_panel.h"
#include "run_rank_table.h"

#include <QHeaderView>
#include <QTableWidget>

#include <map>

namespace ddpdesk::ui {

using launch::NodeContactState;

namespace {

QColor contactColor(NodeContactState s) {
    switch (s) {
    case NodeContactState::Here:
    case NodeContactState::Connected:
        return QColor(0x10, 0x7c, 0x10);
    case NodeContactState::NoContact:
    case NodeContactState::StoreOnly:
        return QColor(0xb3, 0x5c, 0x00);
    case NodeContactState::Lost:
        return QColor(0xc4, 0x2b, 0x1c);
    case NodeContactState::Ended:
        return QColor(0x00, 0x67, 0xc0);
    case NodeContactState::Waiting:
        break;
    }
    return QColor(0x55, 0x55, 0x55);
}

QString contactText(const launch::NodeStatus& n, double nowT, bool finished) {
    switch (n.contact) {
    case NodeContactState::Here:
        return RunPanel::tr("this launcher");
    case NodeContactState::Waiting:
        return RunPanel::tr("waiting for its launcher");
    case NodeContactState::StoreOnly:
        return RunPanel::tr("no DDP Desk launcher; ranks %1 seen in the store").arg(n.detail);
    case NodeContactState::Connected:
        return RunPanel::tr("connected");
    case NodeContactState::NoContact:
        return finished || n.sinceT <= 0
                   ? RunPanel::tr("no contact")
                   : RunPanel::tr("no contact for %1 s").arg(qMax(0.0, nowT - n.sinceT), 0, 'f', 0);
    case NodeContactState::Ended:
        return RunPanel::tr("ended: %1").arg(n.detail);
    case NodeContactState::Lost:
        return RunPanel::tr("lost: %1").arg(n.detail);
    }
    return QString();
}

// "2 training", "1 done, 1 failed": what the node's ranks do, by state, in the rank table's words.
QString ranksText(const launch::RunModel& model, int node) {
    std::map<int, int> byState;
    for (const launch::RankStatus& r : model.ranks())
        if (r.node == node) ++byState[int(r.state)];
    QStringList parts;
    for (const auto& [state, count] : byState)
        parts << QStringLiteral("%1 %2").arg(count).arg(rankStateText(launch::RankState(state)));
    return parts.join(QStringLiteral(", "));
}

} // namespace

RunNodeTable::RunNodeTable(QWidget* parent) : m_table(new QTableWidget(0, ColCount, parent)) {
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setVisible(false);
}

void RunNodeTable::retranslate() {
    m_table->setHorizontalHeaderLabels(
        {RunPanel::tr("Node"), RunPanel::tr("Host"), RunPanel::tr("Launcher"), RunPanel::tr("Ranks")});
    m_shownContact.fill(-1);
}

void RunNodeTable::update(const launch::RunModel& model, double nowT) {
    const QVector<launch::NodeStatus>& nodes = model.nodes();
    m_table->setVisible(nodes.size() > 1);
    if (m_table->rowCount() != nodes.size()) {
        m_table->setRowCount(nodes.size());
        for (int r = 0; r < nodes.size(); ++r)
            for (int c = 0; c < ColCount; ++c)
                if (!m_table->item(r, c)) m_table->setItem(r, c, new QTableWidgetItem);
        m_shownContact = QVector<int>(nodes.size(), -1);
        // Every row visible without a scroll bar (a handful of nodes), whatever room the splitter leaves.
        m_table->setFixedHeight(m_table->horizontalHeader()->sizeHint().height() +
                                m_table->verticalHeader()->defaultSectionSize() * int(nodes.size()) +
                                2 * m_table->frameWidth());
    }
    for (int i = 0; i < nodes.size(); ++i) {
        const launch::NodeStatus& n = nodes[i];
        auto set = [&](int col, const QString& text) {
            QTableWidgetItem* item = m_table->item(i, col);
            if (item->text() != text) item->setText(text);
        };
        set(ColNode, QString::number(n.node));
        set(ColHost, n.host.isEmpty() ? QStringLiteral("\u2013") : n.host);
        set(ColContact, contactText(n, nowT, model.isFinished()));
        set(ColRanks, ranksText(model, n.node));
        if (m_shownContact[i] != int(n.contact)) {
            m_shownContact[i] = int(n.contact);
            m_table->item(i, ColContact)->setForeground(contactColor(n.contact));
        }
    }
}

} // namespace ddpdesk::ui
