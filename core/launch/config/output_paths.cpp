#include "launch/config/output_paths.h"

#include "os/utf8_path.h"
#include "protocol/output_mark.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <filesystem>

namespace ddpdesk::launch {

QStringList runOutputNames(const RunConfig& config) {
    QStringList names{QStringLiteral("metrics.jsonl"), QStringLiteral("summary.json")};
    if (!config.isScript()) names << QStringLiteral("checkpoint.pt") << QStringLiteral("model.pt");
    return names;
}

namespace {

// UTF-8 in, the OS's own encoding out (wide on Windows), so no name is mangled on the way.
std::filesystem::path nativePath(const QString& path) {
    return os::pathFromUtf8(path.toStdString());
}

} // namespace

namespace {

// The texts keep the run store's translations (they were its own).
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
        for (const QString& name : runOutputNames(c)) {
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
