// A real two-node run on one machine: two network namespaces joined by a veth pair
// (10.77.0.1/24, 10.77.0.2/24), one launcher per "node" (ip netns exec), the TCPStore hosted by rank 0 on
// node 0's address. Each node also gets its own host name, IPC namespace and /dev/shm (unshare + a tmpfs):
// network namespaces alone share those, and the same-machine shared-memory shortcut for gradients would then
// span the two "nodes" and send nothing across the link. The link's byte counters prove gradients crossed it.
#include "launch_test_util.h"

#include <QCoreApplication>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

class TwoNodesTest : public QObject {
    Q_OBJECT
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

private slots:
    void initTestCase() {
        const QString tag = QString::number(QCoreApplication::applicationPid());
        m_nsA = "ddpd" + tag + "a";
        m_nsB = "ddpd" + tag + "b";
        const QString vethA = "vd" + tag + "a", vethB = "vd" + tag + "b"; // <= 15 characters
        QString err;
        if (ip({"netns", "add", m_nsA}, &err) != 0)
            QSKIP(qPrintable("network namespaces are not permitted here: 'ip netns add' failed: " + err));
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
                QSKIP(qPrintable("could not build the veth pair: 'ip " + s.join(' ') + "' failed: " + err));
        m_vethA = vethA;
        m_vethB = vethB;
    }

    void cleanupTestCase() {
        if (!m_created) return;
        ip({"netns", "del", m_nsA}); // deleting a namespace deletes its end of the veth pair, and so the pair
        ip({"netns", "del", m_nsB});
    }

    void twoLaunchersOneJob() {
        QTemporaryDir dir;
        const QString store = "tcp://10.77.0.1:29517"; // a fresh namespace: no other job holds this port
        // Node 0 takes the secret it is given instead of inventing one, so both nodes can start at once.
        const QString secret = QString(64, QLatin1Char('7'));
        auto launcher = [&](const QString& ns, int nodeRank, const QString& iface) {
            auto* p = new QProcess(this);
            const QString out = dir.filePath(QStringLiteral("node%1").arg(nodeRank));
            p->start("ip",
                     QStringList{"netns",
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
                                 "1",
                                 "--nnodes",
                                 "2",
                                 "--node-rank",
                                 QString::number(nodeRank),
                                 "--store",
                                 store,
                                 "--iface",
                                 iface,
                                 "--steps",
                                 "8",
                                 "--threads",
                                 "1",
                                 "--batch-size",
                                 "16",
                                 "--limit-samples",
                                 "256",
                                 "--telemetry-ms",
                                 "0",
                                 "--timeout",
                                 "60",
                                 "--out",
                                 out,
                                 "--json",
                                 "--run-secret",
                                 secret});
            return p;
        };
        const qint64 sentBefore = txBytes(m_nsA, m_vethA);
        QProcess* node1 = launcher(m_nsB, 1, m_vethB); // the far node first: it must wait for the store
        QProcess* node0 = launcher(m_nsA, 0, m_vethA);
        QVERIFY(node0->waitForFinished(100000));
        QVERIFY(node1->waitForFinished(100000));
        const QString err0 = QString::fromUtf8(node0->readAllStandardError());
        const QString err1 = QString::fromUtf8(node1->readAllStandardError());
        QVERIFY2(node0->exitCode() == 0, qPrintable(err0));
        QVERIFY2(node1->exitCode() == 0, qPrintable(err1));
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

private:
    // Bytes sent from inside namespace `ns` through `iface` so far.
    static qint64 txBytes(const QString& ns, const QString& iface) {
        QProcess p;
        p.start("ip", {"netns", "exec", ns, "cat", "/sys/class/net/" + iface + "/statistics/tx_bytes"});
        p.waitForFinished(10000);
        return p.readAllStandardOutput().trimmed().toLongLong();
    }

    QString m_vethA, m_vethB;
};

QTEST_GUILESS_MAIN(TwoNodesTest)
#include "test_two_nodes.moc"
