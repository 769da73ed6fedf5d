// summary.json: the contract other tools read (keys are stable; NaN becomes null). Its writer and its reader
// (the History page, replays) are this one pair.
#include "launch/model/json_bridge.h"
#include "launch/model/run_model.h"

#include <QJsonArray>

#include <cmath>

namespace ddpdesk::launch {

namespace {
QJsonValue numOrNull(double v) {
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null);
}

double numOr(const QJsonObject& o, const char* key, double fallback) {
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isDouble() ? v.toDouble() : fallback;
}

// Seconds from the process start to each point of the rank's way to its first step; null where unknown.
QJsonObject startupJson(const RankStartup& s) {
    auto since = [&](double t) {
        return s.startedT > 0 && t > 0 ? QJsonValue(t - s.startedT) : QJsonValue();
    };
    auto seconds = [](double v) { return v >= 0 ? QJsonValue(v) : QJsonValue(); };
    return {{"running_s", since(s.helloT)},
            {"ready_s", since(s.readyT)},
            {"first_step_s", since(s.firstStepT)},
            {"prepare_s", seconds(s.prepareS)},
            {"peer_wait_s", seconds(s.peerWaitS)}};
}

// null with why when it could not be measured: one rank alone, too few step events, or no comm wait reported.
QJsonObject stragglerJson(const StragglerScore& s) {
    if (!s.known())
        return {{"vs_fastest", QJsonValue()},
                {"why",
                 "not measured: it needs two ranks or more reporting their step and comm wait times past "
                 "their first step events"}};
    return {{"vs_fastest", s.vsFastest},
            {"vs_own_best", s.vsOwnBest},
            {"own_ms", s.ownMs},
            {"data_ms", s.dataMs >= 0 ? QJsonValue(s.dataMs) : QJsonValue()},
            {"slow", s.slowSinceT > 0}};
}
} // namespace

QJsonObject RunSummary::toJson(const QVector<RankStatus>& ranks) const {
    QJsonObject o;
    o["status"] = status;
    o["world_size"] = worldSize;
    o["workload"] = workload;
    o["steps"] = double(steps);
    o["wall_s"] = wallS;
    // Not measured: null with the reason, never a 0 that reads as "measured and nothing".
    o["samples_per_s"] = samplesPerS > 0 ? QJsonValue(samplesPerS) : QJsonValue(QJsonValue::Null);
    o["samples_per_s_basis"] =
        samplesPerSBasis.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(samplesPerSBasis);
    o["samples_per_s_why"] =
        samplesPerSWhy.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(samplesPerSWhy);
    o["final_loss"] = numOrNull(finalLoss);
    o["test_accuracy"] = numOrNull(testAccuracy);
    o["failed_rank"] = failedRank >= 0 ? QJsonValue(failedRank) : QJsonValue(QJsonValue::Null);
    o["failure_reason"] = failureReason.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(failureReason);
    o["failed_rank_stderr"] = QJsonArray::fromStringList(failedRankStderr);
    if (diagnosis) {
        QJsonObject d;
        d["code"] = QString::fromStdString(diagnosis->code);
        d["rank"] = diagnosis->rank;
        d["message"] = QString::fromStdString(diagnosis->message);
        d["fix"] = QString::fromStdString(diagnosis->fix);
        d["matched"] = QString::fromStdString(diagnosis->matched);
        if (diagnosis->firstFailedRank >= 0) d["first_failed_rank"] = diagnosis->firstFailedRank;
        o["diagnosis"] = d;
    } else {
        o["diagnosis"] = QJsonValue(QJsonValue::Null);
    }
    o["restarts"] = restarts;
    o["params_identical"] =
        paramsIdentical < 0 ? QJsonValue(QJsonValue::Null) : QJsonValue(paramsIdentical == 1);
    QJsonArray why;
    for (const ScalingCause& c : scaling)
        why.push_back(
            QJsonObject{{"code", c.code}, {"text", c.text}, {"fix", c.fix}, {"evidence", c.evidence}});
    o["scaling"] = why;
    QJsonArray rs;
    for (const RankStatus& r : ranks) {
        QJsonObject j;
        j["rank"] = r.rank;
        j["local_rank"] = r.localRank;
        j["node"] = r.node;
        j["host"] = r.host.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(r.host);
        if (r.remote) j["remote"] = true;        // another node's, as its launcher forwarded it
        if (r.storeOnly) j["store_only"] = true; // another launcher started it: seen in the store only
        j["state"] = rankStateName(r.state);
        j["exit_code"] = r.exitCode >= 0 ? QJsonValue(r.exitCode) : QJsonValue(QJsonValue::Null);
        j["exit"] = r.exitText;
        j["steps"] = double(r.step);
        j["samples_per_s"] = r.samplesPerSec > 0 ? QJsonValue(r.samplesPerSec) : QJsonValue(QJsonValue::Null);
        // Unmeasured (n/a), not 0, for a rank that never stepped.
        j["comm_wait_share"] =
            r.step > 0 && r.commReported ? QJsonValue(r.commWaitShare) : QJsonValue(QJsonValue::Null);
        j["straggler"] = stragglerJson(r.straggler);
        // Its validation passes: their count and time (0 and 0: it made none that it reported).
        j["eval_passes"] = r.evalPasses;
        j["eval_s"] = r.evalS;
        j["stale_step_events"] = double(r.staleStepEvents); // steps that went back, dropped
        j["saves"] = r.saves; // a script's checkpoint saves (torch.save) and their time
        j["save_s"] = r.saveS;
        if (!r.paramsSha256.isEmpty()) j["params_sha256"] = r.paramsSha256;
        j["final_loss"] = numOrNull(r.loss);
        j["error_code"] = r.errorCode.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(r.errorCode);
        j["error_message"] =
            r.errorMessage.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(r.errorMessage);
        j["startup"] = startupJson(r.startup);
        // Null where none was read: another node's rank, a run without a record, or one started before it.
        j["collectives"] = r.history.empty()
                               ? QJsonValue(QJsonValue::Null)
                               : toQtJson(nlohmann::json{{"h", protocol::collectiveHistoryJson(r.history)}})
                                     .value(QLatin1String("h"));
        rs.push_back(j);
    }
    o["ranks"] = rs;
    return o;
}

RunSummary RunSummary::fromJson(const QJsonObject& o) {
    RunSummary s;
    s.status = o.value(QLatin1String("status")).toString(QStringLiteral("stopped"));
    s.worldSize = int(numOr(o, "world_size", 0));
    s.workload = o.value(QLatin1String("workload")).toString();
    s.steps = qint64(numOr(o, "steps", 0));
    s.wallS = numOr(o, "wall_s", 0);
    s.samplesPerS = numOr(o, "samples_per_s", 0);
    s.samplesPerSBasis = o.value(QLatin1String("samples_per_s_basis")).toString();
    s.samplesPerSWhy = o.value(QLatin1String("samples_per_s_why")).toString();
    s.finalLoss = numOr(o, "final_loss", qQNaN());
    s.testAccuracy = numOr(o, "test_accuracy", qQNaN());
    s.failedRank = int(numOr(o, "failed_rank", -1));
    s.failureReason = o.value(QLatin1String("failure_reason")).toString();
    for (const QJsonValue& v : o.value(QLatin1String("failed_rank_stderr")).toArray())
        s.failedRankStderr << v.toString();
    // Written by RunSummary::toJson (run_summary.cpp): a reopened run shows the same explanation and fix.
    const QJsonObject d = o.value(QLatin1String("diagnosis")).toObject();
    if (!d.value(QLatin1String("code")).toString().isEmpty()) {
        Diagnosis g;
        g.code = d.value(QLatin1String("code")).toString().toStdString();
        g.rank = d.value(QLatin1String("rank")).toInt(-1);
        g.message = d.value(QLatin1String("message")).toString().toStdString();
        g.fix = d.value(QLatin1String("fix")).toString().toStdString();
        g.matched = d.value(QLatin1String("matched")).toString().toStdString();
        g.firstFailedRank = d.value(QLatin1String("first_failed_rank")).toInt(-1);
        s.diagnosis = g;
    }
    s.restarts = int(numOr(o, "restarts", 0));
    const QJsonValue same = o.value(QLatin1String("params_identical"));
    s.paramsIdentical = same.isBool() ? (same.toBool() ? 1 : 0) : -1;
    return s;
}

} // namespace ddpdesk::launch
