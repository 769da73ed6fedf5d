#include "launch/run/run_store.h"
#include "os/utf8_path.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace ddpdesk::launch {

namespace {
// UTF-8 in, the OS's own encoding out (wide on Windows), so no name is mangled on the way.
std::filesystem::path nativePath(const QString& path) {
    return os::pathFromUtf8(path.toStdString());
}
} // namespace

bool RunStore::claim(const RunConfig& config, QString* error) {
    release();
    const QString path = config.storeFilePath();
    // Other nodes share a multi-node store: whichever node created it, no launcher may delete it under the
    // others.
    if (path.isEmpty() || config.nnodes != 1) return true;
    std::string why;
    OwnedFile id;
    const CreateResult r = createOwnedFile(nativePath(path), &id, &why);
    if (r == CreateResult::Created) {
        m_path = path;
        m_id = id;
        return true;
    }
    if (error)
        *error =
            r == CreateResult::AlreadyThere
                ? QCoreApplication::translate(
                      "ddpdesk::launch::RunStore",
                      "'%1' already exists (a file, folder or link this run did not create: left by an "
                      "earlier run, or another job is using it); DDP Desk leaves it alone - move it away, "
                      "choose another --out or give --store file:PATH")
                      .arg(path)
                : QCoreApplication::translate("ddpdesk::launch::RunStore",
                                              "cannot create the FileStore file '%1': %2")
                      .arg(path, QString::fromStdString(why));
    return false;
}

void RunStore::release() {
    if (m_id.valid) removeOwnedFile(nativePath(m_path), m_id);
    m_path.clear();
}

} // namespace ddpdesk::launch
