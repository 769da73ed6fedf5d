#include "doctor_fixes.h"
#include "doctor_texts.h"

#include "protocol/finding_codes.h"

#include <QDir>

namespace ddpdesk::ui {
namespace {

std::string evidenceString(const doctor::Finding& f, const char* key) {
    if (f.evidence.is_object()) {
        const auto it = f.evidence.find(key);
        if (it != f.evidence.end() && it->is_string()) return it->get<std::string>();
    }
    return {};
}

int evidencePort(const doctor::Finding& f) {
    if (f.evidence.is_object()) {
        const auto it = f.evidence.find("port");
        if (it != f.evidence.end() && it->is_number_integer()) return it->get<int>();
    }
    return 0;
}

bool evidenceFlag(const doctor::Finding& f, const char* key) {
    if (!f.evidence.is_object()) return false;
    const auto it = f.evidence.find(key);
    return it != f.evidence.end() && it->is_boolean() && it->get<bool>();
}

} // namespace

SafeFix safeFixFor(const doctor::Finding& f) {
    // Only findings where the doctor established that no rank can still wait on the file; renameStaleStore
    // re-checks. A symlink at the store path is never offered (the fix would refuse it).
    if ((f.code == protocol::finding::FileStoreStale || f.code == protocol::finding::FileStoreAbandoned) &&
        !evidenceString(f, "path").empty() && !evidenceFlag(f, "symlink"))
        return SafeFix::RenameStaleStore;
    // A taken or forbidden port: choosing another one is always safe, nothing is changed on the machine.
    if ((f.code == protocol::finding::PortInUse || f.code == protocol::finding::PortExcluded) &&
        f.severity != doctor::Severity::Info)
        return SafeFix::PickFreePort;
    return SafeFix::None;
}

QString fixConfirmation(const doctor::Finding& f) {
    if (safeFixFor(f) != SafeFix::RenameStaleStore) return QString();
    const std::string path = evidenceString(f, "path");
    const QString from = QDir::toNativeSeparators(QString::fromStdString(path));
    const QString to = QDir::toNativeSeparators(QString::fromStdString(doctor::staleAsidePath(path)));
    return QCoreApplication::translate(
               "ddpdesk::ui::DoctorPanel",
               "Rename %1 to %2?\n\nNew runs can then use the store path again; the old "
               "run's keys stay in the renamed file, and nothing is deleted. A rank that "
               "still waited on the old store would time out.")
        .arg(from, to);
}

FixOutcome applySafeFix(const doctor::Finding& f, const doctor::DoctorRequest& context) {
    FixOutcome out;
    switch (safeFixFor(f)) {
    case SafeFix::RenameStaleStore: {
        const std::string path = evidenceString(f, "path");
        const doctor::FixResult r = doctor::renameStaleStore(path, context);
        out.ok = r.ok;
        out.message = fixResultMessage(r);
        if (r.ok) {
            out.renamedPath = QDir::toNativeSeparators(QString::fromStdString(path));
            out.newPath = QDir::toNativeSeparators(QString::fromStdString(r.newPath));
        }
        break;
    }
    case SafeFix::PickFreePort: {
        const int preferred = evidencePort(f);
        const int port = preferred > 0 ? doctor::suggestFreePort(preferred) : doctor::suggestFreePort();
        out.ok = port > 0;
        out.port = port;
        out.message =
            out.ok ? QCoreApplication::translate("ddpdesk::ui::DoctorPanel",
                                                 "Port %1 is free; the Setup page now uses it.")
                         .arg(port)
                   : QCoreApplication::translate("ddpdesk::ui::DoctorPanel", "No free port could be found.");
        break;
    }
    case SafeFix::None:
        out.message =
            QCoreApplication::translate("ddpdesk::ui::DoctorPanel", "This finding has no automatic fix.");
        break;
    }
    return out;
}

} // namespace ddpdesk::ui
