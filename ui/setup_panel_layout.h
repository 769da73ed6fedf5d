#pragma once

// The Setup page's widgets: layOutSetupPanel() makes them, lays them out on the panel in tab order and hands
// them back; onEveryEdit() names which of them are fields. It keeps nothing and decides nothing: SetupPanel
// holds the result, gives it its texts and does the behaviour (setup_panel.cpp: config, validation,
// profiles).

#include <functional>

class QObject;
class QWidget;
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
class QToolButton;

namespace ddpdesk::ui {

// The workload combo's entry for the user's own script.
inline constexpr const char* kScriptWorkload = "script";

struct SetupPanelWidgets {
    // Workload
    QGroupBox* workloadBox = nullptr;
    QComboBox* workload = nullptr;
    QLineEdit* modelFile = nullptr;
    QLineEdit* scriptFile = nullptr;
    QLineEdit* scriptArgs = nullptr;
    QLineEdit* workDir = nullptr; // where script ranks run; empty: the script's folder
    QPushButton* workDirBrowse = nullptr;
    QLineEdit* dataDir = nullptr;
    QPushButton* modelBrowse = nullptr;
    QPushButton* scriptBrowse = nullptr;
    QPushButton* dataBrowse = nullptr;
    QFormLayout* workloadForm = nullptr;
    // Devices
    QGroupBox* devicesBox = nullptr;
    QRadioButton* useCpu = nullptr;
    QRadioButton* useGpu = nullptr;
    QSpinBox* nproc = nullptr;
    QListWidget* gpuList = nullptr;
    QLabel* gpuNote = nullptr;
    QSpinBox* nnodes = nullptr;
    QSpinBox* nodeRank = nullptr;
    QLineEdit* runSecret = nullptr; // nodes > 0: node 0's run secret; never saved in a profile
    QCheckBox* nodeLink = nullptr;  // multi-node: every node's ranks on node 0 (RunConfig::nodeLink)
    QComboBox* backend = nullptr;
    QFormLayout* devicesForm = nullptr;
    // Rendezvous
    QGroupBox* storeBox = nullptr;
    QRadioButton* fileStore = nullptr;
    QRadioButton* tcpStore = nullptr;
    QLineEdit* storePath = nullptr;
    QPushButton* storeBrowse = nullptr;
    QLineEdit* tcpHost = nullptr;
    QSpinBox* tcpPort = nullptr;
    QFormLayout* storeForm = nullptr;
    // Training
    QGroupBox* trainBox = nullptr;
    QComboBox* lengthKind = nullptr;
    QSpinBox* length = nullptr;
    QSpinBox* batch = nullptr;
    QSpinBox* accumulate = nullptr;
    QComboBox* precision = nullptr;
    QComboBox* compression = nullptr;
    QDoubleSpinBox* lr = nullptr;
    QSpinBox* checkpointEvery = nullptr;
    QCheckBox* resume = nullptr;
    QCheckBox* tensorboard = nullptr;
    QSpinBox* maxRestarts = nullptr;
    QLineEdit* runsFolder = nullptr;
    QPushButton* runsBrowse = nullptr;
    QFormLayout* trainForm = nullptr;
    // Actions
    QLabel* reasonIcon = nullptr;
    QLabel* reason = nullptr;
    QPushButton* start = nullptr;
    QPushButton* demo = nullptr;
    QToolButton* copyAs = nullptr;
    QPushButton* saveProfile = nullptr;
    QPushButton* loadProfile = nullptr;
};

SetupPanelWidgets layOutSetupPanel(QWidget& panel);

// Calls `changed` (in `context`) on every edit of any field: text, number, choice, tick, GPU checked.
void onEveryEdit(const SetupPanelWidgets& w, QObject* context, const std::function<void()>& changed);

} // namespace ddpdesk::ui
