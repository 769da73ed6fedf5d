#include "launch/run/run_folder.h"

#include "launch/config/output_paths.h"

#include "os/private_file.h"
#include "os/utf8_path.h"
#include "protocol/output_mark.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <filesystem>

namespace ddpdesk::launch {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ddpdesk::launch::RunFolder", text);
}

} // namespace

bool RunFolder::mark(const QString& dir, const QStringList& names, QString* error) {
    std::vector<std::string> list;
    for (const QString& n : names)
        list.push_back(n.toStdString());
    const std::string why = protocol::markOutputs(os::pathFromUtf8(dir.toStdString()), list);
    if (why.empty()) return true;
    if (error) *error = QString::fromStdString(why);
    return false;
}

bool RunFolder::isOwn(const QString& dir, bool followLink, QString* error) {
    const os::FolderOwnerAnswer a = os::folderOwner(QDir::toNativeSeparators(dir).toStdString(), followLink);
    QString why;
    switch (a.answer) {
    case os::FolderOwner::Own:
        return true;
    case os::FolderOwner::Missing:
        why = tr("it does not exist");
        break;
    case os::FolderOwner::NotAFolder:
        why = tr("it is not a folder (or it is a link)");
        break;
    case os::FolderOwner::OtherOwner:
        why = a.owner >= 0 ? tr("another user (uid %1) owns it").arg(a.owner) : tr("another user owns it");
        break;
    case os::FolderOwner::WritableByOthers:
        why = tr("every user may write into it (mode %1)").arg(a.mode, 4, 8, QLatin1Char('0'));
        break;
    }
    if (error)
        *error =
            tr("'%1' is not a folder of yours that only you can change: %2. DDP Desk writes the run's "
               "records "
               "there and the ranks run code from it; choose another --out, or make it yours (chmod o-w)")
                .arg(QDir::toNativeSeparators(dir), why);
    return false;
}

bool RunFolder::makePath(const QString& dir, QString* error) {
    // Each missing level is made and remembered, so only what this run made is ever removed.
    const QString clean = QDir::cleanPath(QDir(dir).absolutePath());
    QStringList missing;
    for (QString d = clean; !QFileInfo::exists(d) && !QFileInfo(d).isSymLink();) {
        missing.prepend(d);
        const QString parent = QFileInfo(d).path();
        if (parent == d) break;
        d = parent;
    }
    for (const QString& d : missing) {
        if (!QDir().mkdir(d)) {
            // Made by someone else in between (another node's launcher sharing the parent): there, not ours.
            if (QFileInfo(d).isDir()) continue;
            if (error) *error = tr("cannot create folder '%1' (check the path and permissions)").arg(d);
            return false;
        }
        m_created << d;
    }
    if (QFileInfo(clean).isDir()) return true;
    if (error) *error = tr("'%1' is not a folder").arg(clean);
    return false;
}

bool RunFolder::make(const RunConfig& config, QString* error) {
    if (!makePath(config.outDir, error) || !isOwn(config.outDir, true, error)) return false;
    const QString storeFile = config.storeFilePath();
    if (!storeFile.isEmpty() && !makePath(QFileInfo(storeFile).absolutePath(), error)) return false;
    return mark(config.outDir, runOutputNames(config), error);
}

void RunFolder::removeEmptyCreated() {
    for (auto it = m_created.crbegin(); it != m_created.crend(); ++it) {
        // A folder this run made that holds nothing but the mark it wrote there is empty of anything else.
        const QDir dir(*it);
        const QStringList inside =
            dir.entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System);
        if (inside == QStringList{QLatin1String(protocol::kOutputMarkName)} &&
            QFileInfo(dir.filePath(inside.front())).isFile() &&
            !QFileInfo(dir.filePath(inside.front())).isSymLink())
            QFile::remove(dir.filePath(inside.front()));
        QDir().rmdir(*it); // only an empty folder goes
    }
    m_created.clear();
}

} // namespace ddpdesk::launch
