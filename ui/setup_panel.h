#pragma once

// The Setup page: every RunConfig field as a widget, validated as it is edited (RunConfig::validate is the
// one rule book), with Start disabled and the reason shown until the configuration can start.

#include "launch/config/run_config.h"

#include <QHash>
#include <QVector>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QStackedWidget;
class QTimer;
class QToolButton;

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
    void setGpus(const QVector<GpuChoice>& gpus); // refreshes names/utilization, keeps the user's ticks
    void setTcpPort(int port);                    // the doctor's "pick a free port" fix lands here

    QVector<launch::ConfigProblem> problems() const { return m_problems; }
    QString problemText() const; // what the reason label shows
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
    static constexpr const char* kScriptWorkload =
        "script"; // the workload combo's entry for the user's own script

    void build();
    // build()'s parts, called in this order: the order widgets join the page is its default tab order.
    void buildWorkloadBox();
    void buildDevicesBox();
    void buildStoreBox();
    void buildTrainingBox();
    void buildActionWidgets(); // the reason line and the buttons under the columns
    void arrangePage();
    void connectFieldChanges(); // every edit: updateEnabled(), revalidate soon, configChanged()
    void connectButtons();
    void retranslate();
    void updateEnabled();
    void browseInto(QLineEdit* edit, bool folder, const QString& filter = QString());
    void copyCommand(const QString& formatName);
    void markProblemFields();
    QWidget* withBrowse(QLineEdit* edit, QPushButton** button);

    // Workload
    QGroupBox* m_workloadBox;
    QComboBox* m_workload;
    QLineEdit* m_modelFile;
    QLineEdit* m_scriptFile;
    QLineEdit* m_scriptArgs;
    QLineEdit* m_workDir; // where script ranks run; empty: the script's folder
    QPushButton* m_workDirBrowse;
    QLineEdit* m_dataDir;
    QPushButton* m_modelBrowse;
    QPushButton* m_scriptBrowse;
    QPushButton* m_dataBrowse;
    QFormLayout* m_workloadForm;
    // Devices
    QGroupBox* m_devicesBox;
    QRadioButton* m_useCpu;
    QRadioButton* m_useGpu;
    QSpinBox* m_nproc;
    QListWidget* m_gpuList;
    QLabel* m_gpuNote;
    QSpinBox* m_nnodes;
    QSpinBox* m_nodeRank;
    QLineEdit* m_runSecret; // nodes > 0: node 0's run secret; never saved in a profile
    QComboBox* m_backend;
    QFormLayout* m_devicesForm;
    // Rendezvous
    QGroupBox* m_storeBox;
    QRadioButton* m_fileStore;
    QRadioButton* m_tcpStore;
    QLineEdit* m_storePath;
    QPushButton* m_storeBrowse;
    QLineEdit* m_tcpHost;
    QSpinBox* m_tcpPort;
    QFormLayout* m_storeForm;
    // Training
    QGroupBox* m_trainBox;
    QComboBox* m_lengthKind;
    QSpinBox* m_length;
    QSpinBox* m_batch;
    QSpinBox* m_accumulate;
    QComboBox* m_precision;
    QComboBox* m_compression;
    QDoubleSpinBox* m_lr;
    QSpinBox* m_checkpointEvery;
    QCheckBox* m_resume;
    QCheckBox* m_tensorboard;
    QSpinBox* m_maxRestarts;
    QLineEdit* m_runsFolder;
    QPushButton* m_runsBrowse;
    QFormLayout* m_trainForm;
    // Actions
    QLabel* m_reasonIcon;
    QLabel* m_reason;
    QPushButton* m_start;
    QPushButton* m_demo;
    QToolButton* m_copyAs;
    QPushButton* m_saveProfile;
    QPushButton* m_loadProfile;
    QTimer* m_validateTimer;

    QVector<launch::ConfigProblem> m_problems;
    QHash<QString, QWidget*> m_fieldWidgets; // RunConfig field name -> widget to highlight
    bool m_running = false;
};

} // namespace ddpdesk::ui
