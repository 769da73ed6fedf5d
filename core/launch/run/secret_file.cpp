#include "launch/run/secret_file.h"

#include "launch/run/run_folder.h"
#include "os/utf8_path.h"
#include "protocol/output_mark.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>

namespace ddpdesk::launch {

namespace {
constexpr const char* kName = "run-secret";
} // namespace

bool SecretFile::write(const QString& outDir, const QString& hex, QString* error) {
    release();
    const QString path = QDir(outDir).filePath(QLatin1String(kName));
    const std::filesystem::path dir = os::pathFromUtf8(outDir.toStdString());
    // An earlier run's file (its launcher was killed before removing it) is DDP Desk's own: replaced.
    if (protocol::outputState(dir, kName) == protocol::OutputState::Own) QFile::remove(path);
    if (!RunFolder::mark(outDir, {QLatin1String(kName)}, error)) return false;
    const std::string content = hex.toStdString() + "\n";
    std::string why;
    const CreateResult r = createOwnedFile(os::pathFromUtf8(path.toStdString()), &m_id, &why, &content);
    if (r == CreateResult::Created) {
        m_path = path;
        return true;
    }
    if (error)
        *error = r == CreateResult::AlreadyThere
                     ? QCoreApplication::translate("ddpdesk::launch::SecretFile",
                                                   "'%1' is already there and DDP Desk did not write it")
                           .arg(path)
                     : QCoreApplication::translate("ddpdesk::launch::SecretFile", "cannot create '%1': %2")
                           .arg(path, QString::fromStdString(why));
    return false;
}

void SecretFile::release() {
    if (m_id.valid) removeOwnedFile(os::pathFromUtf8(m_path.toStdString()), m_id);
    m_path.clear();
}

} // namespace ddpdesk::launch
