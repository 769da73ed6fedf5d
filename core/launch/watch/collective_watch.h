#pragma once

// Owns the live hold-up watch: once a second it reads every live rank's collective record
// (protocol/collective_progress.h), asks diagnose/hold_up.h whether someone holds the run up, and says so
// once per hold-up, within seconds rather than at the stall timeout: a message (the CLI, the launcher log), a
// `diagnosis` event in metrics.jsonl and the model's live diagnosis (the Run page's banner and per-rank
// collective column; summary.json's diagnosis when the run then fails or is stopped). For a rank behind it
// first asks the ranks for their stacks and names where the late rank is in its own code; when every rank
// here waits, it then has the doctor read the store (which node's ranks arrived, which port answers) and says
// that too.

#include "launch/diagnose/hold_up.h"
#include "launch/model/run_model.h"
#include "launch/watch/background_doctor.h"
#include "protocol/collective_history.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QTimer>
#include <QVector>

#include <functional>

namespace ddpdesk::launch {

// The record file of one rank (protocol::kCollectivesFileEnv), in the run's instrumentation folder.
QString collectivesFile(const QString& dir, int rank);
// The last collectives that rank wrote into it (protocol/collective_history.h), oldest first; empty without
// a file. Reads at most protocol::kCollectivesFileBytes, whatever the rank left there.
std::vector<protocol::CollectiveEntry> readCollectiveHistory(const QString& dir, int rank);

class CollectiveWatch {
    Q_DECLARE_TR_FUNCTIONS(ddpdesk::launch::Supervisor) // its texts keep the Supervisor's translations

public:
    struct Hooks {
        std::function<bool()> live;          // the run is on: not stopping, no restart pending
        std::function<QVector<int>()> ranks; // this attempt's live ranks (global ranks)
        std::function<void(const QString&)> message;
        std::function<void(int rank, const QJsonObject& fields)> event; // a `diagnosis` event
        // Asks the ranks for their stacks; done gets what each wrote (by global rank).
        std::function<void(const QString& reason, std::function<void(const QMap<int, QString>&)> done)>
            stacks;
        // What the doctor is asked when every rank here waits (COLLECTIVE_WAIT_ALL): the run's store.
        std::function<doctor::DoctorRequest()> doctorRequest;
    };

    CollectiveWatch(QObject& owner, RunModel& model, Hooks hooks);

    void setFolder(const QString& dir) { m_folder = dir; } // where the ranks' records are; empty: none
    void start();
    void stop() { m_timer.stop(); }
    void rearm(); // a new attempt: records and reports start over
    // At the run's end: every local rank's last collectives into the model (summary.json
    // ranks[].collectives).
    void keepHistories();
    HoldUpThresholds& thresholds() { return m_thresholds; }

private:
    void check();
    // validation: validationNote() as the hold-up was found.
    void report(const HoldUp& h, const QMap<int, QString>& stacks, const QString& validation = QString());
    QString validationNote(const HoldUp& h) const;
    void reportDoctor(const HoldUp& h, const BackgroundDoctor::Answer& a);
    QJsonObject lastCollectives(const QVector<int>& ranks, std::size_t n) const;

    QObject& m_owner;
    RunModel& m_model;
    Hooks m_hooks;
    QString m_folder;
    QTimer m_timer;
    HoldUpThresholds m_thresholds;
    QString m_reported; // the hold-up said last (code and collective number): said once
    QMap<int, std::pair<qint64, qint64>>
        m_historySeen; // by rank: (entered, completed) its history was read at
    bool m_asking = false;
    BackgroundDoctor m_doctor; // for a wait nobody here explains; its answer is dropped with the watch
};

} // namespace ddpdesk::launch
