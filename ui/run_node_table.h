#pragma once

// The Run page's per-node table of a multi-node run, shown on node 0 above the rank table: each node's host,
// its launcher's contact (this launcher, waiting, connected, no contact for N s, ended with its run's status,
// lost with why) and what its ranks do. Hidden for a single-node run and on the other nodes, which show only
// their own ranks.

#include <QVector>

class QTableWidget;
class QWidget;

namespace ddpdesk::launch {
class RunModel;
}

namespace ddpdesk::ui {

class RunNodeTable {
public:
    enum Column { ColNode, ColHost, ColContact, ColRanks, ColCount };

    explicit RunNodeTable(QWidget* parent = nullptr);

    QTableWidget* widget() const { return m_table; }
    void retranslate();
    // nowT: unix seconds, for "no contact for N s" (the model's clock in a replay is frozen at its end).
    void update(const launch::RunModel& model, double nowT);

private:
    QTableWidget* m_table;
    QVector<int> m_shownContact; // per row, the contact state drawn last (-1: none yet)
};

} // namespace ddpdesk::ui
