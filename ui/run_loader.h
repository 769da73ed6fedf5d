#pragma once

// Reopens a recorded run off the UI thread: replaying a long recording (100,000 steps of 8 ranks) takes
// seconds, and the window must keep painting and answering meanwhile.

#include <QObject>
#include <QString>

#include <memory>

class QThread;

namespace ddpdesk::launch {
class RunModel;
}

namespace ddpdesk::ui {

class RunLoader : public QObject {
    Q_OBJECT
public:
    explicit RunLoader(QObject* parent = nullptr);
    ~RunLoader() override; // waits for a replay in progress

    bool isLoading() const { return m_thread != nullptr; }
    // Replays folder/metrics.jsonl in a background thread; ignored while another replay runs (isLoading()).
    void load(const QString& folder, const QString& name);

signals:
    // Delivered on this object's thread; the model lives there too.
    void loaded(std::shared_ptr<ddpdesk::launch::RunModel> model, const QString& name);
    void failed(const QString& name, const QString& error);
    // After loaded, when the replay skipped damaged lines (ReplayStats::describe()), for the status bar.
    void notice(const QString& text);

private:
    void finish();

    QThread* m_thread = nullptr;
};

} // namespace ddpdesk::ui
