#pragma once

// The Run page's widgets: layOutRunPanel() makes them, lays them out on the panel around the rank table and
// the charts it is given, and hands them back. It keeps nothing and connects nothing: RunPanel holds the
// result and does the wiring and the rendering (run_panel.cpp).

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSlider;
class QSplitter;
class QTabWidget;
class QWidget;

namespace ddpdesk::ui {

class RunChartFeed;
class RunFailureBanner;

struct RunPanelWidgets {
    QPushButton* start = nullptr;
    QPushButton* stop = nullptr;
    QPushButton* stacks = nullptr; // Where does it hang? (script ranks' Python stacks into the log)
    QLabel* status = nullptr;
    QProgressBar* progress = nullptr;
    RunFailureBanner* banner = nullptr;
    QTabWidget* tabs = nullptr; // Charts, Logs
    QSplitter* split = nullptr; // the tables above, the tabs below
    QSlider* smoothing = nullptr;
    QLabel* smoothingLabel = nullptr;
    QComboBox* logRank = nullptr;
    QPlainTextEdit* log = nullptr;
};

RunPanelWidgets layOutRunPanel(QWidget& panel, QWidget* nodeTable, QWidget* rankTable,
                               const RunChartFeed& charts, int maxLogLines);

} // namespace ddpdesk::ui
