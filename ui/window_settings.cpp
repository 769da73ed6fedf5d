// WindowSettings: reads and writes what survives a restart, under the same QSettings keys as ever.
#include "window_settings.h"

#include "language.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSettings>
#include <QStandardPaths>

namespace ddpdesk::ui {

QString WindowSettings::defaultRunsFolder() {
    // Qt appends organization and application name; DDP Desk uses the same name for both, and
    // ".../DDP Desk/DDP Desk/runs" reads like a mistake: one level is enough.
    QDir base(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation));
    const QString org = QCoreApplication::organizationName();
    if (!org.isEmpty() && org == QCoreApplication::applicationName() && base.dirName() == org)
        base.setPath(QFileInfo(base.path()).path());
    return base.filePath(QStringLiteral("runs"));
}

WindowSettings WindowSettings::load() {
    QSettings s;
    WindowSettings w;
    w.runsFolder = s.value(QStringLiteral("runsFolder"), defaultRunsFolder()).toString();
    QDir().mkpath(w.runsFolder);
    const QByteArray cfg = s.value(QStringLiteral("lastConfig")).toByteArray();
    if (!cfg.isEmpty()) {
        const QJsonDocument doc = QJsonDocument::fromJson(cfg);
        if (doc.isObject()) w.lastConfig = launch::RunConfig::fromJson(doc.object());
    }
    w.geometry = s.value(QStringLiteral("window/geometry")).toByteArray();
    w.dockState = s.value(QStringLiteral("window/state")).toByteArray();
    w.page = s.value(QStringLiteral("window/page"), 0).toInt();
    w.warmWorkers = s.value(QStringLiteral("warmWorkers"), true).toBool();
    return w;
}

void WindowSettings::save() const {
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), geometry);
    s.setValue(QStringLiteral("window/state"), dockState);
    s.setValue(QStringLiteral("window/page"), page);
    s.setValue(QStringLiteral("runsFolder"), runsFolder);
    s.setValue(QStringLiteral("language"), currentLanguage());
    s.setValue(QStringLiteral("warmWorkers"), warmWorkers);
    if (lastConfig)
        s.setValue(QStringLiteral("lastConfig"),
                   QJsonDocument(lastConfig->toJson()).toJson(QJsonDocument::Compact));
}

void WindowSettings::saveLanguage(const QString& code) {
    QSettings().setValue(QStringLiteral("language"), code);
}

} // namespace ddpdesk::ui
