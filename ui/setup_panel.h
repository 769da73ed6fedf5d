#pragma once

// The Setup page: every RunConfig field as a widget, validated as it is edited (RunConfig::validate is the
// one rule book), with Start disabled and the reason shown until the configuration can start.

#include "launch/config/run_config.h"
#include "setup_panel_layout.h"

#include <QHash>
#include <QVector>
#include <QWidget>

class QEvent;
class QLineEdit;
class QTimer;

namespace ddpdesk::ui {

struct GpuChoice {
    int index = 0;
    QString name;
    double utilPercent = -1; // -1: unknown
    double memUsedMiB = -1;
    double memTotalMiB = -1;
};

class SetupPanel : public QWidget {
    Q_OBJECT
public:
    explicit SetupPanel(QWidget* parent = nullptr);

    launch::RunConfig config() const; // outDir is a fresh folder under runsFolder()
    void setConfig(const launch::RunConfig& config);
    QString runsFolder() const;
    void setRunsFolder(const QString& folder);
    // Refreshes names/utilization, keeps the user's ticks. The first list with a GPU selects GPUs (every one,
    // or those of a GPU configuration set before the list came): a GPU machine trains on its GPUs.
    void setGpus(const QVector<GpuChoice>& gpus);
    QVector<int> gpuIndices() const; // the GPUs listed, ticked or not (what Run demo trains on)
    void setTcpPort(int port);       // the doctor's "pick a free port" fix lands here

    QVector<launch::ConfigProblem> problems() const { return m_problems; }
    QString problemText() const; // what the reason label shows
    // The widget a problem naming each flag tints ("nproc", "batch-size", "port"...).
    QHash<QString, QWidget*> problemFieldWidgets() const;
    bool canStart() const { return m_problems.isEmpty() && !m_running; }
    void setRunning(bool running);

    bool saveProfile(const QString& path, QString* error) const;
    bool loadProfile(const QString& path, QString* error);
    QString commandText(const QString& formatName) const; // torchrun|mpirun|slurm|hpcpack

signals:
    void startRequested(const launch::RunConfig& config);
    void demoRequested();
    void configChanged();
    void message(const QString& text); // for the status bar

public slots:
    void revalidate();

protected:
    void changeEvent(QEvent* e) override;

private:
    void connectButtons();
    void retranslate();
    void updateEnabled();
    void browseInto(QLineEdit* edit, bool folder, const QString& filter = QString());
    void copyCommand(const QString& formatName);
    void markProblemFields();

    SetupPanelWidgets m_ui; // made by layOutSetupPanel()
    QTimer* m_validateTimer;

    QVector<launch::ConfigProblem> m_problems;
    QHash<QString, QWidget*> m_fieldWidgets; // a problem's field (a flag's name) -> widget to highlight
    bool m_running = false;
    // The GPUs of a configuration set before NVML's list came (a restored profile): ticked when it comes.
    QVector<int> m_wantedGpus;
};

} // namespace ddpdesk::ui
