#include "launch/run/scaling_facts.h"

#include "net/net_socket.h"

#include <QCoreApplication>
#include <QThread>

#include <algorithm>

namespace ddpdesk::launch {

namespace {

QString tr(const char* text) { // the texts keep the scaling diagnosis' translations
    return QCoreApplication::translate("ddpdesk::launch::Scaling", text);
}

// Where Gloo's traffic goes, the way Gloo picks it: the interface GLOO_SOCKET_IFNAME names (--iface sets
// it), else the one holding the first address this machine's host name resolves to.
void findGlooInterface(const RunConfig& config, ScalingFacts& f) {
    f.interfaces = os::netInterfaces();
    if (!config.iface.isEmpty()) {
        f.glooInterface = config.iface;
        f.glooInterfaceFrom = QStringLiteral("--iface");
        return;
    }
    if (const QString env = qEnvironmentVariable("GLOO_SOCKET_IFNAME"); !env.isEmpty()) {
        f.glooInterface = env.section(QLatin1Char(','), 0, 0);
        f.glooInterfaceFrom = QStringLiteral("GLOO_SOCKET_IFNAME");
        return;
    }
    const std::string host = net::localHostName();
    const net::Resolved r = net::resolveHost(host, std::chrono::seconds(2));
    for (const std::string& a : r.addresses)
        for (const os::NetInterface& i : f.interfaces)
            if (std::find(i.addresses.begin(), i.addresses.end(), a) != i.addresses.end()) {
                f.glooInterface = QString::fromStdString(i.name);
                f.glooInterfaceFrom = tr("the host name '%1' resolves to %2")
                                          .arg(QString::fromStdString(host), QString::fromStdString(a));
                return;
            }
}

} // namespace

ScalingFacts scalingFacts(const RunConfig& config, const RunModel& model) {
    ScalingFacts f;
    f.worldSize = config.worldSize();
    // This node's ranks: on node 0 of a multi-node run the model holds the other nodes' too.
    const int local = qMin(model.rankCount(), config.nproc);
    f.localRanks = local;
    f.cores = QThread::idealThreadCount();
    f.threadsPerRank = config.threadsPerWorker();
    bool userThreads = false;
    const int omp = qEnvironmentVariableIntValue("OMP_NUM_THREADS", &userThreads);
    if (config.isScript() && !config.training.threads && userThreads && omp > 0) f.threadsPerRank = omp;
    const QStringList devices = config.deviceList();
    // A straggler is judged on its steady steps (the median of its recent own work per step), not on the
    // smoothed figure the live warning follows: a last step that held one rank's evaluation or checkpoint
    // moves that figure, while every step before it was as fast as the others'.
    double fastestSteady = -1;
    for (int i = 0; i < local; ++i) {
        const double steady = model.rank(i).straggler.steadyMs;
        if (steady > 0 && (fastestSteady < 0 || steady < fastestSteady)) fastestSteady = steady;
    }
    for (int i = 0; i < local; ++i) {
        const RankStatus& r = model.rank(i);
        ScalingRank s;
        s.rank = r.rank;
        s.stepMs = r.stepMs;
        s.commWaitShare = r.stepMs > 0 && r.commReported ? r.commWaitShare : -1;
        s.dataMs = r.straggler.dataMs;
        const double steady = r.straggler.steadyMs;
        s.vsFastest = r.straggler.known() && steady > 0 && fastestSteady > 0 ? steady / fastestSteady : -1;
        // A ratio of tiny step times (2 ms against 3 ms) is jitter: it takes kMinExcessMs more as well.
        s.slow = s.vsFastest >= kStragglerRatio && steady - fastestSteady >= StragglerMeter::kMinExcessMs;
        s.bytesPerStep = r.bytesPerStep > 0 ? double(r.bytesPerStep) : -1;
        s.evalS = r.evalS;
        s.evalPasses = r.evalPasses;
        s.saveS = r.saveS;
        s.saves = r.saves;
        f.ranks.push_back(s);
        f.devices << (devices.isEmpty() ? QStringLiteral("cpu") : devices.value(i % devices.size()));
    }
    if (f.worldSize > f.localRanks) findGlooInterface(config, f);
    f.eachRankAlone = config.isScript() && model.everyRankAlone();
    f.wallS = model.elapsedS();
    return f;
}

} // namespace ddpdesk::launch
