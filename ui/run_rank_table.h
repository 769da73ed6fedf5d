#pragma once

// The Run page's per-rank status table (state, step, loss, samples/s, comm-wait share, own work against the
// fastest rank's, the collective it is in with its last
// collectives as a tooltip, PID, exit). Refreshed
// from a RunModel a few times a second; only cells whose text or state changed are touched, so a refresh of
// an unchanged row costs no repaint.

#include <QString>
#include <QVector>

class QTableWidget;
class QWidget;

namespace ddpdesk::launch {
class RunModel;
struct StragglerScore;
struct RankStatus;
enum class RankState;
} // namespace ddpdesk::launch

namespace ddpdesk::ui {

QString rankStateText(launch::RankState s); // "training", translated

class RunRankTable {
public:
    enum Column {
        ColRank,
        ColState,
        ColStep,
        ColLoss,
        ColRate,
        ColComm,
        ColStraggler,
        ColCollective,
        ColNode, // where it runs: "0 (host)"; other nodes' ranks show on node 0 of a multi-node run
        ColPid,
        ColExit,
        ColCount
    };

    explicit RunRankTable(QWidget* parent = nullptr);

    QTableWidget* widget() const { return m_table; }
    void retranslate();
    void setRowCount(int rows); // one row per local rank, items created once
    void update(const launch::RunModel& model);

private:
    void showStraggler(int row, const launch::StragglerScore& s);
    static QString collectiveHistoryText(const launch::RankStatus& r);

    QTableWidget* m_table;
    void showNodeGroup(int row, int node, bool multiNode);

    QVector<int> m_shownState; // per row, the RankState drawn last (-1: none yet)
    QVector<int> m_shownGroup; // per row, the node group its background shows (-1: none yet)
};

} // namespace ddpdesk::ui
