#pragma once

// Owns the stall watch: its once-a-second timer, whether the current stall was reported already, and the link
// to the doctor diagnosing it off the event loop. When ranks stop making progress it says which ones are
// behind (by their step counters), asks them for their stacks and has the doctor look at the store.

#include "launch/config/run_config.h"
#include "launch/model/run_model.h"
#include "launch/watch/background_doctor.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QString>
#include <QTimer>

#include "doctor/doctor.h"

#include <functional>

namespace ddpdesk::launch {

class StallWatch {
    Q_DECLARE_TR_FUNCTIONS(ddpdesk::launch::Supervisor) // its texts keep the Supervisor's translations

public:
    struct Hooks {
        std::function<bool()> live; // the run is on: not stopping, no restart pending
        std::function<doctor::DoctorRequest()> diagnosisRequest; // what the doctor looks at (the live store)
        std::function<void(const QString&)> stacks; // asks the ranks for their stacks, with this reason
        // The report (lagging ranks + the doctor's findings, as text) and the `stall` event's fields.
        std::function<void(const QString& report, const QJsonObject& event)> diagnosed;
    };

    // owner: the context the doctor's answer is delivered in (gone with it).
    StallWatch(QObject& owner, const RunConfig& config, const RunModel& model, Hooks hooks);

    void start(); // checks every second while config.stallTimeoutSec > 0
    void stop() { m_timer.stop(); }
    void rearm() { m_reported = false; }         // a new attempt: its stall is reported again
    void abandonDoctor() { m_doctor.abandon(); } // a diagnosis still running: its answer is dropped

private:
    void check();

    QObject& m_owner;
    const RunConfig& m_config;
    const RunModel& m_model;
    Hooks m_hooks;
    QTimer m_timer;
    bool m_reported = false;
    BackgroundDoctor m_doctor; // abandoned with the watch: its answer is dropped
};

} // namespace ddpdesk::launch
