#pragma once

// Node 0 of a multi-node run: a node whose launcher never connected may still have ranks in the job, started
// by another launcher (torchrun, mpirun, a script). Every few seconds while such a node is waiting, the
// doctor reads which ranks the store shows (off the event loop, bounded); the ones of a waiting node are
// reported once (again when the set grows), so node 0 shows them as known from the store only.

#include "launch/watch/background_doctor.h"

#include <QMap>
#include <QObject>
#include <QTimer>
#include <QVector>

#include <functional>

namespace ddpdesk::launch {

class RunModel;

class StoreCensusWatch {
public:
    static constexpr int kFirstLookMs = 5000, kIntervalMs = 10000;

    struct Hooks {
        std::function<bool()> live;                              // the run is on
        std::function<doctor::DoctorRequest()> diagnosisRequest; // the live store, with the nodes' reports
        std::function<void(int node, const QVector<int>& ranks)> seenInStore; // a waiting node's ranks
    };

    StoreCensusWatch(QObject& owner, const RunModel& model, Hooks hooks);
    void start(); // on node 0 of a multi-node run
    void stop();

private:
    void look();
    void answered(const BackgroundDoctor::Answer& a);

    const RunModel& m_model;
    Hooks m_hooks;
    QTimer m_timer;
    BackgroundDoctor m_doctor;
    QMap<int, QVector<int>> m_said; // node -> the ranks reported so far
};

// The ranks the doctor's findings (its `findings` JSON) say reached the store: all of a RANKS_COMPLETE's
// world, or RANKS_MISSING's `arrived`; false when they do not name them.
bool storeArrivedRanks(const QJsonObject& findings, int worldSize, QVector<int>* arrived);

} // namespace ddpdesk::launch
