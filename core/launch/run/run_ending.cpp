#include "launch/run/run_ending.h"

#include <QCoreApplication>

namespace ddpdesk::launch {

namespace {

// The Supervisor's words, in its translation context (resources/translations keeps them; lupdate does not see
// a context string). Not `tr`: a unity build puts this file beside others that have one.
QString supervisorText(const char* text) {
    return QCoreApplication::translate("ddpdesk::launch::Supervisor", text);
}

} // namespace

void RunEnding::beginAttempt() {
    m_failures.clear();
    m_lostNodes.clear();
    m_stopping = false;
    m_userStop = false;
}

void RunEnding::addFailure(const Failure& f) {
    m_failures.push_back(f);
}

const RunEnding::Failure& RunEnding::culprit() const {
    for (const Failure& f : m_failures)
        if (!f.peerLost) return f;
    return m_failures.front();
}

bool RunEnding::onlyPeersLost() const {
    for (const Failure& f : m_failures)
        if (!f.peerLost) return false;
    return !m_failures.isEmpty();
}

bool RunEnding::beginStop(const QString& reason) {
    if (m_stopping) return false;
    m_stopping = true;
    m_stopReason = reason;
    return true;
}

void RunEnding::userStops(const QString& reason) {
    m_userStop = true;
    m_stopReason = reason;
}

void RunEnding::nodeLost(const QString& node) {
    if (!m_userStop && !m_lostNodes.contains(node)) m_lostNodes << node;
}

QString RunEnding::status() const {
    if (m_userStop) return QStringLiteral("stopped");
    return m_failures.isEmpty() ? QStringLiteral("ok") : QStringLiteral("failed");
}

QString RunEnding::failureReason() const {
    if (m_failures.isEmpty()) return {};
    const Failure& f = culprit();
    QString reason = m_failures.size() > 1 ? supervisorText("%1 (first failure; %2 rank(s) failed in all)")
                                                 .arg(f.text, QString::number(m_failures.size()))
                                           : supervisorText("%1 (first failure)").arg(f.text);
    if (!m_lostNodes.isEmpty()) // what this node's ranks then failed of
        reason = supervisorText("%1 lost contact first (its launcher or machine went away); then %2")
                     .arg(m_lostNodes.join(QStringLiteral(", ")), reason);
    return reason;
}

} // namespace ddpdesk::launch
