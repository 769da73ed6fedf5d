#pragma once

// "Where does it hang?" for script ranks: DDP Desk's instrumentation module
// (resources/python/ddpdesk_instrument.py, _stacks_on_request) keeps RUN/.ddpdesk-python/stacks-RANK.txt
// open, writes "ddpdesk-stacks ready pid P rank R" once it can answer, and appends every thread's Python
// stack when asked: SIGUSR1 on POSIX, the request file stacks-RANK.request on Windows. The launcher (stall
// watch, the GUI's Show stacks) and `ddpdesk-cli stacks RUN` ask through here; only a live process that
// announced itself is ever signalled.

#include <QString>
#include <QVector>

namespace ddpdesk::launch {

// The environment the launcher gives each instrumented rank (the module's side of the contract reads these).
constexpr const char* kStacksFileEnv = "DDPDESK_STACKS_FILE";
constexpr const char* kStacksRequestEnv = "DDPDESK_STACKS_REQUEST";

QString stacksFile(const QString& instrumentDir, int rank);
QString stacksRequestFile(const QString& instrumentDir, int rank);

struct StackTarget {
    int rank = -1;
    qint64 pid = 0;
    QString file, request;
    qint64 offset = 0; // where the file ended when the stacks were asked for
};

// The ranks under `instrumentDir` that can be asked now: their file's last announcement names a live process.
QVector<StackTarget> stackTargets(const QString& instrumentDir);
// Notes where each file ends and asks the process; a target that could not be asked is dropped.
void requestStacks(QVector<StackTarget>& targets);
// What the target appended since it was asked (at most 256 KiB), trimmed; empty when it said nothing yet.
QString collectStacks(const StackTarget& target);

// How long a rank is given to write its stacks: faulthandler answers at once, the Windows watcher within 200
// ms.
constexpr int kStacksWaitMs = 1500;

} // namespace ddpdesk::launch
