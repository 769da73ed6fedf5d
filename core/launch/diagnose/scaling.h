#pragma once

// Why a run does not get faster with more ranks, from what it measured: every rank waiting on the gradient
// exchange (COMM_BOUND), steps spent outside forward and backward (DATA_BOUND), more threads than cores
// (CPU_OVERSUBSCRIBED), two ranks on one GPU (GPU_SHARED), one rank the others wait for (STRAGGLER), Gloo's
// traffic on loopback, a virtual adapter or a slower link while a better one is up (WRONG_INTERFACE), a
// script whose ranks never wrap a model in DistributedDataParallel and so each train alone (EACH_RANK_ALONE),
// validation passes or checkpoint saves some ranks make while the others wait (UNSHARED_WORK).
// Each cause comes with its evidence and the fix. Plain facts in, plain words out: the launcher fills the
// facts at the end of a run (run/scaling_facts.h) (summary.json `scaling`, the CLI's end report, sweep.csv),
// tests feed made-up ones.

#include "os/net_interfaces.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>

namespace ddpdesk::launch {

struct ScalingRank {
    int rank = -1;
    double commWaitShare = -1; // of its step time, waiting in the gradient exchange; -1: not reported
    double stepMs = -1;        // its latest mean step time
    double dataMs = -1;        // of which outside forward and backward (script ranks)
    double vsFastest = -1;     // its own work against the fastest rank's (model/straggler.h); -1: unknown
    bool slow = false; // StragglerMeter's verdict: kStragglerRatio and at least a few milliseconds slower
    double bytesPerStep = -1;
    double evalS = 0; // in validation passes (`eval` events), and how many
    int evalPasses = 0;
    double saveS = 0; // in checkpoint saves (a script's torch.save), and how many
    int saves = 0;
};

struct ScalingFacts {
    int worldSize = 0;
    int localRanks = 0;
    int threadsPerRank = 0; // intra-op threads each rank was given; 0: unknown
    int cores = 0;          // logical cores of this machine
    QStringList devices;    // each local rank's device ("cpu", or a GPU index or UUID)
    QVector<ScalingRank> ranks;
    // Where Gloo's traffic between the nodes goes (multi-node runs): the interface, how that is known
    // ("--iface", "GLOO_SOCKET_IFNAME", "the host name 'x' resolves to 10.0.0.5"), and what else is here.
    QString glooInterface, glooInterfaceFrom;
    std::vector<os::NetInterface> interfaces;
    // A script run whose every stepping rank said no DistributedDataParallel model ran a forward.
    bool eachRankAlone = false;
    double wallS = 0; // the run's wall time so far
};

struct ScalingCause {
    QString code; // protocol::diagnosis::CommBound, ...
    QString text;
    QString fix;
    QJsonObject evidence;
};

// A comm-wait share this large on every rank is comm-bound, a data share this large data-bound; a rank whose
// own work takes this many times the fastest rank's is slow (StragglerMeter, model/straggler.h, measures it
// and adds its sustained time; the facts come from run/scaling_facts.h).
constexpr double kCommBoundShare = 0.30;
constexpr double kDataBoundShare = 0.30;
constexpr double kStragglerRatio = 1.3;

QVector<ScalingCause> diagnoseScaling(const ScalingFacts& facts);

} // namespace ddpdesk::launch
