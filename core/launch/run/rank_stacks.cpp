// Asking the live ranks for their stacks and collecting what they wrote.
#include "launch/run/rank_stacks.h"

#include "launch/diagnose/stack_dump.h"
#include "protocol/telemetry.h"

#include <QTimer>

#include <algorithm>
#include <utility>

namespace ddpdesk::launch {

RankStacks::RankStacks(QObject& owner, RunModel& model, Hooks hooks)
    : m_owner(owner), m_model(model), m_hooks(std::move(hooks)) {}

void RankStacks::request(const QString& reason, const QSet<qint64>& live, Answers done) {
    if (m_folder.isEmpty()) {
        m_hooks.message(tr("stacks: only script ranks started with DDP Desk's instrumentation (not "
                           "--no-instrument) show their Python stacks"));
        if (done) done({});
        return;
    }
    if (m_asking) { // one question at a time: this reason joins the one being answered
        if (!m_reasons.contains(reason)) m_reasons << reason;
        if (done) m_done << done;
        return;
    }
    QVector<StackTarget> targets = stackTargets(m_folder);
    targets.erase(std::remove_if(targets.begin(), targets.end(),
                                 [&live](const StackTarget& t) { return !live.contains(t.pid); }),
                  targets.end());
    launch::requestStacks(targets);
    if (targets.isEmpty()) {
        m_hooks.message(
            tr("stacks: no rank can be asked yet (a rank announces itself once its interpreter has "
               "started)"));
        if (done) done({});
        return;
    }
    m_asking = true;
    m_reasons = QStringList{reason};
    m_done.clear();
    if (done) m_done << done;
    QTimer::singleShot(kStacksWaitMs, &m_owner, [this, targets] {
        const QString reason = m_reasons.join(QStringLiteral("; "));
        const QVector<Answers> callbacks = std::exchange(m_done, {});
        m_asking = false;
        doneAsking(targets);
        QMap<int, QString> answers;
        for (const StackTarget& t : targets) {
            const QString text = collectStacks(t);
            if (!text.isEmpty()) answers[t.rank] = text;
            if (text.isEmpty()) {
                m_hooks.message(tr("stacks: rank %1 (pid %2) wrote none within %3 ms")
                                    .arg(t.rank)
                                    .arg(t.pid)
                                    .arg(kStacksWaitMs));
                continue;
            }
            m_hooks.event(t.rank, {{protocol::field::Reason, reason},
                                   {protocol::field::Pid, double(t.pid)},
                                   {protocol::field::Text, text}});
            const QString shown = tr("stacks of rank %1 (%2):\n%3").arg(t.rank).arg(reason, text);
            m_hooks.message(shown);
            m_model.appendNote(m_model.indexOfRank(t.rank), shown); // and in that rank's own log
        }
        for (const Answers& callback : callbacks)
            callback(answers);
    });
}

} // namespace ddpdesk::launch
