#pragma once

// Owns the live straggler warning: once a second it asks the model (model/straggler.h) whether a rank has
// stayed slower than the fastest rank for --straggler-after seconds, and says so once per rank until it
// catches up: which rank, how much slower, what is slow (compute or data loading), with what its process
// does (CPU share, threads) and its GPU's readings beside it. A message (the CLI, the launcher log), a
// `diagnosis` event STRAGGLER in metrics.jsonl, and the Run page's banner while nothing worse is shown.

#include "launch/model/run_model.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QTimer>

#include <functional>

namespace ddpdesk::launch {

class StragglerWatch {
    Q_DECLARE_TR_FUNCTIONS(ddpdesk::launch::Supervisor) // its texts keep the Supervisor's translations

public:
    struct Hooks {
        std::function<bool()> live; // the run is on: not stopping, no restart pending
        std::function<void(const QString&)> message;
        std::function<void(int rank, const QJsonObject& fields)> event; // a `diagnosis` event
        std::function<int(int index)> gpuOf; // the GPU index of a local rank; -1: on the CPU
    };

    StragglerWatch(QObject& owner, RunModel& model, Hooks hooks);

    void start(bool on); // on: --straggler-after > 0
    void stop() { m_timer.stop(); }

private:
    void check();
    void report(const StragglerWarning& w);

    QObject& m_owner;
    RunModel& m_model;
    Hooks m_hooks;
    QTimer m_timer;
};

} // namespace ddpdesk::launch
