// RunConfig as a JSON profile: the GUI saves/loads these, the CLI could too. Keys are the command-line flag
// names.
#include "launch/config/run_config.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

namespace ddpdesk::launch {

QJsonObject RunConfig::toJson() const {
    QJsonObject o;
    o["workload"] = workload;
    o["model"] = modelFile;
    o["data"] = dataDir;
    o["script"] = scriptFile;
    o["script_args"] = QJsonArray::fromStringList(scriptArgs);
    o["python"] = python;
    o["loss_regex"] = lossRegex;
    o["workdir"] = workDir;
    o["use_local_rank_arg"] = useLocalRankArg;
    o["instrument"] = instrument;
    o["tensorboard"] = tensorboard;
    o["nproc"] = nproc;
    o["devices"] = devices;
    o["nnodes"] = nnodes;
    o["node_rank"] = nodeRank;
    o["store"] = store;
    o["iface"] = iface;
    o["node_link"] = nodeLink;
    o["max_restarts"] = maxRestarts;
    o["timeout"] = timeoutSec;
    o["stall_timeout"] = stallTimeoutSec;
    o["straggler_after"] = stragglerAfterSec;
    o["out"] = outDir;
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
    auto str = [&o](const char* k, QString& v) {
        if (o.contains(k)) v = o[k].toString(v);
    };
    auto num = [&o](const char* k, int& v) {
        if (o.contains(k)) v = o[k].toInt(v);
    };
    auto flag = [&o](const char* k, bool& v) {
        if (o.contains(k)) v = o[k].toBool(v);
    };
    str("workload", c.workload);
    str("model", c.modelFile);
    str("data", c.dataDir);
    str("script", c.scriptFile);
    if (o.contains("script_args")) {
        c.scriptArgs.clear();
        for (const QJsonValue& v : o["script_args"].toArray())
            c.scriptArgs << v.toString();
    }
    str("python", c.python);
    str("loss_regex", c.lossRegex);
    str("workdir", c.workDir);
    flag("use_local_rank_arg", c.useLocalRankArg);
    flag("instrument", c.instrument);
    flag("tensorboard", c.tensorboard); // absent in profiles from before it: on
    num("nproc", c.nproc);
    str("devices", c.devices);
    num("nnodes", c.nnodes);
    num("node_rank", c.nodeRank);
    str("store", c.store);
    str("iface", c.iface);
    flag("node_link", c.nodeLink); // absent in profiles from before it: on
    num("max_restarts", c.maxRestarts);
    num("timeout", c.timeoutSec);
    num("stall_timeout", c.stallTimeoutSec);
    num("straggler_after", c.stragglerAfterSec);
    str("out", c.outDir);
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
