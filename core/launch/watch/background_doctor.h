#pragma once

// The doctor, asked off the event loop: it probes the network with timeouts, so a watch (the stall watch, the
// hold-up watch) hands it a request and goes on. The answer comes back on the owner's thread, or never once
// the asker is gone or has abandoned it: quitting never waits for a diagnosis (it ends by its own deadline
// anyway).

#include "doctor/doctor.h"

#include <QJsonObject>
#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>

namespace ddpdesk::launch {

class BackgroundDoctor {
public:
    struct Answer {
        QString text;     // the findings as the CLI prints them; empty when the doctor could not run
        QJsonObject json; // the findings (`doctor` in an event)
        QString error;    // why it could not run
    };

    explicit BackgroundDoctor(QObject& owner) : m_owner(owner) {}
    ~BackgroundDoctor() { abandon(); }
    BackgroundDoctor(const BackgroundDoctor&) = delete;
    BackgroundDoctor& operator=(const BackgroundDoctor&) = delete;

    bool busy() const { return m_busy; }
    // One diagnosis at a time: false (nothing asked) while one runs.
    bool ask(const doctor::DoctorRequest& request, std::function<void(const Answer&)> done);
    void abandon(); // the diagnosis running now answers nobody

private:
    struct Link;
    QObject& m_owner;
    std::shared_ptr<Link> m_link;
    std::atomic<bool> m_busy{false};
};

} // namespace ddpdesk::launch
