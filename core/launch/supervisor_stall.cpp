// Stall watch: when ranks stop making progress, say which ones are behind (by their step counters) and ask
// the doctor about the store, instead of letting the run hang silently until the worker's own timeout.
#include "launch/supervisor_impl.h"

#include "doctor/doctor.h"
#include "launch/json_bridge.h"
#include "launch/stack_dump.h"
#include "protocol/telemetry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QTimer>

#include <mutex>
#include <thread>

namespace ddpdesk::launch {

struct StallDoctorLink {
    std::mutex mutex;
    Supervisor* target = nullptr; // null once the Supervisor is gone
};

void abandonStallDoctor(const std::shared_ptr<StallDoctorLink>& link) {
    if (!link) return;
    std::lock_guard<std::mutex> lock(link->mutex);
    link->target = nullptr;
}

void Supervisor::checkStall() {
    if (!m_running || d->stopping || d->restartPending || m_config.stallTimeoutSec <= 0) return;
    const double now = protocol::nowSeconds();
    const QVector<int> behind = m_model.laggingRanks(now, m_config.stallTimeoutSec);
    if (behind.isEmpty()) {
        d->stallReported = false; // progress resumed: a later stall is reported again
        return;
    }
    if (d->stallReported || d->doctorBusy) return;
    d->stallReported = true;

    QStringList counters;
    QJsonArray perRank;
    for (const RankStatus& r : m_model.ranks()) {
        const QString where =
            r.state == RankState::Training
                ? tr("step %1").arg(r.step)
                : QStringLiteral("%1%2").arg(rankStateName(r.state),
                                             r.rendezvousPhase.isEmpty()
                                                 ? QString()
                                                 : QStringLiteral(" (%1)").arg(r.rendezvousPhase));
        counters << tr("rank %1: %2").arg(r.rank).arg(where);
        perRank.push_back(QJsonObject{{"rank", r.rank},
                                      {"step", double(r.step)},
                                      {"state", rankStateName(r.state)},
                                      {"phase", r.rendezvousPhase}});
    }
    QStringList names;
    for (int r : behind)
        names << QString::number(r);
    qint64 maxStep = 0;
    for (const RankStatus& r : m_model.ranks())
        maxStep = qMax(maxStep, r.step);
    const RankStatus& first = m_model.rank(m_model.indexOfRank(behind.first()));
    // Behind by step counters, or all stuck at the same point (waiting for a rank elsewhere, or for the
    // store).
    const QString what = first.step < maxStep
                             ? tr("rank(s) behind: %1").arg(names.join(", "))
                             : tr("rank(s) %1 all stuck at the same point").arg(names.join(", "));
    QString report =
        tr("no progress for %1 s; %2 [%3]").arg(m_config.stallTimeoutSec).arg(what, counters.join("; "));
    QJsonArray behindJson;
    for (int r : behind)
        behindJson.push_back(r);
    QJsonObject event{
        {"behind", behindJson}, {"ranks", perRank}, {"stall_timeout_s", m_config.stallTimeoutSec}};

    requestStacks(tr("no progress for %1 s").arg(m_config.stallTimeoutSec));
    // The doctor probes the network with timeouts; run it off the event loop so the UI and the output keep
    // going.
    ddpdesk::doctor::DoctorRequest req;
    req.store = diagnosisStore().toStdString();
    req.worldSize = m_config.worldSize();
    req.nodeRank = m_config.nodeRank;
    req.jobRunning = true;
    if (!d->doctorLink) {
        d->doctorLink = std::make_shared<StallDoctorLink>();
        d->doctorLink->target = this;
    }
    d->doctorBusy = true;
    // Detached: quitting never waits for a diagnosis (it ends by its own deadline anyway); the answer is
    // posted under the link's lock, so the Supervisor cannot be destroyed in between, and Qt drops an event
    // posted to an object destroyed before it runs.
    std::thread([link = d->doctorLink, req, report, event] {
        QString fullReport = report;
        QJsonObject ev = event;
        try {
            const auto findings = ddpdesk::doctor::diagnose(req);
            fullReport +=
                QStringLiteral("\ndoctor:\n") + QString::fromStdString(ddpdesk::doctor::toText(findings));
            ev["doctor"] = toQtJson(ddpdesk::doctor::toJson(findings));
        } catch (const std::exception& e) {
            fullReport += QLatin1Char('\n') + tr("doctor could not run: %1").arg(QString::fromUtf8(e.what()));
            ev["doctor_error"] = QString::fromUtf8(e.what());
        }
        std::lock_guard<std::mutex> lock(link->mutex);
        if (Supervisor* target = link->target)
            QMetaObject::invokeMethod(
                target,
                [target, fullReport, ev] {
                    target->d->doctorBusy = false;
                    target->onStallDiagnosed(fullReport, ev);
                },
                Qt::QueuedConnection);
    }).detach();
}

void Supervisor::onStallDiagnosed(const QString& report, const QJsonObject& event) {
    writeLauncherEvent("stall", event);
    emit message(tr("stall: %1").arg(report));
    emit stallDetected(report);
}

bool Supervisor::canShowStacks() const {
    return !d->stacksDir.isEmpty();
}

void Supervisor::requestStacks(const QString& reason) {
    if (!m_running) return;
    if (d->stacksDir.isEmpty()) {
        emit message(tr("stacks: only script ranks started with DDP Desk's instrumentation (not "
                        "--no-instrument) show their Python stacks"));
        return;
    }
    QSet<qint64> live; // this attempt's ranks only: an earlier attempt's pid may belong to someone else now
    for (const Worker& w : d->workers)
        if (w.process && !w.exited) live.insert(w.process->processId());
    QVector<StackTarget> targets = stackTargets(d->stacksDir);
    targets.erase(std::remove_if(targets.begin(), targets.end(),
                                 [&live](const StackTarget& t) { return !live.contains(t.pid); }),
                  targets.end());
    launch::requestStacks(targets);
    if (targets.isEmpty()) {
        emit message(tr("stacks: no rank can be asked yet (a rank announces itself once its interpreter has "
                        "started)"));
        return;
    }
    QTimer::singleShot(kStacksWaitMs, this, [this, targets, reason] {
        for (const StackTarget& t : targets) {
            const QString text = collectStacks(t);
            if (text.isEmpty()) {
                emit message(tr("stacks: rank %1 (pid %2) wrote none within %3 ms")
                                 .arg(t.rank)
                                 .arg(t.pid)
                                 .arg(kStacksWaitMs));
                continue;
            }
            if (d->log.isOpen())
                writeLauncherEvent("stacks", {{"reason", reason}, {"pid", double(t.pid)}, {"text", text}},
                                   t.rank);
            const QString shown = tr("stacks of rank %1 (%2):\n%3").arg(t.rank).arg(reason, text);
            emit message(shown);
            m_model.appendNote(m_model.indexOfRank(t.rank), shown); // and in that rank's own log
        }
    });
}

} // namespace ddpdesk::launch
