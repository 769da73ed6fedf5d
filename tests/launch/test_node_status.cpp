// Node 0's view of a multi-node run's nodes: each node's contact from its `node` events (live or replayed),
// this node's ranks with their node and host, and every node's monitor readings kept apart by node (charts
// name them "1/GPU 0"; a straggler's evidence never reads another machine's process of the same PID).

#include "launch/model/node_status.h"
#include "launch/model/run_model.h"
#include "launch/nodes/remote_ranks.h"
#include "launch/nodes/store_census_watch.h"
#include "launch/watch/straggler_evidence.h"
#include "protocol/telemetry.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace ddpdesk;
using launch::NodeContactState;

namespace {

nlohmann::json gpuEvent(int node, int index, double util, double smClock = -1) {
    nlohmann::json e = protocol::makeEvent(protocol::ev::Gpu, -1);
    nlohmann::json g = {{"index", index}, {"gpu_util_percent", util}};
    if (smClock > 0) g["sm_clock_mhz"] = smClock;
    e["gpus"] = nlohmann::json::array({g});
    if (node >= 0) e["node"] = node;
    return e;
}

nlohmann::json procEvent(int node, qint64 pid, int rank, double cpu) {
    nlohmann::json e = protocol::makeEvent(protocol::ev::Proc, -1);
    e["processes"] =
        nlohmann::json::array({{{"pid", pid}, {"rank", rank}, {"cpu_percent", cpu}, {"threads", 7}}});
    if (node >= 0) e["node"] = node;
    return e;
}

// Node 0 of a 2 x 2 run: its own ranks 0, 1 on host a, node 1's ranks 2, 3 shown from its launcher.
void hubModel(launch::RunModel& m) {
    m.reset({0, 1, 2, 3}, 4, QStringLiteral("autoencoder"), 100);
    m.setNodes(0, 2, 2, true, QStringLiteral("a"));
}

} // namespace

class NodeStatusTest : public QObject {
    Q_OBJECT

private slots:
    void aNodesContactFollowsItsEvents() {
        launch::RunNodes nodes;
        nodes.reset(3, 0, QStringLiteral("a"));
        QCOMPARE(nodes.nodes().size(), 3);
        QCOMPARE(nodes.node(0)->contact, NodeContactState::Here);
        QCOMPARE(nodes.node(0)->host, QStringLiteral("a"));
        QCOMPARE(nodes.node(1)->contact, NodeContactState::Waiting);
        QVERIFY(nodes.apply(1, QStringLiteral("b"), QStringLiteral("connected"), 100, 100));
        QCOMPARE(nodes.node(1)->contact, NodeContactState::Connected);
        QCOMPARE(nodes.node(1)->host, QStringLiteral("b"));
        // Silent since its last frame, not since the watch noticed.
        QVERIFY(nodes.apply(1, QString(), QStringLiteral("no_contact"), 104, 101));
        QCOMPARE(nodes.node(1)->contact, NodeContactState::NoContact);
        QCOMPARE(nodes.node(1)->sinceT, 101.0);
        QCOMPARE(nodes.node(1)->host, QStringLiteral("b"));
        QVERIFY(nodes.apply(1, QStringLiteral("b"), QStringLiteral("connected"), 105, 105));
        QVERIFY(nodes.apply(1, QStringLiteral("b"), QStringLiteral("ended: ok"), 110, 110));
        QCOMPARE(nodes.node(1)->contact, NodeContactState::Ended);
        QCOMPARE(nodes.node(1)->detail, QStringLiteral("ok"));
        // Its link closing after its run ended is not a loss.
        QVERIFY(nodes.apply(1, QStringLiteral("b"), QStringLiteral("lost: the connection closed"), 111, 110));
        QCOMPARE(nodes.node(1)->contact, NodeContactState::Ended);
        QVERIFY(nodes.apply(2, QStringLiteral("c"), QStringLiteral("lost: reset by peer"), 50, 49));
        QCOMPARE(nodes.node(2)->contact, NodeContactState::Lost);
        QCOMPARE(nodes.node(2)->detail, QStringLiteral("reset by peer"));
        // What this node is, an unknown node or state, change nothing.
        QVERIFY(!nodes.apply(0, QStringLiteral("x"), QStringLiteral("lost: ?"), 1, 1));
        QVERIFY(!nodes.apply(7, QStringLiteral("x"), QStringLiteral("connected"), 1, 1));
        QVERIFY(!nodes.apply(2, QStringLiteral("x"), QStringLiteral("teleported"), 1, 1));
        QCOMPARE(nodes.node(0)->contact, NodeContactState::Here);
        QCOMPARE(nodes.node(2)->host, QStringLiteral("c"));
    }

    // Ranks of a node no launcher of ours speaks for, seen in the store: marked so until a launcher connects.
    void aNodeWithoutOurLauncherIsKnownFromTheStore() {
        launch::RunModel hub;
        hubModel(hub);
        hub.setNodeContact(1, QString(), QStringLiteral("store_only: 2, 3"));
        QCOMPARE(hub.nodes()[1].contact, NodeContactState::StoreOnly);
        QCOMPARE(hub.nodes()[1].detail, QStringLiteral("2, 3"));
        QVERIFY(hub.rank(2).storeOnly && hub.rank(3).storeOnly && !hub.rank(1).storeOnly);
        QCOMPARE(hub.summary().toJson(hub.ranks())["ranks"].toArray()[2].toObject()["store_only"].toBool(),
                 true);
        hub.setNodeContact(1, QStringLiteral("b"), QStringLiteral("connected"));
        QCOMPARE(hub.nodes()[1].contact, NodeContactState::Connected);
        // A connected node is not demoted by a late census.
        hub.setNodeContact(1, QString(), QStringLiteral("store_only: 2"));
        QCOMPARE(hub.nodes()[1].contact, NodeContactState::Connected);

        // What the doctor's findings say reached the store.
        QVector<int> arrived;
        const QJsonObject missing{
            {"findings",
             QJsonArray{QJsonObject{{"code", "STORE_REACHABLE"}},
                        QJsonObject{{"code", "RANKS_MISSING"},
                                    {"evidence", QJsonObject{{"arrived", QJsonArray{0, 2, 3}}}}}}}};
        QVERIFY(launch::storeArrivedRanks(missing, 4, &arrived));
        QCOMPARE(arrived, QVector<int>({0, 2, 3}));
        arrived.clear();
        QVERIFY(launch::storeArrivedRanks(
            QJsonObject{{"findings", QJsonArray{QJsonObject{{"code", "RANKS_COMPLETE"}}}}}, 3, &arrived));
        QCOMPARE(arrived, QVector<int>({0, 1, 2}));
        arrived.clear();
        const QJsonObject counted{
            {"findings", QJsonArray{QJsonObject{{"code", "RANKS_MISSING"},
                                                {"evidence", QJsonObject{{"arrived_count", 2}}}}}}};
        QVERIFY(!launch::storeArrivedRanks(counted, 4, &arrived)); // a count names nobody
    }

    void theModelNamesEveryRanksNodeAndHost() {
        launch::RunModel hub;
        hubModel(hub);
        QCOMPARE(hub.nodes().size(), 2);
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(hub.rank(i).node, i / 2);
            QCOMPARE(hub.rank(i).remote, i >= 2);
        }
        QCOMPARE(hub.rank(1).host, QStringLiteral("a"));
        QSignalSpy changed(&hub, &launch::RunModel::nodesChanged);
        hub.setNodeContact(1, QStringLiteral("b"), QStringLiteral("connected"));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(hub.rank(3).host, QStringLiteral("b"));
        QCOMPARE(hub.nodes()[1].contact, NodeContactState::Connected);

        // Node 1 shows only its own ranks, on node 1 (not "node 0"), and keeps no node table.
        launch::RunModel other;
        other.reset({2, 3}, 4, QStringLiteral("autoencoder"), 100);
        other.setNodes(1, 2, 2, false, QStringLiteral("b"));
        QVERIFY(other.nodes().isEmpty());
        QCOMPARE(other.rank(0).node, 1);
        QCOMPARE(other.rank(1).host, QStringLiteral("b"));
    }

    // launch.two_nodes_folder once found node 1's ranks without a host in node 0's summary: node 0's ranks
    // had all ended before its link followed node 1's stream (one there before node 0's first look is
    // followed once it grows), and node 0 waited only for nodes already connected. A node not heard yet is
    // waited for like a connected one; a remote rank gets its host whether its hello or its node's comes
    // first.
    void nodeZeroAwaitsANodeItHasNotHeardYet() {
        launch::RunModel hub;
        hubModel(hub);
        QCOMPARE(hub.nodeEndsAwaited(), QVector<int>({1})); // node 0's ranks done, node 1 not heard yet
        nlohmann::json hello = protocol::makeEvent(protocol::ev::Hello, 2);
        hello["host"] = "b";
        launch::applyRemoteEvent(hub, 2, hello); // rank 2's hello before its node's
        QCOMPARE(hub.rank(2).host, QStringLiteral("b"));
        QVERIFY(hub.rank(3).host.isEmpty());
        hub.setNodeContact(1, QStringLiteral("b"), QStringLiteral("connected"));
        QCOMPARE(hub.rank(3).host, QStringLiteral("b")); // rank 3's hello still on its way
        QCOMPARE(hub.nodeEndsAwaited(), QVector<int>({1}));
        hub.setNodeContact(1, QStringLiteral("b"), QStringLiteral("no_contact"));
        QCOMPARE(hub.nodeEndsAwaited(), QVector<int>({1}));
        hub.setNodeContact(1, QStringLiteral("b"), QStringLiteral("ended: ok"));
        QVERIFY(hub.nodeEndsAwaited().isEmpty());

        launch::RunModel lost; // its link lost: nothing more will come
        hubModel(lost);
        lost.setNodeContact(1, QStringLiteral("b"), QStringLiteral("lost: its launcher closed the link"));
        QVERIFY(lost.nodeEndsAwaited().isEmpty());
        launch::RunModel foreign; // no launcher of ours: its ranks seen in the store only
        hubModel(foreign);
        foreign.setNodeContact(1, QString(), QStringLiteral("store_only: 2, 3"));
        QVERIFY(foreign.nodeEndsAwaited().isEmpty());
        launch::RunModel one; // a single-node run, or a node above 0: no node table, nothing to wait for
        one.reset({0, 1}, 2, QStringLiteral("autoencoder"), 100);
        QVERIFY(one.nodeEndsAwaited().isEmpty());
    }

    void everyNodesGpusAreKeptApartByNode() {
        launch::RunModel hub;
        hubModel(hub);
        hub.applyMonitorEvent(gpuEvent(-1, 0, 90)); // this machine's monitor: no node
        // Node 1's, as its launcher forwarded it (node 0's link tags it with the node).
        QVERIFY(!launch::applyRemoteEvent(hub, 2, gpuEvent(1, 0, 40)));
        QVERIFY(!launch::applyRemoteEvent(hub, 2, gpuEvent(1, 1, 41)));
        auto names = [&] {
            QStringList out;
            for (const launch::MonitorReading& r : hub.lastGpuReadings())
                out << QStringLiteral("%1=%2").arg(launch::readingName(r, true)).arg(r.util);
            return out.join(' ');
        };
        // A node's fresh sample replaces only its own readings.
        QCOMPARE(names(), QStringLiteral("0/GPU 0=90 1/GPU 1=41"));
        hub.applyMonitorEvent(gpuEvent(-1, 0, 95));
        QCOMPARE(names(), QStringLiteral("0/GPU 0=95 1/GPU 1=41"));
        nlohmann::json two = gpuEvent(1, 0, 50);
        two["gpus"].push_back({{"index", 1}, {"gpu_util_percent", 51}});
        launch::applyRemoteEvent(hub, 2, two);
        QCOMPARE(names(), QStringLiteral("0/GPU 0=95 1/GPU 0=50 1/GPU 1=51"));
        // A single-node run keeps its names.
        QCOMPARE(launch::readingName(hub.lastGpuReadings()[0], false), QStringLiteral("GPU 0"));
    }

    // Rank 3 on node 1 is the straggler; a process of node 0 has the same PID as rank 3's: its CPU share is
    // node 0's, not rank 3's. Node 1's own reading of rank 3 is what the evidence cites.
    void aStragglersEvidenceComesFromItsOwnNode() {
        launch::RunModel hub;
        hubModel(hub);
        nlohmann::json hello = protocol::makeEvent(protocol::ev::Hello, 3);
        hello["pid"] = 4242;
        launch::applyRemoteEvent(hub, 2, hello);
        QCOMPARE(hub.rank(3).pid, qint64(4242));
        hub.applyMonitorEvent(procEvent(-1, 4242, 0, 99)); // node 0's PID 4242
        launch::StragglerEvidence e = launch::stragglerEvidence(hub, 3, -1, 0, -1);
        QVERIFY2(e.text.isEmpty(), qPrintable(e.text.join(", ")));
        launch::applyRemoteEvent(hub, 2, procEvent(1, 4242, 3, 12));
        e = launch::stragglerEvidence(hub, 3, -1, 0, -1);
        QCOMPARE(e.text.join(", "), QStringLiteral("CPU 12 %, 7 threads"));
    }

    // Reopened from node 0's folder: the node events give each node's last contact.
    void aReplayedRunKeepsEachNodesEnd() {
        launch::RunModel replayed;
        replayed.reset({0, 1, 2, 3}, 4, QStringLiteral("autoencoder"), 100);
        replayed.setRemoteRanks(2, 2);
        replayed.setNodeContact(1, QStringLiteral("b"), QStringLiteral("connected"));
        replayed.setNodeContact(1, QStringLiteral("b"), QStringLiteral("ended: failed"));
        QCOMPARE(replayed.nodes().size(), 2);
        QCOMPARE(replayed.nodes()[0].contact, NodeContactState::Here);
        QCOMPARE(replayed.nodes()[1].contact, NodeContactState::Ended);
        QCOMPARE(replayed.nodes()[1].detail, QStringLiteral("failed"));
    }
};

QTEST_GUILESS_MAIN(NodeStatusTest)
#include "test_node_status.moc"
