#include "doctor_fixes.h"
#include "doctor_texts.h"

#include <QDir>

namespace ddpdesk::ui {
namespace {

std::string evidenceString(const doctor::Finding& f, const char* key)
{
    if (f.evidence.is_object()) {
        const auto it = f.evidence.find(key);
        if (it != f.evidence.end() && it->is_string())
            return it->get<std::string>();
    }
    return {};
}

int evidencePort(const doctor::Finding& f)
{
    if (f.evidence.is_object()) {
        const auto it = f.evidence.find("port");
        if (it != f.evidence.end() && it->is_number_integer())
            return it->get<int>();
    }
    return 0;
}

} // namespace

SafeFix safeFixFor(const doctor::Finding& f)
{
    // Only findings where the doctor established that no live process uses the file; deleteStaleStore re-checks.
    if ((f.code == "FILESTORE_STALE" || f.code == "FILESTORE_ABANDONED") && !evidenceString(f, "path").empty())
        return SafeFix::DeleteStaleStore;
    // A taken or forbidden port: choosing another one is always safe, nothing is changed on the machine.
    if (f.code.rfind("PORT_", 0) == 0 && f.severity != doctor::Severity::Info &&
        f.code.find("INVALID") == std::string::npos)
        return SafeFix::PickFreePort;
    return SafeFix::None;
}

FixOutcome applySafeFix(const doctor::Finding& f)
{
    FixOutcome out;
    switch (safeFixFor(f)) {
    case SafeFix::DeleteStaleStore: {
        const std::string path = evidenceString(f, "path");
        const doctor::FixResult r = doctor::deleteStaleStore(path);
        out.ok = r.ok;
        out.message = fixResultMessage(r);
        if (r.ok)
            out.deletedPath = QDir::toNativeSeparators(QString::fromStdString(path));
        break;
    }
    case SafeFix::PickFreePort: {
        const int preferred = evidencePort(f);
        const int port = preferred > 0 ? doctor::suggestFreePort(preferred) : doctor::suggestFreePort();
        out.ok = port > 0;
        out.port = port;
        out.message = out.ok ? QCoreApplication::translate("ddpdesk::ui::DoctorPanel",
                                                           "Port %1 is free; the Setup page now uses it.")
                                   .arg(port)
                             : QCoreApplication::translate("ddpdesk::ui::DoctorPanel",
                                                           "No free port could be found.");
        break;
    }
    case SafeFix::None:
        out.message = QCoreApplication::translate("ddpdesk::ui::DoctorPanel", "This finding has no automatic fix.");
        break;
    }
    return out;
}

} // namespace ddpdesk::ui
