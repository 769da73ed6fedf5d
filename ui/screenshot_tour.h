#pragma once

// Drives the real window through every page during a real run and saves one PNG per view; used by
// tests/ui/screenshots.sh (under Xvfb) to produce docs/screenshots/. Each step waits for a condition with a
// timeout, so a run that never starts produces a clear message and a non-zero exit instead of a hang.

#include <QObject>
#include <QString>

#include <functional>

class QWidget;

namespace ddpdesk::ui {

class MainWindow;

class ScreenshotTour : public QObject {
    Q_OBJECT
public:
    ScreenshotTour(MainWindow* window, const QString& outDir, QObject* parent = nullptr);
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
    void next();
    void poll();
    void grab(const QString& name);
    void grabWidget(QWidget* w, const QString& name);

    MainWindow* m_window;
    QString m_dir;
    QVector<Step> m_steps;
    int m_index = -1;
    qint64 m_stepStart = 0;
};

} // namespace ddpdesk::ui
