#include "launch/watch/collective_watch.h"

#include "launch/diagnose/stack_dump.h"
#include "launch/model/json_bridge.h"
#include "protocol/finding_codes.h"
#include "protocol/telemetry.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QStringList>

namespace ddpdesk::launch {

namespace {

QString ranksText(const std::vector<int>& ranks) {
    QStringList names;
    for (int r : ranks)
        names << QString::number(r);
    return ranks.size() == 1 ? CollectiveWatch::tr("rank %1").arg(names.front())
                             : CollectiveWatch::tr("ranks %1").arg(names.join(QStringLiteral(", ")));
}

QJsonArray jsonRanks(const std::vector<int>& ranks) {
    QJsonArray a;
    for (int r : ranks)
        a.push_back(r);
    return a;
}

// Every rank of the world is one of this launcher's: nothing elsewhere can be what they wait for.
bool everyRankIsHere(const RunModel& model) {
    int here = 0;
    for (const RankStatus& r : model.ranks())
        if (!r.remote) ++here;
    return here >= model.summary().worldSize;
}

} // namespace

QString collectivesFile(const QString& dir, int rank) {
    return QDir(dir).filePath(QStringLiteral("collectives-%1.txt").arg(rank));
}

std::vector<protocol::CollectiveEntry> readCollectiveHistory(const QString& dir, int rank) {
    QFile f(collectivesFile(dir, rank));
    if (dir.isEmpty() || !f.open(QIODevice::ReadOnly)) return {};
    const QByteArray bytes = f.read(qint64(protocol::kCollectivesFileBytes));
    return protocol::parseCollectiveHistory(std::string_view(bytes.constData(), size_t(bytes.size())));
}

CollectiveWatch::CollectiveWatch(QObject& owner, RunModel& model, Hooks hooks)
    : m_owner(owner), m_model(model), m_hooks(std::move(hooks)), m_doctor(owner) {
    m_timer.setInterval(1000);
    QObject::connect(&m_timer, &QTimer::timeout, &m_owner, [this] { check(); });
}

void CollectiveWatch::start() {
    if (!m_folder.isEmpty()) m_timer.start();
}

void CollectiveWatch::rearm() {
    m_reported.clear();
    m_historySeen.clear();
    m_asking = false;
    m_doctor.abandon();
    if (m_folder.isEmpty()) return;
    // An earlier attempt's records would speak for ranks that are not there yet.
    const QDir dir(m_folder);
    for (const QString& name : dir.entryList({QStringLiteral("collectives-*.txt")}, QDir::Files))
        QFile::remove(dir.filePath(name));
}

void CollectiveWatch::keepHistories() {
    if (m_folder.isEmpty()) return;
    const QVector<RankStatus>& ranks = m_model.ranks();
    for (int i = 0; i < ranks.size(); ++i)
        if (!ranks[i].remote && !ranks[i].storeOnly)
            m_model.setCollectiveHistory(i, readCollectiveHistory(m_folder, ranks[i].rank));
}

// The last `n` collectives of each rank, for a `diagnosis` event: what each was doing when it was said.
QJsonObject CollectiveWatch::lastCollectives(const QVector<int>& ranks, std::size_t n) const {
    QJsonObject out;
    for (int rank : ranks) {
        std::vector<protocol::CollectiveEntry> h = readCollectiveHistory(m_folder, rank);
        if (h.size() > n) h.erase(h.begin(), h.end() - std::ptrdiff_t(n));
        const nlohmann::json j = protocol::collectiveHistoryJson(h);
        out[QString::number(rank)] = toQtJson(nlohmann::json{{"e", j}}).value(QStringLiteral("e"));
    }
    return out;
}

void CollectiveWatch::check() {
    if (m_folder.isEmpty() || m_asking || !m_hooks.live()) return;
    std::vector<RankCollectives> records;
    for (int rank : m_hooks.ranks()) {
        QFile f(collectivesFile(m_folder, rank));
        if (!f.open(QIODevice::ReadOnly)) continue;
        const QByteArray bytes = f.read(qint64(protocol::kCollectivesFileBytes));
        const auto record =
            protocol::currentCollectiveRecord(std::string_view(bytes.constData(), size_t(bytes.size())));
        if (!record) continue; // caught half-written: the next look reads it whole
        records.push_back({rank, *record});
        const int index = m_model.indexOfRank(rank);
        m_model.setCollectives(index, record->entered, record->inside());
        // The Run page's last collectives, from the same bytes: parsed only when this rank's have moved on.
        const std::pair<qint64, qint64> seen{record->entered, record->completed};
        if (m_historySeen.value(rank) != seen) {
            m_historySeen[rank] = seen;
            m_model.setCollectiveHistory(index, protocol::parseCollectiveHistory(std::string_view(
                                                    bytes.constData(), size_t(bytes.size()))));
        }
    }
    const std::optional<HoldUp> h = findHoldUpByAnyCount(records, protocol::nowSeconds(), m_thresholds);
    if (!h) {
        if (!m_reported.isEmpty()) m_model.setLiveDiagnosis(std::nullopt); // it moved on
        m_reported.clear();
        return;
    }
    const QString key = QStringLiteral("%1 #%2").arg(QString::fromStdString(h->code)).arg(h->number);
    if (key == m_reported) return;
    m_reported = key;
    const bool mismatch = h->code == protocol::diagnosis::CollectiveMismatch;
    if (h->code != protocol::diagnosis::RankBehind && !mismatch) {
        report(*h, {});
        return;
    }
    // Where the late (or diverged) ranks are, before saying so: their stacks come within a second and a half.
    m_asking = true;
    m_hooks.stacks(mismatch ? tr("%1 in different collectives").arg(ranksText(h->waiting))
                            : tr("%1 behind").arg(ranksText(h->behind)),
                   [this, hold = *h, validation = validationNote(*h)](const QMap<int, QString>& stacks) {
                       m_asking = false;
                       report(hold, stacks, validation);
                   });
}

// "rank 0 is in a validation pass (for 3.1 s) that the others do not make" while every rank behind is in one
// (`eval` events), else empty. Said as seen when the hold-up is found: the stacks come a moment later, and a
// short pass may have ended by then.
QString CollectiveWatch::validationNote(const HoldUp& h) const {
    double since = 0;
    for (int r : h.behind) {
        const int i = m_model.indexOfRank(r);
        if (i < 0 || !m_model.rank(i).evaluating) return {};
        since = qMax(since, m_model.rank(i).evalSinceT);
    }
    if (h.behind.empty() || since <= 0) return {};
    return tr("%1 is in a validation pass (for %2 s) that the others do not make")
        .arg(ranksText(h.behind))
        .arg(qMax(0.0, protocol::nowSeconds() - since), 0, 'f', 1);
}

void CollectiveWatch::report(const HoldUp& h, const QMap<int, QString>& stacks, const QString& validation) {
    if (!m_hooks.live()) return;
    const QString what = QString::fromStdString(describeCollective(h));
    const QString waited = QString::number(h.waitedS, 'f', 1);
    Diagnosis d;
    d.code = h.code;
    QString text, fix;
    if (h.code == protocol::diagnosis::RankBehind) {
        text = (h.behind.size() == 1 ? tr("%1 has not entered %2 that %3 entered %4 s ago")
                                     : tr("%1 have not entered %2 that %3 entered %4 s ago"))
                   .arg(ranksText(h.behind), what, ranksText(h.waiting), waited);
        QStringList where;
        for (int r : h.behind) {
            const QString at = whereInUserCode(stacks.value(r));
            if (!at.isEmpty()) where << tr("rank %1 is at %2").arg(r).arg(at);
        }
        if (!where.isEmpty()) text += QStringLiteral("; ") + where.join(QStringLiteral("; "));
        d.matched = where.join(QStringLiteral("; ")).toStdString();
        d.rank = h.behind.front();
        fix = tr("Everyone waits for %1: look at what it does there (slow data loading, a sleep or a lock, a "
                 "branch only some ranks take that skips a collective, a device that hangs).")
                  .arg(ranksText(h.behind));
        // Late because it validated while the others waited (rank 0 evaluating alone, as nanoGPT does): said
        // as such, with the way out; the run goes on once the pass ends.
        if (!validation.isEmpty()) {
            text += QStringLiteral("; ") + validation;
            fix =
                tr("The others wait for %1's validation pass; the run goes on when it ends. To keep them "
                   "busy, give every rank a share of the validation set (a DistributedSampler over it, then "
                   "all_reduce the metric), or validate less often.")
                    .arg(ranksText(h.behind));
        }
    } else if (h.code == protocol::diagnosis::CollectiveMismatch) {
        // Each rank's collective and, where its stack says, the line of the script that sent it there.
        QStringList each, where;
        for (const RankWait& w : h.each) {
            HoldUp one = h;
            one.kind = w.kind;
            one.detail = w.detail;
            one.bytes = w.bytes;
            each << tr("rank %1 in %2").arg(w.rank).arg(QString::fromStdString(describeCollective(one)));
            QString at = whereInUserCode(stacks.value(w.rank));
            if (at.isEmpty()) { // no stack to read (a worker rank, or no answer): its own collective record
                const std::vector<protocol::CollectiveEntry> h = readCollectiveHistory(m_folder, w.rank);
                if (!h.empty() && !h.back().site.empty()) at = QString::fromStdString(h.back().site);
            }
            if (!at.isEmpty()) where << tr("rank %1 is at %2").arg(w.rank).arg(at);
        }
        text = tr("the ranks wait in different collectives for %1 s: %2; their code paths diverged and none "
                  "of them can finish")
                   .arg(waited, each.join(QStringLiteral("; ")));
        if (!where.isEmpty()) text += QStringLiteral("; ") + where.join(QStringLiteral("; "));
        d.matched = where.join(QStringLiteral("; ")).toStdString();
        d.rank = h.each.front().rank;
        fix =
            tr("Make every rank run the same collectives in the same order with the same shapes: look for a "
               "branch only some ranks take around the lines named (if rank == 0: ...), such as rank 0 alone "
               "calling the DDP model or a collective.");
    } else if (everyRankIsHere(m_model)) {
        // One machine holds every rank, so no peer elsewhere can be missing.
        text =
            tr("every rank of this run (all on this machine) has waited in %1 for %2 s and none of them is "
               "behind: they may be in collectives that do not match (a branch only some ranks take), or "
               "the transport between them hangs")
                .arg(what, waited);
        fix =
            tr("Show stacks to see where each rank is: look for a rank-dependent branch around a collective "
               "or a DDP forward; TORCH_DISTRIBUTED_DEBUG=DETAIL names the first difference.");
    } else {
        text =
            tr("every rank here has waited in %1 for %2 s and none of them is behind: a rank elsewhere (on "
               "another node) has not entered it, or the network does not carry the data")
                .arg(what, waited);
        fix = tr("Check that every node's ranks are running (Diagnose reads the store), and that "
                 "GLOO_SOCKET_IFNAME names a link all nodes share.");
    }
    d.message = text.toStdString();
    d.fix = fix.toStdString();
    m_model.setLiveDiagnosis(d);
    m_hooks.message(tr("hold-up [%1]: %2").arg(QString::fromStdString(h.code), text));
    if (h.code == protocol::diagnosis::CollectiveWaitAll && m_hooks.doctorRequest)
        m_doctor.ask(m_hooks.doctorRequest(),
                     [this, h](const BackgroundDoctor::Answer& a) { reportDoctor(h, a); });
    m_hooks.event(d.rank, {{protocol::field::Code, QString::fromStdString(h.code)},
                           {protocol::field::Text, text},
                           {protocol::field::Behind, jsonRanks(h.behind)},
                           {protocol::field::Waiting, jsonRanks(h.waiting)},
                           {protocol::field::Collective,
                            QJsonObject{{protocol::field::Number, double(h.number)},
                                        {protocol::field::Kind, QString::fromStdString(h.kind)},
                                        {protocol::field::Detail, QString::fromStdString(h.detail)},
                                        {protocol::field::Bytes, double(h.bytes)}}},
                           {protocol::field::WaitedS, h.waitedS},
                           {protocol::field::LastCollectives, lastCollectives(m_hooks.ranks(), 8)}});
}

// The store's view of a wait nobody here explains, said once it is in: on the terminal and the launcher log,
// as a second `diagnosis` event of the same code with the doctor's findings, and its first error (or warning)
// in the banner's text while the hold-up lasts.
void CollectiveWatch::reportDoctor(const HoldUp& h, const BackgroundDoctor::Answer& a) {
    const QString code = QString::fromStdString(h.code);
    if (!a.error.isEmpty()) {
        m_hooks.message(tr("hold-up [%1]: the doctor could not run: %2").arg(code, a.error));
        return;
    }
    m_hooks.message(tr("hold-up [%1]: the doctor on the store:\n%2").arg(code, a.text.trimmed()));
    m_hooks.event(-1,
                  {{protocol::field::Code, code},
                   {protocol::field::Collective, QJsonObject{{protocol::field::Number, double(h.number)}}},
                   {protocol::field::Doctor, a.json}});
    QString first;
    for (const char* severity : {"error", "warning"})
        for (const QJsonValue& f : a.json.value(QStringLiteral("findings")).toArray())
            if (first.isEmpty() &&
                f.toObject().value(QStringLiteral("severity")).toString() == QLatin1String(severity))
                first = f.toObject().value(QStringLiteral("message")).toString();
    std::optional<Diagnosis> d = m_model.liveDiagnosis();
    if (first.isEmpty() || !d || d->code != h.code) return; // it moved on meanwhile
    d->message += " " + tr("The doctor: %1").arg(first).toStdString();
    m_model.setLiveDiagnosis(d);
}

} // namespace ddpdesk::launch
