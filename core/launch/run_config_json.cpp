// RunConfig as a JSON profile: the GUI saves/loads these, the CLI could too. Keys are the command-line flag
// names.
#include "launch/run_config.h"

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
    o["nproc"] = nproc;
    o["devices"] = devices;
    o["nnodes"] = nnodes;
    o["node_rank"] = nodeRank;
    o["store"] = store;
    o["iface"] = iface;
    o["epochs"] = epochs;
    o["steps"] = steps;
    o["batch_size"] = batchSize;
    o["lr"] = lr;
    o["threads"] = threads;
    o["bucket_mb"] = bucketMb;
    o["no_overlap"] = noOverlap;
    o["grad_transport"] = gradTransport;
    o["checkpoint_every"] = checkpointEvery;
    o["resume"] = resume;
    o["max_restarts"] = maxRestarts;
    o["seed"] = double(seed);
    o["timeout"] = timeoutSec;
    o["stall_timeout"] = stallTimeoutSec;
    o["telemetry_ms"] = telemetryMs;
    o["limit_samples"] = limitSamples;
    o["out"] = outDir;
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
    auto dbl = [&o](const char* k, double& v) {
        if (o.contains(k)) v = o[k].toDouble(v);
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
    num("nproc", c.nproc);
    str("devices", c.devices);
    num("nnodes", c.nnodes);
    num("node_rank", c.nodeRank);
    str("store", c.store);
    str("iface", c.iface);
    num("epochs", c.epochs);
    num("steps", c.steps);
    num("batch_size", c.batchSize);
    dbl("lr", c.lr);
    num("threads", c.threads);
    dbl("bucket_mb", c.bucketMb);
    flag("no_overlap", c.noOverlap);
    str("grad_transport", c.gradTransport);
    num("checkpoint_every", c.checkpointEvery);
    flag("resume", c.resume);
    num("max_restarts", c.maxRestarts);
    if (o.contains("seed")) c.seed = qint64(o["seed"].toDouble(double(c.seed)));
    num("timeout", c.timeoutSec);
    num("stall_timeout", c.stallTimeoutSec);
    num("telemetry_ms", c.telemetryMs);
    num("limit_samples", c.limitSamples);
    str("out", c.outDir);
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
    *out = fromJson(doc.object());
    return true;
}

} // namespace ddpdesk::launch
