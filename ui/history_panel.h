#pragma once

// The History page: finished runs found in the runs folder (a sweep's sizes included) and the ones opened
// from elsewhere, their summaries, and their loss curves; select one to reopen it, several to compare them on
// one chart.

#include "charts/line_chart.h"
#include "run_history.h"

#include <QWidget>

#include <memory>

class QLabel;
class QPushButton;
class QTableWidget;

namespace ddpdesk::ui {

class HistoryPanel : public QWidget {
    Q_OBJECT
public:
    explicit HistoryPanel(QWidget* parent = nullptr);
    ~HistoryPanel() override;

    void setRunsFolder(const QString& folder);
    QString runsFolder() const { return m_folder; }
    void refresh();
    // Lists a run folder kept anywhere (or a sweep's sizes) beside the runs folder's and selects it. False
    // with *error when it is no run folder; the page then says why in place of the details.
    bool openRun(const QString& folder, QString* error = nullptr);
    const QVector<RunRecord>& runs() const { return m_runs; }
    void selectRuns(const QVector<int>& rows);
    QTableWidget* table() const { return m_table; }
    QString detailsText() const;
    bool isReading() const { return m_reading; } // curves of the selection still being read
    QPushButton* showInRunButton() const { return m_showInRun; }

signals:
    // The user asked to reopen one run on the Run page (the main window replays it there).
    void showRunRequested(const QString& folder, const QString& name);

protected:
    void changeEvent(QEvent* e) override;

private:
    void build();
    void retranslate();
    void showSelection();

    QString m_folder;
    QStringList m_opened; // folders opened from outside the runs folder, listed again on every refresh
    QVector<RunRecord> m_runs;
    QLabel* m_folderLabel;
    QPushButton* m_refresh;
    QPushButton* m_open;
    QPushButton* m_showInRun;
    QTableWidget* m_table;
    QLabel* m_details;
    std::unique_ptr<LineChart> m_chart;
    CurveCache* m_curves;
    bool m_reading = false;
};

} // namespace ddpdesk::ui
