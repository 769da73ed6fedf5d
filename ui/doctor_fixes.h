#pragma once

// Which doctor findings have a fix safe enough for one click, and applying it through core/doctor's own fix
// functions (the GUI decides nothing the CLI's doctor would not).

#include "doctor/doctor.h"

#include <QCoreApplication>
#include <QString>

namespace ddpdesk::ui {

enum class SafeFix { None, DeleteStaleStore, PickFreePort };

struct FixOutcome {
    bool ok = false;
    QString message;     // what happened, in plain words
    int port = 0;        // PickFreePort: the port chosen
    QString deletedPath; // DeleteStaleStore: the file removed
};

SafeFix safeFixFor(const doctor::Finding& finding);
FixOutcome applySafeFix(const doctor::Finding& finding);

} // namespace ddpdesk::ui
