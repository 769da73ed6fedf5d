#include "launch/watch/background_doctor.h"

#include "launch/model/json_bridge.h"

#include <QCoreApplication>

#include <mutex>
#include <thread>

namespace ddpdesk::launch {

// How the detached thread finds its asker: cut (doctor null) by abandon() and the destructor, under the lock
// the thread posts its answer under, so the asker cannot be destroyed in between; Qt drops an event posted to
// an owner destroyed before it runs.
struct BackgroundDoctor::Link {
    std::mutex mutex;
    BackgroundDoctor* doctor = nullptr;
};

bool BackgroundDoctor::ask(const doctor::DoctorRequest& request, std::function<void(const Answer&)> done) {
    if (m_busy) return false;
    m_busy = true;
    m_link = std::make_shared<Link>();
    m_link->doctor = this;
    std::thread([link = m_link, owner = &m_owner, request, done = std::move(done)] {
        Answer answer;
        try {
            const auto findings = doctor::diagnose(request);
            answer.text = QString::fromStdString(doctor::toText(findings));
            answer.json = toQtJson(doctor::toJson(findings));
        } catch (const std::exception& e) {
            answer.error = QString::fromUtf8(e.what());
        } catch (...) { // a thread that throws ends the process: named instead
            answer.error = QStringLiteral("the doctor ended by an exception that is not a std::exception");
        }
        std::lock_guard<std::mutex> lock(link->mutex);
        if (!link->doctor) return;
        QMetaObject::invokeMethod(
            owner,
            [link, done, answer] {
                BackgroundDoctor* asker = nullptr;
                {
                    std::lock_guard<std::mutex> again(link->mutex);
                    asker = link->doctor;
                }
                if (!asker) return;
                asker->m_busy = false;
                done(answer);
            },
            Qt::QueuedConnection);
    }).detach();
    return true;
}

void BackgroundDoctor::abandon() {
    if (!m_link) return;
    std::lock_guard<std::mutex> lock(m_link->mutex);
    m_link->doctor = nullptr;
    m_busy = false;
}

} // namespace ddpdesk::launch
