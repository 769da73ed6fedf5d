#pragma once

// The Run page: renders a RunModel (live from a Supervisor, or a finished run reopened from History). Model
// signals only mark what changed; a 4 Hz timer repaints, so 10,000 telemetry events/s cost the UI thread almost
// nothing beyond RunModel's own bookkeeping.

#include "charts/line_chart.h"
#include "launch/supervisor.h"

#include <QHash>
#include <QPointer>
#include <QStringList>
#include <QVector>
#include <QWidget>

#include <memory>

class QComboBox;
class QFrame;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSlider;
class QTableWidget;
class QTabWidget;
class QTimer;


namespace ddpdesk::ui {

class RunPanel : public QWidget {
    Q_OBJECT
public:
    static constexpr int kRefreshMs = 250;
    static constexpr int kMaxChartPoints = 500; // per series on screen: ~1 point per 2 px of a typical chart
    static constexpr int kCharts = 4;           // one chart repaints per refresh tick: each at 1 Hz, the cost spread
    static constexpr int kMaxLogLines = 5000;   // per rank

    explicit RunPanel(QWidget* parent = nullptr);
    ~RunPanel() override;

    void attach(launch::Supervisor* supervisor);                // a live run
    void watch(const launch::RunModel* model);                  // a live model without a supervisor (replays, bench)
    void showModel(const launch::RunModel* model, const QString& title); // a finished one (read-only)
    const launch::RunModel* model() const { return m_model; }
    void setStartEnabled(bool enabled, const QString& reason);

    // For tests and the screenshot script.
    QTableWidget* rankTable() const { return m_table; }
    bool failureVisible() const;
    QString failureText() const;
    QString statusText() const;
    QString logText() const;
    void selectLogRank(int index);
    void refreshNow();
    QTabWidget* tabs() const { return m_tabs; }

signals:
    void startRequested();
    void stopRequested();
    void diagnoseRequested(int failedRank);

protected:
    void changeEvent(QEvent* e) override;

private:
    enum Column { ColRank, ColState, ColStep, ColLoss, ColRate, ColComm, ColPid, ColExit, ColCount };

    void build();
    void retranslate();
    void connectModel(const launch::RunModel* model);
    void resetViews();
    void refresh();
    void refreshTable();
    void refreshChart(int which); // 0 loss, 1 throughput, 2 utilization, 3 memory
    bool refreshNextChart();
    void refreshStatus();
    void flushLogs();
    void onLog(int index, const QString& text, bool isStderr);
    void onMonitorSample();
    void showFailure(int rank, const QString& reason);

    QPointer<launch::Supervisor> m_supervisor;
    const launch::RunModel* m_model = nullptr;
    QString m_title;

    QPushButton* m_start;
    QPushButton* m_stop;
    QLabel* m_status;
    QProgressBar* m_progress;
    QFrame* m_banner;
    QLabel* m_bannerText;
    QPushButton* m_diagnose;
    QPushButton* m_showLog;
    QTableWidget* m_table;
    QTabWidget* m_tabs;
    QSlider* m_smoothing;
    QLabel* m_smoothingLabel;
    QComboBox* m_logRank;
    QPlainTextEdit* m_log;
    QTimer* m_timer;
    std::unique_ptr<LineChart> m_lossChart, m_rateChart, m_utilChart, m_memChart;
    QVector<int> m_lossIds, m_rateIds;
    int m_meanId = -1;
    QHash<QString, int> m_utilIds, m_memIds; // per GPU or per worker
    QHash<QString, QVector<QPointF>> m_utilSeries, m_memSeries;
    bool m_monitorIsGpu = false;

    QVector<QStringList> m_logs;    // per index; index rankCount: launcher messages
    QVector<QStringList> m_pending; // not yet in the view
    int m_failedRank = -1;
    int m_chartTurn = 0;
    bool m_dirtyChart[kCharts] = {false, false, false, false};
    bool m_dirtyTable = false, m_dirtyStatus = false;
};

} // namespace ddpdesk::ui
