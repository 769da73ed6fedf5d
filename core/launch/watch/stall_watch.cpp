// Stall watch: when ranks stop making progress, say which ones are behind (by their step counters) and ask
// the doctor about the store, instead of letting the run hang silently until the worker's own timeout.
#include "launch/watch/stall_watch.h"

#include "protocol/telemetry.h"

#include <QJsonArray>
#include <QStringList>

namespace ddpdesk::launch {

StallWatch::StallWatch(QObject& owner, const RunConfig& config, const RunModel& model, Hooks hooks)
    : m_owner(owner), m_config(config), m_model(model), m_hooks(std::move(hooks)), m_doctor(owner) {
    m_timer.setInterval(1000);
    QObject::connect(&m_timer, &QTimer::timeout, &m_owner, [this] { check(); });
}

void StallWatch::start() {
    if (m_config.stallTimeoutSec > 0) m_timer.start();
}

void StallWatch::check() {
    if (!m_hooks.live() || m_config.stallTimeoutSec <= 0) return;
    const double now = protocol::nowSeconds();
    const QVector<int> behind = m_model.laggingRanks(now, m_config.stallTimeoutSec);
    if (behind.isEmpty()) {
        m_reported = false; // progress resumed: a later stall is reported again
        return;
    }
    if (m_reported || m_doctor.busy()) return;
    m_reported = true;

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
        perRank.push_back(QJsonObject{{protocol::field::Rank, r.rank},
                                      {protocol::field::Step, double(r.step)},
                                      {protocol::field::State, rankStateName(r.state)},
                                      {protocol::field::Phase, r.rendezvousPhase}});
    }
    QStringList names;
    for (int r : behind)
        names << QString::number(r);
    qint64 maxStep = 0;
    for (const RankStatus& r : m_model.ranks())
        maxStep = qMax(maxStep, r.step);
    const RankStatus& first = m_model.rank(m_model.indexOfRank(behind.first()));
    // Who holds the run up, as the hold-up watch found it from the ranks' collectives; else behind by step
    // counters; else nobody here is behind (waiting for a rank elsewhere, or for the store).
    const std::optional<Diagnosis>& holdUp = m_model.liveDiagnosis();
    const QString what = holdUp ? QString::fromStdString(holdUp->message)
                         : first.step < maxStep
                             ? tr("rank(s) behind: %1").arg(names.join(", "))
                             : tr("no rank here is behind another (rank(s) %1 at the same point): "
                                  "they wait for a rank elsewhere or for the store")
                                   .arg(names.join(", "));
    QString report =
        tr("no progress for %1 s; %2 [%3]").arg(m_config.stallTimeoutSec).arg(what, counters.join("; "));
    QJsonArray behindJson;
    for (int r : behind)
        behindJson.push_back(r);
    QJsonObject event{{protocol::field::Behind, behindJson},
                      {protocol::field::Ranks, perRank},
                      {protocol::field::StallTimeoutS, m_config.stallTimeoutSec}};

    m_hooks.stacks(tr("no progress for %1 s").arg(m_config.stallTimeoutSec));
    m_doctor.ask(m_hooks.diagnosisRequest(), [this, report, event](const BackgroundDoctor::Answer& a) {
        QString fullReport = report;
        QJsonObject ev = event;
        if (a.error.isEmpty()) {
            fullReport += QStringLiteral("\ndoctor:\n") + a.text;
            ev[protocol::field::Doctor] = a.json;
        } else {
            fullReport += QLatin1Char('\n') + tr("doctor could not run: %1").arg(a.error);
            ev[protocol::field::DoctorError] = a.error;
        }
        m_hooks.diagnosed(fullReport, ev);
    });
}

} // namespace ddpdesk::launch
