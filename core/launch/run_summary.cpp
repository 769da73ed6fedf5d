// summary.json: the contract other tools read (keys are stable; NaN becomes null).
#include "launch/run_model.h"

#include <QJsonArray>

#include <cmath>

namespace ddpdesk::launch {

namespace {
QJsonValue numOrNull(double v) {
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null);
}
} // namespace

QJsonObject RunSummary::toJson(const QVector<RankStatus>& ranks) const {
    QJsonObject o;
    o["status"] = status;
    o["world_size"] = worldSize;
    o["workload"] = workload;
    o["steps"] = double(steps);
    o["wall_s"] = wallS;
    o["samples_per_s"] = samplesPerS;
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
    QJsonArray rs;
    for (const RankStatus& r : ranks) {
        QJsonObject j;
        j["rank"] = r.rank;
        j["local_rank"] = r.localRank;
        j["state"] = rankStateName(r.state);
        j["exit_code"] = r.exitCode >= 0 ? QJsonValue(r.exitCode) : QJsonValue(QJsonValue::Null);
        j["exit"] = r.exitText;
        j["steps"] = double(r.step);
        j["samples_per_s"] = r.samplesPerSec;
        j["comm_wait_share"] = r.commWaitShare;
        j["final_loss"] = numOrNull(r.loss);
        j["error_code"] = r.errorCode.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(r.errorCode);
        j["error_message"] =
            r.errorMessage.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(r.errorMessage);
        rs.push_back(j);
    }
    o["ranks"] = rs;
    return o;
}

} // namespace ddpdesk::launch
