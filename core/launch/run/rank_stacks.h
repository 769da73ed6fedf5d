#pragma once

// Owns "where does it hang?": the folder of the ranks' stacks files (stack_dump.h) and the asking of the live
// ranks; what each one wrote comes back kStacksWaitMs later as a message, a `stacks` event and a note in that
// rank's log.

#include "launch/model/run_model.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QMap>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QVector>

#include <functional>

namespace ddpdesk::launch {

class RankStacks {
    Q_DECLARE_TR_FUNCTIONS(ddpdesk::launch::Supervisor) // its texts keep the Supervisor's translations

public:
    struct Hooks {
        std::function<void(const QString& text)> message;
        std::function<void(int rank, const QJsonObject& fields)> event; // a `stacks` event for the record
    };

    // owner: the context of the delayed collection (gone with it).
    RankStacks(QObject& owner, RunModel& model, Hooks hooks);

    void setFolder(const QString& stacksDir) { m_folder = stacksDir; } // empty: no rank can be asked
    bool canAsk() const { return !m_folder.isEmpty(); }
    // live: the pids of this attempt's ranks (an earlier attempt's pid may belong to someone else now).
    // done (optional): called with what each rank wrote (by global rank) once the answers are collected.
    using Answers = std::function<void(const QMap<int, QString>& stacksByRank)>;
    void request(const QString& reason, const QSet<qint64>& live, Answers done = {});

private:
    QObject& m_owner;
    RunModel& m_model;
    Hooks m_hooks;
    QString m_folder;
    bool m_asking = false; // a question is out; its answer comes kStacksWaitMs after it was asked
    QStringList m_reasons; // why it was asked, every asker's reason
    QVector<Answers> m_done;
};

} // namespace ddpdesk::launch
