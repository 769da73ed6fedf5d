#pragma once

// Workers started ahead of a run (protocol/warm_start.h): each has loaded LibTorch and waits for its
// configuration on stdin, so a Start in the GUI, or the next point of a sweep, pays no process start and no
// library load. The pool only keeps them; Supervisor takes one per rank and hands it the rank's arguments,
// environment and folder. Idle workers cost memory (most of it LibTorch's pages, shared between them) and no
// CPU.

#include "launch/process/process_control.h"

#include <QList>
#include <QObject>
#include <QProcessEnvironment>
#include <QString>

#include <vector>

class QProcess;

namespace ddpdesk::launch {

class WarmWorkers : public QObject {
    Q_OBJECT
public:
    explicit WarmWorkers(QObject* parent = nullptr);
    ~WarmWorkers() override; // idle workers see their input end and exit; stragglers are killed

    // Keeps `count` workers of `program` waiting (starts the missing ones; drops those of another program).
    void fill(const QString& program, int count);
    // A waiting worker of `program`, now the caller's (re-parented to `newParent`), with the environment it
    // was started with; null when none is ready. Its output is untouched: a warm worker writes nothing before
    // its configuration.
    QProcess* take(const QString& program, QObject* newParent, QProcessEnvironment* startedWith);
    int waiting() const;
    QList<qint64> pids() const; // of the waiting workers that have started
    void clear();               // lets every waiting worker go

    // Hands `process` (from take()) the rank's arguments, environment and folder; false when it is gone.
    static bool configure(QProcess& process, const QStringList& args, const QProcessEnvironment& env,
                          const QProcessEnvironment& startedWith, const QString& workDir);

private:
    struct Entry {
        QProcess* process;
        QString program;
        QProcessEnvironment env;
    };
    void drop(QProcess* process);    // it ended by itself
    void release(std::size_t index); // let it go: its input ends

    ProcessGuard m_guard; // a crashed launcher takes its waiting workers with it
    std::vector<Entry> m_entries;
};

} // namespace ddpdesk::launch
