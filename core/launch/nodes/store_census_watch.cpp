#include "launch/nodes/store_census_watch.h"

#include "launch/model/run_model.h"
#include "protocol/finding_codes.h"

#include <QJsonArray>

namespace ddpdesk::launch {

bool storeArrivedRanks(const QJsonObject& findings, int worldSize, QVector<int>* arrived) {
    for (const QJsonValue& v : findings.value(QLatin1String("findings")).toArray()) {
        const QJsonObject f = v.toObject();
        const QString code = f.value(QLatin1String("code")).toString();
        if (code == QLatin1String(protocol::finding::RanksComplete) && worldSize > 0) {
            for (int r = 0; r < worldSize; ++r)
                arrived->push_back(r);
            return true;
        }
        const QJsonValue listed =
            f.value(QLatin1String("evidence")).toObject().value(QLatin1String("arrived"));
        if (code == QLatin1String(protocol::finding::RanksMissing) && listed.isArray()) {
            for (const QJsonValue& r : listed.toArray())
                arrived->push_back(r.toInt());
            return true;
        }
    }
    return false;
}

StoreCensusWatch::StoreCensusWatch(QObject& owner, const RunModel& model, Hooks hooks)
    : m_model(model), m_hooks(std::move(hooks)), m_doctor(owner) {
    m_timer.setSingleShot(true);
    QObject::connect(&m_timer, &QTimer::timeout, &owner, [this] { look(); });
}

void StoreCensusWatch::start() {
    m_said.clear();
    m_timer.start(kFirstLookMs);
}

void StoreCensusWatch::stop() {
    m_timer.stop();
    m_doctor.abandon();
}

void StoreCensusWatch::look() {
    bool waiting = false;
    for (const NodeStatus& n : m_model.nodes())
        waiting =
            waiting || n.contact == NodeContactState::Waiting || n.contact == NodeContactState::StoreOnly;
    if (!m_hooks.live() || !waiting) return; // every node's launcher has connected: nothing to look for
    doctor::DoctorRequest request = m_hooks.diagnosisRequest();
    request.deadlineSec = 5;
    request.nodes.clear(); // only the store's facts: the nodes' own findings are not needed here
    if (!m_doctor.ask(request, [this](const BackgroundDoctor::Answer& a) { answered(a); }))
        m_timer.start(kIntervalMs);
}

void StoreCensusWatch::answered(const BackgroundDoctor::Answer& a) {
    if (m_hooks.live()) m_timer.start(kIntervalMs);
    QVector<int> arrived;
    if (!a.error.isEmpty() || !storeArrivedRanks(a.json, m_model.summary().worldSize, &arrived)) return;
    for (const NodeStatus& n : m_model.nodes()) {
        if (n.contact != NodeContactState::Waiting && n.contact != NodeContactState::StoreOnly) continue;
        QVector<int> seen;
        for (const RankStatus& r : m_model.ranks())
            if (r.remote && r.node == n.node && arrived.contains(r.rank)) seen.push_back(r.rank);
        if (seen.isEmpty() || seen == m_said.value(n.node)) continue;
        m_said[n.node] = seen;
        m_hooks.seenInStore(n.node, seen);
    }
}

} // namespace ddpdesk::launch
