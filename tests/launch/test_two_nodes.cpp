// A real two-node run on one machine: two network namespaces joined by a veth pair
// (10.77.0.1/24, 10.77.0.2/24), one launcher per "node" (ip netns exec), the TCPStore hosted by rank 0 on
// node 0's address. Each node also gets its own host name, IPC namespace and /dev/shm (unshare + a tmpfs):
// network namespaces alone share those, and the same-machine shared-memory shortcut for gradients would then
// span the two "nodes" and send nothing across the link. The link's byte counters prove gradients crossed it,
// and that with two ranks per node the hierarchical exchange sends less across than flat Gloo. What the end
// of a run says of the link is checked on a shaped one (COMM_BOUND) and on a second, bridged one Gloo is told
// to use while the direct link is up (WRONG_INTERFACE).
// LibTorch first: Qt's "slots" macro would break its headers.
#include "model_compare.h"

#include "two_nodes_fixture.h"

#include "launch/model/run_model.h"
#include "launch/model/run_replay.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <QJsonDocument>
#include <QScopeGuard>
#include <QSet>

#include <algorithm>
#include <csignal>
#include <functional>
#include <unistd.h>

class TwoNodesTest : public TwoNodesFixture {
    Q_OBJECT

private slots:
    void initTestCase() {
        const QString why = setUpNodes();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
    }

    void cleanupTestCase() { tearDownNodes(); }

    void twoLaunchersOneJob() {
        QTemporaryDir dir;
        const qint64 sentBefore = txBytes(m_nsA, m_vethA);
        QVERIFY(runJob(dir.path(), 1, {}));
        for (int node : {0, 1}) {
            const QString out = dir.filePath(QStringLiteral("node%1").arg(node));
            const QJsonObject s = launchtest::readJsonFile(out + "/summary.json");
            QCOMPARE(s["status"].toString(), QStringLiteral("ok"));
            QCOMPARE(s["world_size"].toInt(), 2);
            QCOMPARE(s["ranks"].toArray()[0].toObject()["rank"].toInt(), node);
            const auto events = launchtest::readJsonLines(out + "/metrics.jsonl");
            QCOMPARE(launchtest::countEvents(events, "step", node), 8);
            QCOMPARE(launchtest::countEvents(events, "done", node), 1);
            // Each node's own /dev/shm: the ranks found no shared memory between them and used Gloo.
            QFile metricsFile(out + "/metrics.jsonl");
            QVERIFY(metricsFile.open(QIODevice::ReadOnly));
            const QByteArray metrics = metricsFile.readAll();
            QVERIFY2(!metrics.contains("\"grad_transport\":\"shared_memory\""), metrics.constData());
            QVERIFY2(metrics.contains("gradients travel through Gloo"), metrics.constData());
        }
        // A 2-rank allreduce sends each bucket's bytes across once (reduce-scatter, then all-gather): node
        // 0's end of the link carried at least half of every step's gradients.
        double gradientBytes = 0;
        for (const QJsonObject& e : launchtest::readJsonLines(dir.filePath("node0") + "/metrics.jsonl"))
            if (e["event"].toString() == QLatin1String("step") && e["rank"].toInt() == 0)
                gradientBytes += e["bytes_allreduced"].toDouble() * std::max(1, e["steps_averaged"].toInt());
        const qint64 sent = txBytes(m_nsA, m_vethA) - sentBefore;
        QVERIFY2(gradientBytes > 0, "no step reported its gradient bytes");
        QVERIFY2(sent >= gradientBytes / 2,
                 qPrintable(QStringLiteral("%1 bytes crossed the link for %2 bytes of "
                                           "gradients")
                                .arg(sent)
                                .arg(gradientBytes)));
    }

    // Node 0's launcher is the run's one place: node 1's launcher forwards its ranks' events over the node
    // link, so node 0's summary.json and metrics.jsonl hold all 4 ranks, each with its node and host, with
    // identical parameters; node 1's still holds its own.
    void nodeZeroShowsEveryNodesRanks() {
        QTemporaryDir dir;
        QVERIFY(runJob(dir.path(), 2, {}, 29541));
        checkEveryRankOnNodeZero(dir.path());
        if (QTest::currentTestFailed()) return;
        const auto events = launchtest::readJsonLines(dir.filePath("node0/metrics.jsonl"));
        for (int r : {2, 3})
            QCOMPARE(launchtest::countEvents(events, "step", r), 8);
        // Node 1's launcher: connected, then its run's end (not a loss when its link closes after).
        QCOMPARE(nodeOneStates(dir.path()), QStringList({"connected", "ended: ok"}));
        // Node 1's monitor samples, kept under node 1.
        int node1Samples = 0;
        for (const QJsonObject& e : events)
            if (e["event"].toString() == QLatin1String("proc") && e["node"].toInt() == 1) ++node1Samples;
        QVERIFY(node1Samples >= 1);
        QCOMPARE(launchtest::readJsonFile(dir.filePath("node1/summary.json"))["ranks"].toArray().size(), 2);
        // Reopened from node 0's folder (History), the Run page shows the same 4 ranks.
        ddpdesk::launch::RunModel replayed;
        QString error;
        QVERIFY2(ddpdesk::launch::replayRecordedRun(dir.filePath("node0"), &replayed, &error),
                 qPrintable(error));
        QCOMPARE(replayed.rankCount(), 4);
        for (int r = 0; r < 4; ++r) {
            QCOMPARE(replayed.rank(r).rank, r);
            QCOMPARE(replayed.rank(r).remote, r >= 2);
            QCOMPARE(replayed.rank(r).node, r / 2);
            QCOMPARE(replayed.rank(r).host, QStringLiteral("ddpdesk-node%1").arg(r / 2));
            QCOMPARE(replayed.rank(r).step, qint64(8));
        }
        QCOMPARE(replayed.nodes().size(), 2);
        QCOMPARE(replayed.nodes()[1].host, QStringLiteral("ddpdesk-node1"));
        QCOMPARE(replayed.nodes()[1].contact, ddpdesk::launch::NodeContactState::Ended);
        QSet<int> readingNodes;
        for (const ddpdesk::launch::MonitorReading& p : replayed.lastProcReadings())
            readingNodes.insert(p.node);
        QCOMPARE(readingNodes, QSet<int>({0, 1}));
    }

    // Stop on node 0 (Ctrl-C of its CLI, as the GUI's Stop) ends node 1's ranks too, within 5 s, leaving no
    // process on either node; node 1 says who stopped it.
    void stopOnNodeZeroEndsEveryNode() {
        QTemporaryDir dir;
        QVector<qint64> node1Pids, node0Pids;
        double stoppedT = 0;
        runJob(dir.path(), 1, {}, 29543, 100000, [&] {
            if (!waitForSteps(dir.filePath("node0"), {0, 1}, 3)) return;
            node0Pids = launchtest::workerPids(dir.filePath("node0/metrics.jsonl"));
            node1Pids = launchtest::workerPids(dir.filePath("node1/metrics.jsonl"));
            stoppedT = QDateTime::currentMSecsSinceEpoch() / 1000.0;
            ::kill(pid_t(m_launchers[0]->processId()), SIGINT);
        });
        QVERIFY2(stoppedT > 0, "the run did not train on both nodes");
        QVERIFY(launchtest::leftovers(node0Pids + node1Pids, 500).isEmpty());
        const QJsonObject s1 = launchtest::readJsonFile(dir.filePath("node1/summary.json"));
        QCOMPARE(s1["status"].toString(), QStringLiteral("stopped"));
        QVERIFY2(s1["failure_reason"].toString().contains("stopped from node 0") ||
                     QJsonDocument(s1).toJson().contains("stopped from node 0"),
                 QJsonDocument(s1).toJson().constData());
        double endT = 0; // node 1's last rank exit
        for (const QJsonObject& e : launchtest::readJsonLines(dir.filePath("node1/metrics.jsonl")))
            if (e["event"].toString() == QLatin1String("rank_exit")) endT = std::max(endT, e["t"].toDouble());
        qInfo("node 1's rank ended %.2f s after Ctrl-C on node 0", endT - stoppedT);
        QVERIFY2(endT > 0 && endT - stoppedT <= 5, qPrintable(QString::number(endT - stoppedT)));
        QCOMPARE(launchtest::readJsonFile(dir.filePath("node0/summary.json"))["status"].toString(),
                 QStringLiteral("stopped"));
    }

    // Node 1's launcher killed (SIGKILL: its ranks go with it): node 0 says within 5 s that it lost node 1,
    // and its run then fails naming node 1 first.
    void aNodeWhoseLauncherDiesIsNamed() {
        QTemporaryDir dir;
        double killedT = 0;
        runJob(dir.path(), 1, {}, 29545, 100000, [&] {
            if (!waitForSteps(dir.filePath("node0"), {0, 1}, 3)) return;
            killedT = QDateTime::currentMSecsSinceEpoch() / 1000.0;
            ::kill(pid_t(m_launchers[1]->processId()), SIGKILL);
        });
        QVERIFY2(killedT > 0, "the run did not train on both nodes");
        double saidT = 0;
        for (const QJsonObject& e : launchtest::readJsonLines(dir.filePath("node0/metrics.jsonl")))
            if (e["event"].toString() == QLatin1String("node") && e["node"].toInt() == 1 && saidT == 0 &&
                (e["state"].toString().startsWith("lost") || e["state"].toString() == "no_contact"))
                saidT = e["t"].toDouble();
        qInfo("node 0 named node 1 %.2f s after its launcher was killed", saidT - killedT);
        QVERIFY2(saidT > 0 && saidT - killedT <= 5, qPrintable(QString::number(saidT - killedT)));
        const QJsonObject s0 = launchtest::readJsonFile(dir.filePath("node0/summary.json"));
        QCOMPARE(s0["status"].toString(), QStringLiteral("failed"));
        QVERIFY2(s0["failure_reason"].toString().startsWith("node 1 (ddpdesk-node1) lost contact first"),
                 qPrintable(s0["failure_reason"].toString()));
    }

    // A rank of node 1 killed: node 0's summary names that rank and its node as the failure, with its exit,
    // not node 0's own ranks that lost it.
    void aRankThatFailsOnNodeOneIsNamedOnNodeZero() {
        QTemporaryDir dir;
        bool killed = false;
        runJob(dir.path(), 1, {}, 29547, 100000, [&] {
            if (!waitForSteps(dir.filePath("node0"), {0, 1}, 3)) return;
            const QVector<qint64> pids = launchtest::workerPids(dir.filePath("node1/metrics.jsonl"));
            if (pids.size() != 1) return;
            killed = ::kill(pid_t(pids[0]), SIGKILL) == 0;
        });
        QVERIFY(killed);
        const QJsonObject s0 = launchtest::readJsonFile(dir.filePath("node0/summary.json"));
        QCOMPARE(s0["status"].toString(), QStringLiteral("failed"));
        QCOMPARE(s0["failed_rank"].toInt(), 1);
        QVERIFY2(
            s0["failure_reason"].toString().startsWith("rank 1 on node 1 (ddpdesk-node1) killed by signal 9"),
            qPrintable(s0["failure_reason"].toString()));
    }

    // Node 0's launcher stopped (SIGSTOP) for 10 s, as a GUI that hangs or a machine that swaps: node 1's
    // launcher keeps queueing (its link thread alone waits) and its rank's steps are not held: its median
    // step time while node 0's launcher is stopped is printed against the slower of the 10 s before and after
    // (within 5 % on a quiet machine) and asserted within 1.5x, with at least half the steps of those
    // windows: node 0's own rank keeps training too (its step events that find its pipe full are not
    // written), and node 0 catches up on what node 1's launcher queued when it continues. The same run
    // measures what node 1's launcher, forwarding every event, costs: its CPU time per step against the step
    // time.
    void aStoppedNodeZeroLauncherDoesNotSlowNodeOne() {
        QTemporaryDir dir;
        m_telemetryMs = QStringLiteral("100"); // the default
        auto restore = qScopeGuard([this] { m_telemetryMs = QStringLiteral("0"); });
        double marks[4] = {0, 0, 0, 0}; // before, stopped, continued, end
        double launcherCpuS = -1;
        runJob(dir.path(), 1, {}, 29549, 1000000, [&] {
            if (!waitForSteps(dir.filePath("node0"), {0, 1}, 3)) return;
            QTest::qWait(2000); // past the first steps' warm-up
            const pid_t node0 = pid_t(m_launchers[0]->processId());
            const double cpu0 = processCpuSeconds(m_launchers[1]->processId());
            marks[0] = QDateTime::currentMSecsSinceEpoch() / 1000.0;
            QTest::qWait(10000);
            launcherCpuS = processCpuSeconds(m_launchers[1]->processId()) - cpu0;
            ::kill(node0, SIGSTOP);
            marks[1] = QDateTime::currentMSecsSinceEpoch() / 1000.0;
            QTest::qWait(10000);
            ::kill(node0, SIGCONT);
            marks[2] = QDateTime::currentMSecsSinceEpoch() / 1000.0;
            QTest::qWait(10000);
            marks[3] = QDateTime::currentMSecsSinceEpoch() / 1000.0;
            ::kill(node0, SIGINT);
        });
        QVERIFY2(marks[3] > 0, "the run did not train on both nodes");
        // Node 1's own record of its rank's steps: mean step time and steps in each window.
        struct Window {
            double stepMs = 0;
            qint64 steps = 0;
            std::vector<double> eventMs; // each step event's mean over its ~100 ms
            double medianMs() {
                std::sort(eventMs.begin(), eventMs.end());
                return eventMs.empty() ? 0 : eventMs[eventMs.size() / 2];
            }
        } w[3];
        for (const QJsonObject& e : launchtest::readJsonLines(dir.filePath("node1/metrics.jsonl"))) {
            if (e["event"].toString() != QLatin1String("step") || e["rank"].toInt() != 1) continue;
            const double t = e["t"].toDouble();
            for (int k = 0; k < 3; ++k)
                if (t >= marks[k] + 0.5 && t < marks[k + 1]) {
                    const int n = std::max(1, e["steps_averaged"].toInt());
                    w[k].stepMs += e["step_ms"].toDouble() * n;
                    w[k].steps += n;
                    w[k].eventMs.push_back(e["step_ms"].toDouble());
                }
        }
        for (auto& x : w) {
            QVERIFY2(x.steps > 20, "a window without steps");
            x.stepMs /= double(x.steps);
        }
        // Medians of the ~100 events a window holds: a second of another process on this shared 2-core
        // machine moves a window's mean by several percent (1.14x once in a full suite, the stopped window
        // alone), while a link that slowed the rank would move every event of the window. The figure is
        // printed (within 5 % on a quiet machine); the bound asserted leaves room for a loaded machine's
        // noise (a full CI suite once measured past an earlier 1.05 bound).
        const double ratio = w[1].medianMs() / std::max(w[0].medianMs(), w[2].medianMs());
        // The job keeps its pace while node 0's launcher is stopped: node 0's own rank no longer waits for
        // the pipe its launcher does not read (a step event without room is not written;
        // train.trainer_threads). When it did, the job made 0.29-0.31 of its steps in that window; now 1.16
        // once here. Half is the bar: far from both.
        const double stepShare = double(w[1].steps) / double(std::min(w[0].steps, w[2].steps));
        qInfo("node 1's step: median %.2f / %.2f / %.2f ms (mean %.2f / %.2f / %.2f) before, while node 0's "
              "launcher was stopped, after (%.3fx; %.2f of the steps)",
              w[0].medianMs(), w[1].medianMs(), w[2].medianMs(), w[0].stepMs, w[1].stepMs, w[2].stepMs, ratio,
              stepShare);
        QVERIFY2(ratio <= 1.5, qPrintable(QString::number(ratio)));
        QVERIFY2(stepShare >= 0.5, qPrintable(QString::number(stepShare)));
        // What forwarding costs: node 1's launcher's CPU time per step with the link, less the same job's
        // without one (--no-node-link), against the rank's step time. A launcher's CPU time is what it
        // can take from a rank on a machine whose cores all train.
        double plainCpuS = -1, plainStart = 0;
        runJob(dir.filePath("nolink"), 1, {"--no-node-link"}, 29551, 1000000, [&] {
            if (!waitForSteps(dir.filePath("nolink/node0"), {0}, 3)) return;
            QTest::qWait(2000);
            const double cpu0 = processCpuSeconds(m_launchers[1]->processId());
            plainStart = QDateTime::currentMSecsSinceEpoch() / 1000.0;
            QTest::qWait(10000);
            plainCpuS = processCpuSeconds(m_launchers[1]->processId()) - cpu0;
            ::kill(pid_t(m_launchers[0]->processId()), SIGINT);
            ::kill(pid_t(m_launchers[1]->processId()), SIGINT);
        });
        QVERIFY2(plainCpuS >= 0, "the run without the link did not train");
        qint64 plainSteps = 0;
        for (const QJsonObject& e : launchtest::readJsonLines(dir.filePath("nolink/node1/metrics.jsonl")))
            if (e["event"].toString() == QLatin1String("step") && e["rank"].toInt() == 1 &&
                e["t"].toDouble() >= plainStart && e["t"].toDouble() < plainStart + 10)
                plainSteps += std::max(1, e["steps_averaged"].toInt());
        QVERIFY(plainSteps > 20);
        const double perStepMs = launcherCpuS * 1000.0 / double(w[0].steps),
                     plainPerStepMs = plainCpuS * 1000.0 / double(plainSteps);
        const double forwardShare = (perStepMs - plainPerStepMs) / w[0].stepMs;
        qInfo("node 1's launcher: %.4f CPU ms per step forwarding to node 0, %.4f without the link; the "
              "link's cost: %.2f %% of the rank's %.2f ms step",
              perStepMs, plainPerStepMs, forwardShare * 100, w[0].stepMs);
        // Below 1 % when the machine is quiet (0.26-0.73 % in three runs): the figure is printed, and the
        // bound leaves room for a neighbour's load on this shared machine.
        QVERIFY2(forwardShare < 0.03, qPrintable(QString::number(forwardShare)));
        // Node 0 caught up on what node 1 sent while it was stopped: its record has node 1's steps of then.
        qint64 caughtUp = 0;
        for (const QJsonObject& e : launchtest::readJsonLines(dir.filePath("node0/metrics.jsonl")))
            if (e["event"].toString() == QLatin1String("step") && e["rank"].toInt() == 1 &&
                e["t"].toDouble() >= marks[1] + 0.5 && e["t"].toDouble() < marks[2])
                ++caughtUp;
        QVERIFY2(caughtUp > 10, qPrintable(QString::number(caughtUp)));
    }

    // Node 1's ranks started by another launcher (python3-torch ranks joining by env://, as torchrun starts
    // them): no DDP Desk launcher connects for node 1, yet node 0 shows its ranks 2 and 3 as seen in the
    // store (a `node` event "store_only: 2, 3", summary.json's ranks[].store_only), and the doctor says so.
    void aNodeWithoutOurLauncherShowsItsRanksFromTheStore() {
        QTemporaryDir dir;
        m_foreignNode1 = true;
        auto restore = qScopeGuard([this] { m_foreignNode1 = false; });
        QString seen;
        runJob(dir.path(), 2, {}, 29553, 100000, [&] {
            QElapsedTimer t;
            t.start();
            while (t.elapsed() < 60000 && seen.isEmpty()) {
                for (const QJsonObject& e : launchtest::readJsonLines(dir.filePath("node0/metrics.jsonl")))
                    if (e["event"].toString() == QLatin1String("node") && e["node"].toInt() == 1 &&
                        e["state"].toString().startsWith(QLatin1String("store_only")))
                        seen = e["state"].toString();
                QTest::qWait(250);
            }
            ::kill(pid_t(m_launchers[0]->processId()), SIGINT);
            QProcess::execute("ip", {"netns", "exec", m_nsB, "pkill", "-f", "ddpdesk-foreign-rank"});
        });
        QCOMPARE(seen, QStringLiteral("store_only: 2, 3"));
        const QJsonArray ranks =
            launchtest::readJsonFile(dir.filePath("node0/summary.json"))["ranks"].toArray();
        QCOMPARE(ranks.size(), 4);
        for (int r : {2, 3})
            QVERIFY2(ranks[r].toObject()["store_only"].toBool(),
                     QJsonDocument(ranks[r].toObject()).toJson().constData());
        QVERIFY(!ranks[0].toObject().contains("store_only"));
    }

    // Two ranks per node: each node sums its gradients in its own shared memory and only the nodes' first
    // ranks allreduce across the link. Flat Gloo's ring over 4 ranks sends 2 x 3/4 of every bucket across
    // each way, the two leaders 2 x 1/2: two thirds of the bytes at most, with the same parameters.
    void twoRanksPerNodeCrossTheLinkOncePerNode() {
        QTemporaryDir dir;
        const QString hier = dir.filePath("hier"), flat = dir.filePath("flat");
        const qint64 before = linkBytes();
        QVERIFY(runJob(hier, 2, {}, 29531));
        const qint64 between = linkBytes();
        QVERIFY(runJob(flat, 2, {"--grad-transport", "gloo"}, 29533));
        const qint64 hierBytes = between - before, flatBytes = linkBytes() - between;
        QString models[2];
        for (const QString& job : {hier, flat}) {
            QSet<QString> digests;
            for (int node : {0, 1}) {
                const QString out = job + QStringLiteral("/node%1").arg(node);
                const QByteArray metrics = readAll(out + "/metrics.jsonl");
                const bool hierarchical = metrics.contains("\"grad_transport\":\"hierarchical\"");
                QVERIFY2(hierarchical == (job == hier), metrics.constData());
                for (const QJsonObject& e : launchtest::readJsonLines(out + "/metrics.jsonl"))
                    if (e["event"].toString() == QLatin1String("done")) {
                        digests.insert(e["params_sha256"].toString());
                        if (e["rank"].toInt() == 0) models[job == hier ? 0 : 1] = e["model"].toString();
                    }
            }
            // All four ranks of a job end bit-identical.
            QCOMPARE(digests.size(), 1);
            QVERIFY(!digests.begin()->isEmpty());
        }
        const double diff = ddpdesk::traintest::maxRelativeDifference(
            ddpdesk::traintest::loadModelFile("autoencoder", models[0].toStdString()),
            ddpdesk::traintest::loadModelFile("autoencoder", models[1].toStdString()));
        qInfo(
            "link bytes: hierarchical %lld, flat Gloo %lld (ratio %.2f); parameters differ by %.2g relative",
            hierBytes, flatBytes, double(hierBytes) / double(flatBytes), diff);
        QVERIFY2(diff < 1e-5, qPrintable(QString::number(diff)));
        QVERIFY2(hierBytes * 4 < flatBytes * 3,
                 qPrintable(QStringLiteral("hierarchical %1 bytes, flat %2").arg(hierBytes).arg(flatBytes)));
    }

    // A slow link between the nodes (tc's token bucket at 16 Mbit/s each way): every rank waits most of its
    // step for the gradient exchange, and the end of the run says so (COMM_BOUND, with the gradient bytes and
    // the rate they moved at) on both nodes.
    void aSlowLinkIsCommBound() {
        QString err;
        for (const auto& [ns, veth] : {std::pair{m_nsA, m_vethA}, std::pair{m_nsB, m_vethB}})
            if (ip({"netns", "exec", ns, "tc", "qdisc", "add", "dev", veth, "root", "tbf", "rate", "16mbit",
                    "burst", "32kbit", "latency", "400ms"},
                   &err) != 0)
                QSKIP(qPrintable("could not shape the link with tc: " + err));
        QTemporaryDir dir;
        const bool ok = runJob(dir.path(), 1, {}, 29535);
        for (const auto& [ns, veth] : {std::pair{m_nsA, m_vethA}, std::pair{m_nsB, m_vethB}})
            ip({"netns", "exec", ns, "tc", "qdisc", "del", "dev", veth, "root"});
        QVERIFY(ok);
        for (int node : {0, 1}) {
            const QJsonObject s =
                launchtest::readJsonFile(dir.filePath(QStringLiteral("node%1/summary.json").arg(node)));
            QJsonObject comm;
            for (const QJsonValue& v : s["scaling"].toArray())
                if (v.toObject()["code"].toString() == QLatin1String("COMM_BOUND")) comm = v.toObject();
            QVERIFY2(!comm.isEmpty(), QJsonDocument(s).toJson().constData());
            QVERIFY2(comm["text"].toString().contains("MB per second while waiting"),
                     qPrintable(comm["text"].toString()));
        }
    }

    // A second link between the nodes behind a bridge on each side (what Docker or libvirt puts between a
    // host and its network), slow (16 Mbit/s), and Gloo told to use the bridges while the direct veth link is
    // up: every rank waits on the exchange, and both nodes name the bridge as the wrong interface and the
    // veth as the one to use (WRONG_INTERFACE), beside COMM_BOUND.
    void aBridgeWhileADirectLinkIsUpIsTheWrongInterface() {
        const QString tag = QString::number(QCoreApplication::applicationPid());
        const QString vethC = "vd" + tag + "c", vethD = "vd" + tag + "d";
        const QString bridgeA = "vb" + tag + "a", bridgeB = "vb" + tag + "b";
        const QList<QStringList> steps = {
            {"link", "add", vethC, "type", "veth", "peer", "name", vethD},
            {"link", "set", vethC, "netns", m_nsA},
            {"link", "set", vethD, "netns", m_nsB},
            {"-n", m_nsA, "link", "add", bridgeA, "type", "bridge"},
            {"-n", m_nsB, "link", "add", bridgeB, "type", "bridge"},
            {"-n", m_nsA, "link", "set", vethC, "master", bridgeA},
            {"-n", m_nsB, "link", "set", vethD, "master", bridgeB},
            {"-n", m_nsA, "addr", "add", "10.78.0.1/24", "dev", bridgeA},
            {"-n", m_nsB, "addr", "add", "10.78.0.2/24", "dev", bridgeB},
            {"-n", m_nsA, "link", "set", vethC, "up"},
            {"-n", m_nsB, "link", "set", vethD, "up"},
            {"-n", m_nsA, "link", "set", bridgeA, "up"},
            {"-n", m_nsB, "link", "set", bridgeB, "up"},
            {"netns", "exec", m_nsA, "tc", "qdisc", "add", "dev", vethC, "root", "tbf", "rate", "16mbit",
             "burst", "32kbit", "latency", "400ms"},
            {"netns", "exec", m_nsB, "tc", "qdisc", "add", "dev", vethD, "root", "tbf", "rate", "16mbit",
             "burst", "32kbit", "latency", "400ms"},
        };
        auto cleanUp = qScopeGuard([&] {
            ip({"-n", m_nsA, "link", "del", vethC}); // and so its peer
            ip({"-n", m_nsA, "link", "del", bridgeA});
            ip({"-n", m_nsB, "link", "del", bridgeB});
        });
        QString err;
        for (const QStringList& s : steps)
            if (ip(s, &err) != 0)
                QSKIP(
                    qPrintable("could not build the bridged link: 'ip " + s.join(' ') + "' failed: " + err));
        // The bridges need a moment to forward (no STP: forwarding at once, but the ports come up first).
        QTest::qWait(1500);
        QTemporaryDir dir;
        QVERIFY(runJob(dir.path(), 1, {}, 29537, 8, {}, {"10.78.0.1", bridgeA, bridgeB}));
        for (int node : {0, 1}) {
            const QJsonObject s =
                launchtest::readJsonFile(dir.filePath(QStringLiteral("node%1/summary.json").arg(node)));
            QJsonObject wrong;
            QStringList codes;
            for (const QJsonValue& v : s["scaling"].toArray()) {
                codes << v.toObject()["code"].toString();
                if (codes.back() == QLatin1String("WRONG_INTERFACE")) wrong = v.toObject();
            }
            QVERIFY2(!wrong.isEmpty(), QJsonDocument(s).toJson().constData());
            QVERIFY2(codes.contains("COMM_BOUND"), qPrintable(codes.join(',')));
            const QJsonObject e = wrong["evidence"].toObject();
            QCOMPARE(e["gloo_interface"].toString(), node == 0 ? bridgeA : bridgeB);
            QCOMPARE(e["gloo_interface_kind"].toString(), QStringLiteral("virtual"));
            QCOMPARE(e["better_interface"].toString(), node == 0 ? m_vethA : m_vethB);
            QVERIFY2(wrong["text"].toString().contains("a bridge"), qPrintable(wrong["text"].toString()));
            if (node == 0)
                qInfo().noquote() << wrong["text"].toString() << "/ Fix:" << wrong["fix"].toString();
            QVERIFY2(wrong["fix"].toString().contains("--iface " + (node == 0 ? m_vethA : m_vethB)),
                     qPrintable(wrong["fix"].toString()));
        }
    }

    // Node 1's ranks frozen (SIGSTOP) in the middle of training: node 0's two ranks wait inside the same
    // allreduce and neither is behind, so the hold-up watch says a rank elsewhere or the network holds them
    // (COLLECTIVE_WAIT_ALL) and then what the doctor reads in the store and what node 1's launcher reports,
    // as a second diagnosis event. Thawed, the run completes.
    void aWaitNobodyHereExplainsAsksTheDoctor() {
        QTemporaryDir dir;
        const QString node0 = dir.filePath("node0"), node1 = dir.filePath("node1");
        QJsonObject first, withDoctor;
        QVector<qint64> frozen;
        const bool ok = runJob(dir.path(), 2, {"--grad-transport", "gloo"}, 29539, 3000, [&] {
            QElapsedTimer t;
            t.start();
            // Both of node 1's ranks are training.
            while (t.elapsed() < 60000) {
                const auto events = launchtest::readJsonLines(node1 + "/metrics.jsonl");
                if (launchtest::countEvents(events, "step", 2) >= 5 &&
                    launchtest::countEvents(events, "step", 3) >= 5)
                    break;
                QTest::qWait(100);
            }
            frozen = launchtest::workerPids(node1 + "/metrics.jsonl");
            for (qint64 pid : frozen)
                ::kill(pid_t(pid), SIGSTOP);
            while (t.elapsed() < 90000 && withDoctor.isEmpty()) {
                for (const QJsonObject& e : launchtest::readJsonLines(node0 + "/metrics.jsonl"))
                    if (e["event"].toString() == QLatin1String("diagnosis") && !e.contains("node") &&
                        e["code"].toString() == QLatin1String("COLLECTIVE_WAIT_ALL"))
                        (e.contains("doctor") ? withDoctor : first) = e;
                QTest::qWait(250);
            }
            for (qint64 pid : frozen)
                ::kill(pid_t(pid), SIGCONT);
        });
        QCOMPARE(frozen.size(), 2);
        QStringList said; // what node 0 said instead, for the failure message
        for (const QJsonObject& e : launchtest::readJsonLines(node0 + "/metrics.jsonl"))
            if (e["event"].toString() == QLatin1String("diagnosis") ||
                e["event"].toString() == QLatin1String("stall"))
                said << QString::fromUtf8(QJsonDocument(e).toJson(QJsonDocument::Compact));
        QVERIFY2(!first.isEmpty(),
                 qPrintable("node 0 did not say that every rank there waits: " + said.join('\n')));
        QCOMPARE(first["waiting"].toArray(), QJsonArray({0, 1}));
        QVERIFY2(!withDoctor.isEmpty(), "the doctor's findings did not follow");
        QVERIFY2(QJsonDocument(withDoctor["doctor"].toObject()).toJson().contains("STORE_REACHABLE"),
                 QJsonDocument(withDoctor).toJson().constData());
        // Beside the store, what node 1's launcher reports over the node link: connected, its ranks arrived.
        QVERIFY2(QJsonDocument(withDoctor["doctor"].toObject()).toJson().contains("NODE_CONNECTED"),
                 QJsonDocument(withDoctor).toJson().constData());
        QVERIFY(ok);
    }
};

QTEST_GUILESS_MAIN(TwoNodesTest)
#include "test_two_nodes.moc"
