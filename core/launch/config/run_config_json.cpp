// RunConfig as a JSON profile: the GUI saves/loads these. Keys are the launcher's table's
// (launcher_flags.h) and the worker settings' (protocol/worker_settings.h).
#include "launch/config/launcher_flags.h"
#include "launch/config/run_config.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

#include <type_traits>

namespace ddpdesk::launch {

QJsonObject RunConfig::toJson() const {
    QJsonObject o;
    visitLauncherFlags(*this,
                       [&o](const LauncherFlag& f, const auto& field) { o[QLatin1String(f.key)] = field; });
    o["script_args"] = QJsonArray::fromStringList(scriptArgs);
    // The training settings under their own keys, flat beside the rest as profiles always had them.
    const QJsonObject settings =
        QJsonDocument::fromJson(QByteArray::fromStdString(protocol::settingsToJson(training).dump()))
            .object();
    for (auto it = settings.begin(); it != settings.end(); ++it)
        o[it.key()] = it.value();
    return o;
}

RunConfig RunConfig::fromJson(const QJsonObject& o) {
    RunConfig c;
    // A key that is absent (a profile from before its flag) or of another type keeps the default.
    visitLauncherFlags(c, [&o](const LauncherFlag& f, auto& field) {
        const QString key = QLatin1String(f.key);
        if (!o.contains(key)) return;
        using T = std::decay_t<decltype(field)>;
        if constexpr (std::is_same_v<T, bool>)
            field = o[key].toBool(field);
        else if constexpr (std::is_same_v<T, int>)
            field = o[key].toInt(field);
        else
            field = o[key].toString(field);
    });
    if (o.contains("script_args")) {
        c.scriptArgs.clear();
        for (const QJsonValue& v : o["script_args"].toArray())
            c.scriptArgs << v.toString();
    }
    // Qt's reader takes a lone surrogate escape ("\ud800") that nlohmann's refuses: never the throwing parse
    // on a file someone else may have written (loadProfile names such a profile; here the settings stay
    // default).
    const nlohmann::json all =
        nlohmann::json::parse(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString(), nullptr, false);
    if (all.is_object()) c.training = protocol::settingsFromJson(all);
    return c;
}

bool RunConfig::saveProfile(const QString& path, QString* error) const {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        if (error)
            *error =
                QCoreApplication::translate("ddpdesk::launch::RunConfig", "cannot write profile '%1': %2")
                    .arg(path, f.errorString());
        return false;
    }
    f.write(QJsonDocument(toJson()).toJson(QJsonDocument::Indented));
    if (!f.commit()) {
        if (error)
            *error =
                QCoreApplication::translate("ddpdesk::launch::RunConfig", "cannot write profile '%1': %2")
                    .arg(path, f.errorString());
        return false;
    }
    return true;
}

bool RunConfig::loadProfile(const QString& path, RunConfig* out, QString* error) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QCoreApplication::translate("ddpdesk::launch::RunConfig", "cannot read profile '%1': %2")
                         .arg(path, f.errorString());
        return false;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    if (!doc.isObject()) {
        if (error)
            *error = QCoreApplication::translate("ddpdesk::launch::RunConfig",
                                                 "profile '%1' is not a JSON object: %2")
                         .arg(path, pe.errorString());
        return false;
    }
    if (!nlohmann::json::parse(doc.toJson(QJsonDocument::Compact).toStdString(), nullptr, false)
             .is_object()) {
        if (error)
            *error = QCoreApplication::translate("ddpdesk::launch::RunConfig",
                                                 "profile '%1' holds text that is not valid Unicode (a lone "
                                                 "surrogate escape such as \\ud800)")
                         .arg(path);
        return false;
    }
    *out = fromJson(doc.object());
    return true;
}

} // namespace ddpdesk::launch
