#include "launch/diagnose/scaling.h"

#include "protocol/finding_codes.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>

#include <algorithm>

namespace ddpdesk::launch {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ddpdesk::launch::Scaling", text);
}

QString percent(double share) {
    return QString::number(share * 100.0, 'f', 0) + QStringLiteral(" %");
}

QString megabytes(double bytes) {
    return QString::number(bytes / 1e6, 'f', bytes >= 1e7 ? 0 : 2) + QStringLiteral(" MB");
}

// The straggler the others wait for: of the ranks the meter calls slow, the one furthest above
// kStragglerRatio.
const ScalingRank* straggler(const QVector<ScalingRank>& ranks) {
    const ScalingRank* worst = nullptr;
    for (const ScalingRank& r : ranks)
        if (r.slow && r.vsFastest >= kStragglerRatio && (!worst || r.vsFastest > worst->vsFastest))
            worst = &r;
    return worst;
}

// The smallest share of its step any rank here waited in the exchange; -1 where one did not report it.
// Every rank waiting means nobody here is late: the exchange itself is slow (one rank waiting far less than
// the others is the one they wait for, a straggler, not the link).
double leastCommShare(const ScalingFacts& f) {
    double least = 1;
    for (const ScalingRank& r : f.ranks) {
        if (r.commWaitShare < 0) return -1;
        least = std::min(least, r.commWaitShare);
    }
    // One local rank of a multi-node job counts: it waits for the other nodes' ranks over the link.
    return f.ranks.isEmpty() || f.worldSize < 2 ? -1 : least;
}

void commBound(const ScalingFacts& f, QVector<ScalingCause>& out) {
    const double least = leastCommShare(f);
    if (least < kCommBoundShare) return;
    double bytes = -1, stepMs = -1;
    for (const ScalingRank& r : f.ranks) {
        bytes = std::max(bytes, r.bytesPerStep);
        stepMs = std::max(stepMs, r.stepMs);
    }
    ScalingCause c;
    c.code = QString::fromLatin1(protocol::diagnosis::CommBound);
    c.text =
        tr("every rank here waits at least %1 of its step for the gradient exchange: the exchange, not the "
           "computation, sets the pace")
            .arg(percent(least));
    QJsonObject e{{"least_comm_wait_share", least}};
    if (bytes > 0 && stepMs > 0) {
        const double waitS = least * stepMs / 1000.0;
        c.text += tr(" (%1 of gradients a step; %2 per second while waiting)")
                      .arg(megabytes(bytes), megabytes(bytes / std::max(waitS, 1e-6)));
        e["bytes_per_step"] = bytes;
        e["step_ms"] = stepMs;
    }
    c.fix =
        tr("Exchange less often or less: a larger batch per rank or --accumulate, --grad-compression fp16, "
           "a faster link between the nodes (GLOO_SOCKET_IFNAME / --iface naming it), or fewer ranks.");
    c.evidence = e;
    out.push_back(c);
}

void dataBound(const ScalingFacts& f, QVector<ScalingCause>& out) {
    const ScalingRank* most = nullptr;
    for (const ScalingRank& r : f.ranks)
        if (r.dataMs >= 0 && r.stepMs > 0 && r.dataMs / r.stepMs >= kDataBoundShare &&
            (!most || r.dataMs / r.stepMs > most->dataMs / most->stepMs))
            most = &r;
    if (!most) return;
    ScalingCause c;
    c.code = QString::fromLatin1(protocol::diagnosis::DataBound);
    c.text =
        tr("rank %1 spends %2 of its step outside forward and backward (%3 ms of %4 ms): loading data, or "
           "the script's own work between steps")
            .arg(most->rank)
            .arg(percent(most->dataMs / most->stepMs))
            .arg(most->dataMs, 0, 'f', 1)
            .arg(most->stepMs, 0, 'f', 1);
    c.fix = tr(
        "Feed the ranks faster: DataLoader num_workers and pin_memory, data on a local disk, work moved out "
        "of the training loop.");
    c.evidence = {{"rank", most->rank}, {"data_ms", most->dataMs}, {"step_ms", most->stepMs}};
    out.push_back(c);
}

void cpuOversubscribed(const ScalingFacts& f, QVector<ScalingCause>& out) {
    const int wanted = f.threadsPerRank * f.localRanks;
    if (f.threadsPerRank <= 0 || f.cores <= 0 || wanted <= f.cores) return;
    ScalingCause c;
    c.code = QString::fromLatin1(protocol::diagnosis::CpuOversubscribed);
    c.text = tr("%1 ranks x %2 threads = %3 threads on %4 cores: the ranks take the cores from each other")
                 .arg(f.localRanks)
                 .arg(f.threadsPerRank)
                 .arg(wanted)
                 .arg(f.cores);
    c.fix =
        tr("Give each rank at most %1 thread(s) (--threads, or OMP_NUM_THREADS for a script), or run fewer "
           "ranks on this machine.")
            .arg(std::max(1, f.cores / std::max(1, f.localRanks)));
    c.evidence = {{"ranks", f.localRanks}, {"threads_per_rank", f.threadsPerRank}, {"cores", f.cores}};
    out.push_back(c);
}

void gpuShared(const ScalingFacts& f, QVector<ScalingCause>& out) {
    QHash<QString, QList<int>> byGpu;
    for (int i = 0; i < f.devices.size() && i < f.ranks.size(); ++i)
        if (f.devices[i] != QLatin1String("cpu")) byGpu[f.devices[i]] << f.ranks[i].rank;
    for (auto it = byGpu.begin(); it != byGpu.end(); ++it) {
        if (it.value().size() < 2) continue;
        QStringList ranks;
        QJsonArray json;
        for (int r : it.value()) {
            ranks << QString::number(r);
            json.push_back(r);
        }
        ScalingCause c;
        c.code = QString::fromLatin1(protocol::diagnosis::GpuShared);
        c.text = tr("ranks %1 share GPU %2: they take turns on it")
                     .arg(ranks.join(QStringLiteral(", ")), it.key());
        c.fix =
            tr("One rank per GPU: --devices with each GPU once, and --nproc no larger than the GPU count.");
        c.evidence = {{"gpu", it.key()}, {"ranks", json}};
        out.push_back(c);
    }
}

void stragglerCause(const ScalingFacts& f, QVector<ScalingCause>& out) {
    const ScalingRank* s = straggler(f.ranks);
    if (!s) return;
    ScalingCause c;
    c.code = QString::fromLatin1(protocol::diagnosis::Straggler);
    c.text = tr("rank %1's own work takes %2x the fastest rank's: every step waits for it")
                 .arg(s->rank)
                 .arg(s->vsFastest, 0, 'f', 1);
    // What is slow, from the facts themselves: the live STRAGGLER warning that would name it waits
    // --straggler-after seconds, and a shorter run never has one. In lockstep every rank's step takes as
    // long, so the slow rank's excess own work is about its step less the fastest's share of it.
    const ScalingRank* fastest = nullptr;
    for (const ScalingRank& r : f.ranks)
        if (r.vsFastest > 0 && (!fastest || r.vsFastest < fastest->vsFastest)) fastest = &r;
    QString part, slowPart;
    if (fastest && s->dataMs >= 0 && fastest->dataMs >= 0 && s->stepMs > 0) {
        const double excess = s->stepMs * (1.0 - 1.0 / s->vsFastest);
        if (s->dataMs - fastest->dataMs >= 0.5 * excess) {
            slowPart = QStringLiteral("data_loading");
            part = tr("data loading (%1 ms a step outside forward and backward, against %2 ms on rank %3)")
                       .arg(s->dataMs, 0, 'f', 1)
                       .arg(fastest->dataMs, 0, 'f', 1)
                       .arg(fastest->rank);
        } else {
            slowPart = QStringLiteral("compute");
            part = tr("compute (forward and backward: its time outside them is like the others')");
        }
    } else {
        part = tr("compute or data loading (its time outside forward and backward was not reported)");
    }
    c.fix = tr("Find what makes rank %1's %2 slower than the others': different data or work on that rank, a "
               "slower device, or a busier machine.")
                .arg(s->rank)
                .arg(part);
    c.evidence = {{"rank", s->rank}, {"vs_fastest", s->vsFastest}};
    if (!slowPart.isEmpty()) c.evidence["slow_part"] = slowPart;
    out.push_back(c);
}

QString speedText(std::int64_t mbps) {
    if (mbps < 0) return tr("speed not reported");
    return mbps >= 1000 ? tr("%1 Gbit/s").arg(double(mbps) / 1000.0, 0, 'g', 3) : tr("%1 Mbit/s").arg(mbps);
}

QString described(const os::NetInterface& i) {
    const QString kind = i.kind == os::InterfaceKind::Virtual    ? QString::fromStdString(i.kindWhy)
                         : i.kind == os::InterfaceKind::Loopback ? tr("loopback")
                         : i.kind == os::InterfaceKind::Wireless ? tr("wireless")
                                                                 : tr("wired");
    const QString address =
        i.addresses.empty() ? QString() : QString::fromStdString(i.addresses.front()) + ", ";
    return QStringLiteral("%1 (%2%3, %4)")
        .arg(QString::fromStdString(i.name), address, kind, speedText(i.speedMbps));
}

// The interface Gloo should rather use: up, with an address, neither loopback nor virtual; the fastest, a
// wired one before a wireless one of the same speed.
const os::NetInterface* betterInterface(const ScalingFacts& f, const os::NetInterface& used) {
    const os::NetInterface* best = nullptr;
    auto rank = [](const os::NetInterface& i) {
        return std::make_pair(i.speedMbps, i.kind == os::InterfaceKind::Wired ? 1 : 0);
    };
    for (const os::NetInterface& i : f.interfaces) {
        if (i.name == used.name || !i.up || i.addresses.empty() || i.kind == os::InterfaceKind::Loopback ||
            i.kind == os::InterfaceKind::Virtual)
            continue;
        if (!best || rank(i) > rank(*best)) best = &i;
    }
    return best;
}

void wrongInterface(const ScalingFacts& f, QVector<ScalingCause>& out) {
    if (f.worldSize <= f.localRanks || f.glooInterface.isEmpty()) return; // one node: Gloo stays here
    const os::NetInterface* used = nullptr;
    for (const os::NetInterface& i : f.interfaces)
        if (QString::fromStdString(i.name) == f.glooInterface) used = &i;
    if (!used) return;
    const os::NetInterface* better = betterInterface(f, *used);
    const bool commBoundHere = leastCommShare(f) >= kCommBoundShare;
    QString why;
    if (used->kind == os::InterfaceKind::Loopback)
        why = tr("loopback reaches no other machine");
    else if (commBoundHere && better && used->kind == os::InterfaceKind::Virtual)
        why = tr("every rank here waits at least %1 of its step for the exchange, and %2 adds a hop "
                 "and often a slower path")
                  .arg(percent(leastCommShare(f)), QString::fromStdString(used->kindWhy));
    else if (commBoundHere && better && used->speedMbps > 0 && better->speedMbps >= 2 * used->speedMbps)
        why = tr("every rank here waits at least %1 of its step for the exchange over the slower link")
                  .arg(percent(leastCommShare(f)));
    if (why.isEmpty()) return;
    ScalingCause c;
    c.code = QString::fromLatin1(protocol::diagnosis::WrongInterface);
    c.text = tr("Gloo's traffic between the nodes goes through %1 (%2): %3")
                 .arg(described(*used), f.glooInterfaceFrom, why);
    if (better) c.text += tr("; %1 is up here too").arg(described(*better));
    c.fix = better
                ? tr("Name the interface the nodes reach each other through: --iface %1 "
                     "(GLOO_SOCKET_IFNAME=%1 for a script, torchrun or mpirun), on every node with its own "
                     "interface name.")
                      .arg(QString::fromStdString(better->name))
                : tr("Name the interface the nodes reach each other through: --iface NAME "
                     "(GLOO_SOCKET_IFNAME), on every node.");
    QJsonObject e{{"gloo_interface", f.glooInterface},
                  {"gloo_interface_kind", os::interfaceKindName(used->kind)},
                  {"gloo_interface_from", f.glooInterfaceFrom}};
    if (used->speedMbps > 0) e["gloo_interface_mbps"] = double(used->speedMbps);
    if (better) {
        e["better_interface"] = QString::fromStdString(better->name);
        if (better->speedMbps > 0) e["better_interface_mbps"] = double(better->speedMbps);
    }
    c.evidence = e;
    out.push_back(c);
}

// More ranks only train more separate models: nothing else about the run's scaling means anything.
void eachRankAlone(const ScalingFacts& f, QVector<ScalingCause>& out) {
    if (!f.eachRankAlone || f.worldSize < 2) return;
    ScalingCause c;
    c.code = QString::fromLatin1(protocol::diagnosis::EachRankAlone);
    c.text =
        tr("each rank trains alone: no rank ran a forward of a model wrapped in DistributedDataParallel, so "
           "no gradients are exchanged and the %1 ranks train %1 separate models")
            .arg(f.worldSize);
    c.fix =
        tr("Wrap the model after init_process_group and before the optimizer is made: model = "
           "torch.nn.parallel.DistributedDataParallel(model) (with device_ids=[local_rank] on a GPU), and "
           "check that the script does not skip the wrap on this device (some examples wrap only on CUDA).");
    c.evidence = {{"world_size", f.worldSize}};
    out.push_back(c);
}

// Work one rank does alone while the others wait for it at their next gradient exchange, however many there
// are: validation passes (rank 0 evaluating alone, as nanoGPT does) and checkpoint saves. A rank's own work
// leaves both out (model/run_model.cpp), so this is never called a straggler.
double asideS(const ScalingRank& r) {
    return r.evalS + r.saveS;
}

void unsharedWork(const ScalingFacts& f, QVector<ScalingCause>& out) {
    if (f.ranks.size() < 2 || f.wallS <= 0) return;
    const ScalingRank* most = &f.ranks.front();
    for (const ScalingRank& r : f.ranks)
        if (asideS(r) > asideS(*most)) most = &r;
    const double mostS = asideS(*most);
    if (mostS < qMax(1.0, 0.05 * f.wallS)) return; // too little to matter
    QStringList others;
    QJsonArray otherRanks;
    double othersS = 0;
    for (const ScalingRank& r : f.ranks)
        if (asideS(r) <= 0.25 * mostS) {
            others << QString::number(r.rank);
            otherRanks.append(r.rank);
            othersS = qMax(othersS, asideS(r));
        }
    if (others.isEmpty()) return; // every rank does its share
    QStringList what, fixes;
    if (most->evalPasses > 0) {
        what << tr("%1 validation passes (%2 s)").arg(most->evalPasses).arg(most->evalS, 0, 'f', 1);
        fixes << tr("Give every rank a share of the validation set (a DistributedSampler over it, then "
                    "all_reduce the metric), or validate less often.");
    }
    if (most->saves > 0) {
        what << tr("%1 checkpoint saves (%2 s)").arg(most->saves).arg(most->saveS, 0, 'f', 1);
        fixes << tr(
            "Save less often, or save in the background: copy the state to the CPU, then write it "
            "from another thread (torch.distributed.checkpoint.async_save in PyTorch 2.3 and later).");
    }
    ScalingCause c;
    c.code = QString::fromLatin1(protocol::diagnosis::UnsharedWork);
    c.text =
        tr("rank %1 spent %2 s (%3 of the run) in %4 that rank %5 did not make: they waited for it at their "
           "next gradient exchange, and more ranks will not shorten it")
            .arg(most->rank)
            .arg(mostS, 0, 'f', 1)
            .arg(percent(qMin(1.0, mostS / f.wallS)))
            .arg(what.join(tr(" and ")))
            .arg(others.join(QStringLiteral(", ")));
    c.fix = fixes.join(QLatin1Char(' '));
    c.evidence = {
        {"rank", most->rank},        {"eval_s", most->evalS}, {"eval_passes", most->evalPasses},
        {"save_s", most->saveS},     {"saves", most->saves},  {"share_of_run", qMin(1.0, mostS / f.wallS)},
        {"other_ranks", otherRanks}, {"others_s", othersS}};
    out.push_back(c);
}

} // namespace

QVector<ScalingCause> diagnoseScaling(const ScalingFacts& facts) {
    QVector<ScalingCause> out;
    eachRankAlone(facts, out);
    if (!out.isEmpty()) return out;
    cpuOversubscribed(facts, out);
    gpuShared(facts, out);
    stragglerCause(facts, out);
    unsharedWork(facts, out);
    wrongInterface(facts, out);
    commBound(facts, out);
    dataBound(facts, out);
    return out;
}

} // namespace ddpdesk::launch
