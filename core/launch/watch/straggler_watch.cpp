#include "launch/watch/straggler_watch.h"

#include "launch/watch/straggler_evidence.h"
#include "protocol/finding_codes.h"
#include "protocol/telemetry.h"

#include <QJsonArray>
#include <QStringList>

namespace ddpdesk::launch {

StragglerWatch::StragglerWatch(QObject& owner, RunModel& model, Hooks hooks)
    : m_owner(owner), m_model(model), m_hooks(std::move(hooks)) {
    m_timer.setInterval(1000);
    QObject::connect(&m_timer, &QTimer::timeout, &m_owner, [this] { check(); });
}

void StragglerWatch::start(bool on) {
    if (on) m_timer.start();
}

void StragglerWatch::check() {
    if (!m_hooks.live()) return;
    for (const StragglerWarning& w : m_model.takeStragglerWarnings())
        report(w);
}

void StragglerWatch::report(const StragglerWarning& w) {
    const RankStatus& slow = m_model.rank(w.index);
    const RankStatus& fastest = m_model.rank(w.fastest);
    const bool data = w.slowPart == QLatin1String("data_loading");
    const QString part = data ? tr("data loading (its time outside forward and backward)")
                              : tr("compute (its step less the time it waited for the others)");
    QString text =
        tr("rank %1's own work per step has taken %2x the fastest rank's (rank %3) for %4 s: %5 "
           "takes %6 ms a step against %7 ms; the other ranks wait for it in the gradient exchange")
            .arg(slow.rank)
            .arg(w.ratio, 0, 'f', 1)
            .arg(fastest.rank)
            .arg(qRound(w.slowForS))
            .arg(part)
            .arg(w.partMs, 0, 'f', 1)
            .arg(w.fastestPartMs, 0, 'f', 1);
    QJsonObject fields{{protocol::field::Code, QString::fromLatin1(protocol::diagnosis::Straggler)},
                       {protocol::field::Behind, QJsonArray{slow.rank}},
                       {protocol::field::FastestRank, fastest.rank},
                       {protocol::field::Ratio, w.ratio},
                       {protocol::field::OwnMs, w.ownMs},
                       {protocol::field::FastestMs, w.fastestMs},
                       {protocol::field::SlowPart, w.slowPart},
                       {protocol::field::PartMs, w.partMs},
                       {protocol::field::FastestPartMs, w.fastestPartMs},
                       {protocol::field::SlowForS, w.slowForS}};
    // Evidence beside it: what its process does, and its GPU, as the monitor last saw them.
    const StragglerEvidence evidence =
        stragglerEvidence(m_model, w.index, m_hooks.gpuOf ? m_hooks.gpuOf(w.index) : -1, w.fastest,
                          m_hooks.gpuOf ? m_hooks.gpuOf(w.fastest) : -1);
    for (auto it = evidence.fields.begin(); it != evidence.fields.end(); ++it)
        fields[it.key()] = it.value();
    if (!evidence.text.isEmpty())
        text += tr("; its process: %1").arg(evidence.text.join(QStringLiteral(", ")));
    fields[protocol::field::Text] = text;

    const QString fix = data ? tr("Give rank %1's input pipeline more room (DataLoader num_workers, "
                                  "pin_memory, data on a local "
                                  "disk) or look for what else its process does between steps.")
                                   .arg(slow.rank)
                             : tr("Look at what runs beside rank %1: another process on its cores or its "
                                  "GPU, more threads than "
                                  "cores (threads x ranks), a slower or hotter GPU, a lower clock.")
                                   .arg(slow.rank);
    if (!m_model.liveDiagnosis()) { // a hold-up, shown already, says more
        Diagnosis d;
        d.code = protocol::diagnosis::Straggler;
        d.message = text.toStdString();
        d.fix = fix.toStdString();
        d.rank = slow.rank;
        m_model.setLiveDiagnosis(d);
    }
    m_hooks.message(tr("straggler [%1]: %2").arg(QString::fromLatin1(protocol::diagnosis::Straggler), text));
    m_hooks.event(slow.rank, fields);
}

} // namespace ddpdesk::launch
