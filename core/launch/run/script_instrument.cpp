#include "launch/run/script_instrument.h"

#include "ddpdesk/instrument_source.h"
#include "launch/run/run_folder.h"
#include "os/plain_file.h"
#include "os/utf8_path.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <filesystem>

namespace ddpdesk::launch {

namespace {
const char* const kModuleFile = "ddpdesk_instrument.py";
}

bool instrumentsScript(const RunConfig& config) {
    return config.isScript() && config.instrument && !config.interpreter().isEmpty();
}

QString instrumentFolder(const QString& outDir) {
    return QDir(outDir).filePath(QStringLiteral(".ddpdesk-python"));
}

QString makeInstrumentFolder(const QString& outDir, QString* why) {
    const QString folder = instrumentFolder(outDir);
    const QFileInfo dir(folder);
    if ((dir.exists() && (dir.isSymLink() || !dir.isDir())) || !QDir().mkpath(folder)) {
        *why =
            QCoreApplication::translate("ddpdesk::launch::ScriptInstrument",
                                        "%1 is in the way of DDP Desk's folder for the ranks' progress and "
                                        "stacks; move it")
                .arg(QDir::toNativeSeparators(folder));
        return QString();
    }
    // The ranks run the module from here: a folder another user made (or may write into) is never reused.
    if (!RunFolder::isOwn(outDir, true, why) || !RunFolder::isOwn(folder, false, why)) return QString();
    return folder;
}

QString writeInstrumentModule(const QString& outDir, QString* why) {
    const QString folder = instrumentFolder(outDir);
    const QString path = instrumentModuleFile(folder);
    const QByteArray source(kInstrumentModuleSource);
    auto refuse = [&](const QString& what) {
        *why = QCoreApplication::translate(
                   "ddpdesk::launch::ScriptInstrument",
                   "%1 is in the way of DDP Desk's instrumentation module (%2); move it, or "
                   "run with --no-instrument")
                   .arg(QDir::toNativeSeparators(what), path);
        return QString();
    };
    if (makeInstrumentFolder(outDir, why).isEmpty()) return QString();
    const QFileInfo file(path);
    if (file.exists() || file.isSymLink()) {
        QFile existing(path);
        // Ours from an earlier attempt or run in this folder: the same bytes, or an older version of the
        // module.
        if (file.isSymLink() || !file.isFile() || !existing.open(QIODevice::ReadOnly) ||
            !existing.read(4096).contains("DDP Desk's progress reporter"))
            return refuse(path);
        existing.close();
    }
    // Written into a file of its own, then renamed over the module: nothing at that name is written through.
    std::string error;
    if (!os::replaceFileContent(os::pathFromUtf8(path.toStdString()), source.toStdString(), &error)) {
        *why = QCoreApplication::translate("ddpdesk::launch::ScriptInstrument", "cannot write %1: %2")
                   .arg(QDir::toNativeSeparators(path), QString::fromStdString(error));
        return QString();
    }
    return folder;
}

QString instrumentModuleFile(const QString& folder) {
    return QDir(folder).filePath(QString::fromLatin1(kModuleFile));
}

QStringList instrumentedArguments(const RunConfig& config, int localRank, const QString& folder) {
    return QStringList{QDir::toNativeSeparators(QFileInfo(instrumentModuleFile(folder)).absoluteFilePath()),
                       config.scriptFile} +
           config.scriptArguments(localRank);
}

} // namespace ddpdesk::launch
