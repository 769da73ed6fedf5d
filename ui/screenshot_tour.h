#pragma once

// Drives the real window through every page during a real run and saves one PNG per view; used by
// tests/ui/screenshots.sh (under Xvfb) to produce docs/screenshots/. Each step waits for a condition with a
// timeout, so a run that never starts produces a clear message and a non-zero exit instead of a hang.

#include <QObject>
#include <QString>

#include <functional>
#include <memory>

class QProcess;

class QWidget;

namespace ddpdesk::ui {

class MainWindow;

class ScreenshotTour : public QObject {
    Q_OBJECT
public:
    // tour: "all" (every page), or "nodes" (only node 0's Run page during a 2 x 2 run).
    ScreenshotTour(MainWindow* window, const QString& outDir, const QString& tour = QStringLiteral("all"),
                   QObject* parent = nullptr);
    void start();
    // Paints the application icon (same drawing as the window icon) into a PNG.
    static bool exportAppIcon(const QString& path, int size);
    // Writes a FileStore as c10d leaves it after a crashed run (two keys, an hour old): the doctor's
    // FILESTORE_STALE.
    static bool writeStaleStore(const QString& path);

signals:
    void finished(int exitCode);

private:
    struct Step {
        QString what;
        std::function<bool()> ready; // polled every 100 ms
        std::function<void()> action;
        int timeoutMs;
    };
    void add(const QString& what, std::function<bool()> ready, std::function<void()> action,
             int timeoutMs = 10000);
    // Node 0's Run page during a 2 x 2 run whose node 1 is a ddpdesk-cli beside this window (screenshot
    // "run-nodes"; screenshot_tour_nodes.cpp).
    void addMultiNodeRun(const QString& tmpDir);
    void next();
    void poll();
    void grab(const QString& name);
    void grabWidget(QWidget* w, const QString& name);

    MainWindow* m_window;
    QString m_dir;
    QVector<Step> m_steps;
    std::shared_ptr<QProcess> m_otherNode; // the multi-node run's node 1
    int m_index = -1;
    qint64 m_stepStart = 0;
};

} // namespace ddpdesk::ui
