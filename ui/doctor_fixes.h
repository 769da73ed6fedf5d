#pragma once

// Which doctor findings have a fix safe enough for one click, and applying it through core/doctor's own fix
// functions (the GUI decides nothing the CLI's doctor would not).

#include "doctor/doctor.h"

#include <QCoreApplication>
#include <QString>

namespace ddpdesk::ui {

enum class SafeFix { None, RenameStaleStore, PickFreePort };

struct FixOutcome {
    bool ok = false;
    QString message;     // what happened, in plain words
    int port = 0;        // PickFreePort: the port chosen
    QString renamedPath; // RenameStaleStore: the store file that was moved aside
    QString newPath;     // RenameStaleStore: where it is now
};

SafeFix safeFixFor(const doctor::Finding& finding);

// The question to ask before a fix that changes a file, naming what it will do and what follows; empty when
// the fix changes nothing on disk (picking a free port).
QString fixConfirmation(const doctor::Finding& finding);

// `context`: the diagnosis' request (world size, rendezvous timeout, node rank), so the fix re-judges the
// store by the same rules.
FixOutcome applySafeFix(const doctor::Finding& finding, const doctor::DoctorRequest& context = {});

} // namespace ddpdesk::ui
