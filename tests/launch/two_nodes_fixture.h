#pragma once

// The two "nodes" of the two-node tests (test_two_nodes.cpp, test_two_nodes_folder.cpp) on one machine: two
// network namespaces joined by a veth pair (10.77.0.1/24, 10.77.0.2/24), one launcher per "node" (ip netns
// exec), the TCPStore hosted by rank 0 on node 0's address. Each node also gets its own host name, IPC
// namespace and /dev/shm (unshare + a tmpfs): network namespaces alone share those, and the same-machine
// shared-memory shortcut for gradients would then span the two "nodes" and send nothing across the link. The
// link's byte counters prove gradients crossed it, and that with two ranks per node the hierarchical exchange
// sends less across than flat Gloo. What the end of a run says of the link is checked on a shaped one
// (COMM_BOUND) and on a second, bridged one Gloo is told to use while the direct link is up
// (WRONG_INTERFACE). The fixture: the namespaces, one launcher per node (runJob) and what the tests read of
// them.
#include "launch_test_util.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QSet>
#include <QtTest>

#include <algorithm>
#include <functional>
#include <unistd.h>

class TwoNodesFixture : public QObject {
protected:
    QString m_nsA, m_nsB;
    bool m_created = false;

    static int ip(const QStringList& args, QString* err = nullptr) {
        QProcess p;
        p.start("ip", args);
        if (!p.waitForStarted(5000)) {
            if (err) *err = "cannot run 'ip': " + p.errorString();
            return -1;
        }
        p.waitForFinished(10000);
        if (err) *err = QString::fromUtf8(p.readAllStandardError()).trimmed();
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    }

    // Builds the two namespaces and the veth pair: "" or why it cannot here (the tests are then skipped).
    QString setUpNodes() {
        const QString tag = QString::number(QCoreApplication::applicationPid());
        m_nsA = "ddpd" + tag + "a";
        m_nsB = "ddpd" + tag + "b";
        const QString vethA = "vd" + tag + "a", vethB = "vd" + tag + "b"; // <= 15 characters
        QString err;
        if (ip({"netns", "add", m_nsA}, &err) != 0)
            return "network namespaces are not permitted here: 'ip netns add' failed: " + err;
        m_created = true;
        const QList<QStringList> steps = {
            {"netns", "add", m_nsB},
            {"link", "add", vethA, "type", "veth", "peer", "name", vethB},
            {"link", "set", vethA, "netns", m_nsA},
            {"link", "set", vethB, "netns", m_nsB},
            {"-n", m_nsA, "addr", "add", "10.77.0.1/24", "dev", vethA},
            {"-n", m_nsB, "addr", "add", "10.77.0.2/24", "dev", vethB},
            {"-n", m_nsA, "link", "set", vethA, "up"},
            {"-n", m_nsB, "link", "set", vethB, "up"},
            {"-n", m_nsA, "link", "set", "lo", "up"},
            {"-n", m_nsB, "link", "set", "lo", "up"},
        };
        for (const QStringList& s : steps)
            if (ip(s, &err) != 0)
                return "could not build the veth pair: 'ip " + s.join(' ') + "' failed: " + err;
        m_vethA = vethA;
        m_vethB = vethB;
        return {};
    }

    void tearDownNodes() {
        if (!m_created) return;
        ip({"netns", "del", m_nsA}); // deleting a namespace deletes its end of the veth pair, and so the pair
        ip({"netns", "del", m_nsB});
    }

    // A process's user and system CPU time so far (Linux: /proc/PID/stat, in clock ticks); -1: unreadable.
    static double processCpuSeconds(qint64 pid) {
        QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!f.open(QIODevice::ReadOnly)) return -1;
        const QByteArray stat = f.readAll();
        const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
        if (fields.size() < 13) return -1; // after the name: state, ..., utime (12th), stime (13th)
        return (fields[11].toDouble() + fields[12].toDouble()) / double(::sysconf(_SC_CLK_TCK));
    }

    // Until node 0's metrics.jsonl has `steps` step events of each of `ranks` (node 1's forwarded too).
    static bool waitForSteps(const QString& node0, const QList<int>& ranks, int steps) {
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 60000) {
            const auto events = launchtest::readJsonLines(node0 + "/metrics.jsonl");
            bool all = true;
            for (int r : ranks)
                all = all && launchtest::countEvents(events, "step", r) >= steps;
            if (all) return true;
            QTest::qWait(100);
        }
        return false;
    }

    // Node 0's summary of a 2 x 2 run of 8 steps: all 4 ranks, each with its node and host, done, with
    // identical parameters. QCOMPAREs: the caller returns when QTest::currentTestFailed().
    static void checkEveryRankOnNodeZero(const QString& dir) {
        const QJsonObject s = launchtest::readJsonFile(dir + "/node0/summary.json");
        const QJsonArray ranks = s["ranks"].toArray();
        QCOMPARE(ranks.size(), 4);
        QSet<QString> digests;
        for (int r = 0; r < 4; ++r) {
            const QJsonObject rank = ranks[r].toObject();
            QCOMPARE(rank["rank"].toInt(), r);
            QCOMPARE(rank["node"].toInt(), r / 2);
            QCOMPARE(rank["host"].toString(), QStringLiteral("ddpdesk-node%1").arg(r / 2));
            QCOMPARE(rank["remote"].toBool(), r >= 2);
            QCOMPARE(rank["state"].toString(), QStringLiteral("done"));
            QCOMPARE(rank["steps"].toInt(), 8);
            digests.insert(rank["params_sha256"].toString());
        }
        QCOMPARE(digests.size(), 1);
        QVERIFY(!digests.values().first().isEmpty());
        QCOMPARE(s["params_identical"].toBool(), true);
    }

    // The states node 0 recorded for node 1's launcher (its `node` events), in order.
    static QStringList nodeOneStates(const QString& dir) {
        QStringList states;
        for (const QJsonObject& e : launchtest::readJsonLines(dir + "/node0/metrics.jsonl"))
            if (e["event"].toString() == QLatin1String("node") && e["node"].toInt() == 1)
                states << e["state"].toString();
        return states;
    }

    struct Link {
        QString storeHost, ifaceA, ifaceB; // empty: the veth pair's
    };

    // Starts one launcher per node (node 1 first: it must wait for the store) and waits for both.
    // whileRunning: called once both launchers started, before waiting for them.
    // Ports two apart: node 0's launcher takes the store's port + 1 for the node link.
    bool runJob(const QString& dir, int perNode, const QStringList& extra, int port = 29517, int steps = 8,
                const std::function<void()>& whileRunning = {}, const Link& link = {}) {
        // A fresh namespace: no other job holds the port. Node 0 takes the secret it is given instead of
        // inventing one, so both nodes can start at once.
        const QString host = link.storeHost.isEmpty() ? QStringLiteral("10.77.0.1") : link.storeHost;
        const QString store = m_store.isEmpty() ? QStringLiteral("tcp://%1:%2").arg(host).arg(port) : m_store;
        const QString secret = QString(64, QLatin1Char('7'));
        auto launcher = [&](const QString& ns, int nodeRank, const QString& iface) {
            auto* p = new QProcess(this);
            const QString out = dir + QStringLiteral("/node%1").arg(nodeRank);
            QStringList args{"netns",
                             "exec",
                             ns,
                             "unshare",
                             "--mount",
                             "--uts",
                             "--ipc",
                             "--propagation",
                             "private",
                             "sh",
                             "-c",
                             "mount -t tmpfs ddpdesk-node-shm /dev/shm && hostname \"$0\" && exec \"$@\"",
                             QStringLiteral("ddpdesk-node%1").arg(nodeRank),
                             launchtest::envPath("DDPDESK_CLI"),
                             "run",
                             "--workload",
                             "autoencoder",
                             "--nproc",
                             QString::number(perNode),
                             "--nnodes",
                             "2",
                             "--node-rank",
                             QString::number(nodeRank),
                             "--store",
                             store,
                             "--iface",
                             iface,
                             "--steps",
                             QString::number(steps),
                             "--threads",
                             "1",
                             "--batch-size",
                             "16",
                             "--limit-samples",
                             "256",
                             "--telemetry-ms",
                             m_telemetryMs,
                             "--timeout",
                             "60",
                             "--out",
                             out,
                             "--json",
                             "--run-secret",
                             secret};
            p->start("ip", args + extra);
            return p;
        };
        QProcess* node1 = nullptr;
        if (m_foreignNode1) { // python3-torch ranks started as torchrun would: env://, no DDP Desk launcher
            node1 = new QProcess(this);
            const QString py =
                "import os, datetime, time, torch.distributed as d  # ddpdesk-foreign-rank\n"
                "d.init_process_group('gloo', init_method='env://', rank=int(os.environ['RANK']), "
                "world_size=4, timeout=datetime.timedelta(seconds=60))\ntime.sleep(20)\n";
            node1->start(
                "ip",
                {"netns", "exec", m_nsB, "env", "MASTER_ADDR=" + host, "MASTER_PORT=" + QString::number(port),
                 "GLOO_SOCKET_IFNAME=" + m_vethB, "USE_LIBUV=0", "sh", "-c",
                 "RANK=2 /usr/bin/python3 -c \"$0\" & RANK=3 /usr/bin/python3 -c \"$0\" & wait", py});
        } else {
            node1 = launcher(m_nsB, 1, link.ifaceB.isEmpty() ? m_vethB : link.ifaceB);
        }
        QProcess* node0 = launcher(m_nsA, 0, link.ifaceA.isEmpty() ? m_vethA : link.ifaceA);
        m_launchers[0] = node0;
        m_launchers[1] = node1;
        if (whileRunning) whileRunning();
        bool ok = true;
        for (QProcess* p : {node0, node1}) {
            if (!p->waitForFinished(100000)) {
                qWarning("a launcher did not finish within 100 s");
                p->kill();
                p->waitForFinished(5000);
                ok = false;
                continue;
            }
            if (p->exitStatus() != QProcess::NormalExit || p->exitCode() != 0) {
                qWarning("a launcher failed: %s", p->readAllStandardError().constData());
                ok = false;
            }
        }
        for (int node : {0, 1}) {
            const QJsonObject s =
                launchtest::readJsonFile(dir + QStringLiteral("/node%1/summary.json").arg(node));
            if (s["status"].toString() != QLatin1String("ok")) {
                qWarning("node %d: %s", node, QJsonDocument(s).toJson().constData());
                ok = false;
            }
        }
        return ok;
    }

    static QByteArray readAll(const QString& path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    // Bytes through the link both ways so far.
    qint64 linkBytes() const { return txBytes(m_nsA, m_vethA) + txBytes(m_nsB, m_vethB); }

    // Bytes sent from inside namespace `ns` through `iface` so far.
    static qint64 txBytes(const QString& ns, const QString& iface) {
        QProcess p;
        p.start("ip", {"netns", "exec", ns, "cat", "/sys/class/net/" + iface + "/statistics/tx_bytes"});
        p.waitForFinished(10000);
        return p.readAllStandardOutput().trimmed().toLongLong();
    }

    QString m_vethA, m_vethB;
    QProcess* m_launchers[2] = {nullptr, nullptr}; // the current job's, for whileRunning
    QString m_telemetryMs = QStringLiteral("0");   // every step's event, unless a test says otherwise
    QString m_store; // the job's store; empty: a TCPStore on node 0's address (with the node link)
    bool m_foreignNode1 = false; // node 1's ranks are python3-torch processes, no DDP Desk launcher
};
