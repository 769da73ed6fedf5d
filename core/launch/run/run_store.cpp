#include "launch/run/run_store.h"

#include "launch/run/run_folder.h"
#include "protocol/output_mark.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace ddpdesk::launch {

namespace {
// UTF-8 in, the OS's own encoding out (wide on Windows), so no name is mangled on the way.
std::filesystem::path nativePath(const QString& path) {
    return std::filesystem::u8path(path.toStdString());
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

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ddpdesk::launch::RunStore", text);
}

// A link of any kind: DDP Desk never writes or deletes through one.
bool isLink(const QFileInfo& fi) {
    return fi.isSymLink() || fi.isJunction();
}

} // namespace

QVector<ConfigProblem> foreignPathProblems(const RunConfig& c) {
    QVector<ConfigProblem> p;
    const QString storeFile = c.storeFilePath();
    if (!storeFile.isEmpty() && c.nnodes == 1) {
        const QFileInfo file(storeFile);
        const QString folder = file.absolutePath();
        const QFileInfo dir(folder);
        const QStringList inside = c.store.isEmpty() && dir.isDir() && !isLink(dir)
                                       ? QDir(folder).entryList(QDir::AllEntries | QDir::NoDotAndDotDot |
                                                                QDir::Hidden | QDir::System)
                                       : QStringList();
        if (c.store.isEmpty() && isLink(dir))
            p.push_back(
                {QStringLiteral("store"),
                 tr("'%1' is a link; the default FileStore folder must be a plain folder DDP Desk creates "
                    "(it never writes or deletes through a link): remove the link, choose another --out "
                    "or give --store file:PATH")
                     .arg(folder)});
        else if (c.store.isEmpty() && dir.exists() && !dir.isDir())
            p.push_back(
                {QStringLiteral("store"),
                 tr("'%1' is a file, where DDP Desk keeps the default FileStore folder; move it away, "
                    "choose another --out or give --store file:PATH")
                     .arg(folder)});
        else if (file.exists() || isLink(file))
            p.push_back(
                {QStringLiteral("store"),
                 tr("FileStore file '%1' already exists (left by an earlier run that did not end cleanly, "
                    "or another job is using it); DDP Desk does not delete it: check it with "
                    "`ddpdesk-cli doctor`, then move it away, or choose another path")
                     .arg(storeFile)});
        else if (!inside.isEmpty())
            p.push_back(
                {QStringLiteral("store"),
                 tr("folder '%1' holds files DDP Desk did not put there (%2); the default FileStore folder "
                    "must be empty or absent: move them, choose another --out or give --store file:PATH")
                     .arg(folder, inside.mid(0, 3).join(QStringLiteral(", ")))});
    }
    if (!c.outDir.isEmpty()) {
        for (const QString& name : RunFolder::outputNames(c)) {
            const QString why = foreignOutputProblem(QDir(c.outDir).filePath(name));
            if (!why.isEmpty()) p.push_back({QStringLiteral("out"), why});
        }
    }
    return p;
}

QString foreignOutputProblem(const QString& path) {
    const QFileInfo fi(path);
    if (!isLink(fi) && fi.isFile() &&
        protocol::outputState(nativePath(fi.absolutePath()), fi.fileName().toStdString()) ==
            protocol::OutputState::Foreign)
        return tr("'%1' is already there and DDP Desk did not write it (%2 in that folder does not list it); "
                  "DDP Desk never replaces a file of yours: move it away or choose another --out")
            .arg(path, QLatin1String(protocol::kOutputMarkName));
    if (!isLink(fi) && (!fi.exists() || fi.isFile())) return QString();
    return tr("'%1' is a %2; DDP Desk writes %3 itself and never writes through a link or over a folder: "
              "move it "
              "away or choose another --out")
        .arg(path,
             isLink(fi)   ? tr("link")
             : fi.isDir() ? tr("folder")
                          : tr("special file"),
             fi.fileName());
}

} // namespace ddpdesk::launch
