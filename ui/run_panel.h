#pragma once

// The Run page: renders a RunModel (live from a Supervisor, or a finished run reopened from History). Model
// signals only mark what changed; a 4 Hz timer redraws, one chart per tick, so 10,000 telemetry events/s cost
// the UI thread little beyond RunModel's own bookkeeping. The pieces: RunRankTable (per-rank table),
// RunFailureBanner, RunChartFeed (the four charts), RunLogBuffer (per-rank logs); layOutRunPanel()
// (run_panel_layout.cpp) makes the widgets and puts them together.

#include "launch/run/supervisor.h"
#include "run_log_buffer.h"
#include "run_panel_layout.h"

#include <QPointer>
#include <QWidget>

#include <memory>

class QTableWidget;
class QTabWidget;
class QTimer;

namespace ddpdesk::ui {

class RunChartFeed;
class RunRankTable;
class RunNodeTable;

class RunPanel : public QWidget {
    Q_OBJECT
public:
    static constexpr int kRefreshMs = 250;
    static constexpr int kMaxLogLines = 5000; // per rank

    explicit RunPanel(QWidget* parent = nullptr);
    ~RunPanel() override;

    void attach(launch::Supervisor* supervisor); // a live run
    void watch(const launch::RunModel* model);   // a live model without a supervisor (replays, bench)
    void showModel(const launch::RunModel* model, const QString& title); // a finished one (read-only)
    const launch::RunModel* model() const { return m_model; }
    void setStartEnabled(bool enabled, const QString& reason);

    // For tests and the screenshot script.
    QTableWidget* rankTable() const;
    QTableWidget* nodeTable() const;
    bool failureVisible() const;
    QString failureText() const;
    QString statusText() const;
    QString logText() const;
    void selectLogRank(int index);
    void showStacks(); // "Show stacks": asks every rank where it hangs; the answers go to the launcher's log
    void refreshNow(); // everything, charts drawn before it returns
    QTabWidget* tabs() const { return m_ui.tabs; }

signals:
    void startRequested();
    void stopRequested();
    void diagnoseRequested(int failedRank);

protected:
    void changeEvent(QEvent* e) override;

private:
    void connectWidgets();
    void retranslate();
    void connectModel(const launch::RunModel* model);
    void resetViews();
    void refresh();
    void refreshStatus();
    void flushLogs();
    void onLog(int index, const QString& text, bool isStderr);
    void onMonitorSample();
    void showFailure(int rank, const QString& reason);
    double smoothing() const;

    QPointer<launch::Supervisor> m_supervisor;
    const launch::RunModel* m_model = nullptr;
    QString m_title;

    RunPanelWidgets m_ui; // made by layOutRunPanel()
    std::unique_ptr<RunRankTable> m_table;
    std::unique_ptr<RunNodeTable> m_nodes; // a multi-node run's nodes, on node 0
    std::unique_ptr<RunChartFeed> m_charts;
    QTimer* m_timer;

    RunLogBuffer m_logs{kMaxLogLines}; // per index; index rankCount: launcher messages
    bool m_dirtyTable = false, m_dirtyStatus = false;
};

} // namespace ddpdesk::ui
