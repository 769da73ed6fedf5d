#pragma once

// "Where does it hang?" (the contract: protocol/stacks_request.h). Script ranks through DDP Desk's
// instrumentation module (resources/python/ddpdesk_instrument.py, _stacks_on_request) and ddpdesk-worker
// ranks (core/train/base/wait_report.h) keep RUN/.ddpdesk-python/stacks-RANK.txt open, announce themselves
// in it once they can answer, and append every thread's Python stack, or what the worker waits in, when
// asked: SIGUSR1 for Python on POSIX while the script leaves that signal alone, otherwise the request file
// stacks-RANK.request (Windows, workers, a script with a SIGUSR1 handler of its own: its announcement says
// so). The launcher (stall watch, the GUI's Show stacks) and `ddpdesk-cli stacks RUN` ask through here; only
// a live process whose last announcement asks for the signal is ever signalled.

#include "protocol/stacks_request.h"

#include <QString>
#include <QVector>

namespace ddpdesk::launch {

QString stacksFile(const QString& instrumentDir, int rank);
QString stacksRequestFile(const QString& instrumentDir, int rank);

struct StackTarget {
    int rank = -1;
    qint64 pid = 0;
    QString file, request;
    qint64 offset = 0;          // where the file ended when the stacks were asked for
    bool byRequestFile = false; // last announced " request-file": asked through the file, never signalled
    bool asker = false;         // this process asked (it holds the rank's .asked marker until doneAsking)
};

// The ranks under `instrumentDir` that can be asked now: their file's last announcement names a live process.
QVector<StackTarget> stackTargets(const QString& instrumentDir);
// Notes where each file ends and asks the process, by the channel its file announces at that moment; a target
// that could not be asked is dropped. One question per rank at a time, whoever asks (the stall watch, Show
// stacks, several `ddpdesk-cli stacks`): while stacks-RANK.asked is fresh, a second asker reads the answer to
// the first question (from the offset the marker holds) instead of asking again, so each rank dumps once.
void requestStacks(QVector<StackTarget>& targets);
// After collecting: drops the markers this process holds.
void doneAsking(const QVector<StackTarget>& targets);
// What the target appended since it was asked (at most 256 KiB), trimmed; empty when it said nothing yet.
QString collectStacks(const StackTarget& target);

// Where a rank is, in its own code: from a Python rank's dump, the main thread's innermost frame outside
// PyTorch, the standard library and DDP Desk's module, with its source line when the file can be read
// ("train.py:16 in main: time.sleep(30)"); from a worker's answer its first line. Empty when neither is
// found.
QString whereInUserCode(const QString& stacks);

// How long a rank is given to write its stacks: faulthandler answers at once, the Windows watcher within 200
// ms.
constexpr int kStacksWaitMs = 1500;

} // namespace ddpdesk::launch
