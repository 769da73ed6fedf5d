#pragma once

// The Compare page: a scaling sweep (core/launch's SweepRunner) over worker counts or GPU sets, shown as
// speedup against the ideal line, efficiency, and loss against wall time per size; exports CSV and PNG. A
// setting can be compared at every size too (precision fp32 vs bf16, gradient compression): one row each.

#include "charts/line_chart.h"
#include "launch/config/run_config.h"
#include "launch/run/sweep.h"

#include <QWidget>

#include <functional>
#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace ddpdesk::ui {

class ComparePanel : public QWidget {
    Q_OBJECT
public:
    explicit ComparePanel(QWidget* parent = nullptr);
    ~ComparePanel() override;

    // Where the base configuration comes from (the Setup page).
    void setConfigProvider(std::function<launch::RunConfig()> provider) { m_provider = std::move(provider); }
    // The window's waiting workers, or null when the user switched them off (launch/warm_workers.h).
    void setWarmWorkersProvider(std::function<launch::WarmWorkers*()> provider) {
        m_warmProvider = std::move(provider);
    }
    // compare: "" or "SETTING=V1,V2" (launch::compareSetting); the GUI offers a few from its combo box.
    bool startSweep(const QString& sizesText, const QString& compare = QString());
    void setCompare(const QString& compare); // selects that choice in the combo box
    void stopSweep();
    bool isRunning() const;
    void showRows(const QVector<launch::SweepRow>& rows); // also used to show a finished sweep
    bool exportCsv(const QString& path, QString* error) const;
    bool exportPng(const QString& path, QString* error) const;
    QTableWidget* table() const { return m_table; }
    QString statusText() const;

signals:
    void sweepStarted(launch::Supervisor* run); // each size's run, so the Run page can follow it
    void sweepFinished(bool ok);
    void message(const QString& text);

protected:
    void changeEvent(QEvent* e) override;

private:
    void build();
    void retranslate();
    void updateButtons();

    std::function<launch::WarmWorkers*()> m_warmProvider;
    std::function<launch::RunConfig()> m_provider;
    std::unique_ptr<launch::SweepRunner> m_runner;
    QVector<launch::SweepRow> m_rows;
    bool m_sweeping = false; // from start to SweepRunner::finished, including the gaps between sizes
    QLabel* m_sizesLabel;
    QLineEdit* m_sizes;
    QLabel* m_compareLabel;
    QComboBox* m_compare;
    QPushButton* m_run;
    QPushButton* m_stop;
    QPushButton* m_csv;
    QPushButton* m_png;
    QLabel* m_status;
    QTableWidget* m_table;
    std::unique_ptr<LineChart> m_speedup, m_loss;
};

} // namespace ddpdesk::ui
