#include "run_loader.h"
#include "os/caught.h"

#include "launch/model/run_model.h"
#include "launch/model/run_replay.h"

#include <QThread>

namespace ddpdesk::ui {

RunLoader::RunLoader(QObject* parent) : QObject(parent) {}

RunLoader::~RunLoader() {
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
    }
}

void RunLoader::load(const QString& folder, const QString& name) {
    if (m_thread) return;
    QThread* home = thread();
    m_thread = QThread::create([this, home, folder, name] {
        auto model = std::make_shared<launch::RunModel>();
        QString error;
        launch::ReplayStats stats;
        bool ok = false;
        if (!os::runCaught(
                "replaying the run",
                [&] { ok = launch::replayRecordedRun(folder, model.get(), &error, &stats); },
                [&](const std::string& why) { error = QString::fromStdString(why); }))
            ok = false;
        const QString skipped = stats.describe();
        model->moveToThread(home); // pushed from the thread it was made in, before anyone else can see it
        // Queued to this object: if the loader is gone first, the call (and the model with it) is dropped.
        QMetaObject::invokeMethod(
            this,
            [this, model, ok, error, name, skipped] {
                finish();
                if (ok)
                    emit loaded(model, name);
                else
                    emit failed(name, error);
                if (ok && !skipped.isEmpty()) emit notice(QStringLiteral("%1: %2").arg(name, skipped));
            },
            Qt::QueuedConnection);
    });
    m_thread->start();
}

void RunLoader::finish() {
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
}

} // namespace ddpdesk::ui
