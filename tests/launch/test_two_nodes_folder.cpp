// The node link over a folder in a real two-node run (two_nodes_fixture.h: network namespaces, own host
// names and /dev/shm): the job's store is a FileStore in a folder both "nodes" see, as a share is, and the
// launchers meet in the run's link folder beside it (core/launch/link/folder_link.h). Node 0's summary lists
// all 4 ranks with their hosts; Stop on node 0 ends node 1's ranks within 5 s, which say who stopped them,
// with no process left; a frame forged into node 1's stream ends that stream on node 0, named; node 1's
// launcher killed is "no contact" on node 0 within 5 s; the link folder is gone after the run.
#include "two_nodes_fixture.h"

#include <QDir>
#include <QScopeGuard>
#include <QSet>

#include <csignal>
#include <fstream>

#include "protocol/node_link.h"

class TwoNodesFolderTest : public TwoNodesFixture {
    Q_OBJECT

    // The run's link folder and node 1's segment files in it (none once the run is over).
    static QStringList linkFolders(const QString& dir) {
        return QDir(dir).entryList({"filestore.ddpdesk-link-*"}, QDir::Dirs | QDir::NoDotAndDotDot);
    }

    QString useFileStore(const QString& dir) {
        m_store = QStringLiteral("file://") + dir + QStringLiteral("/filestore");
        return m_store;
    }

private slots:
    void initTestCase() {
        const QString why = setUpNodes();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
    }

    void cleanupTestCase() { tearDownNodes(); }

    void cleanup() { m_store.clear(); }

    void nodeZeroShowsEveryNodesRanksThroughTheFolder() {
        QTemporaryDir dir;
        useFileStore(dir.path());
        QVERIFY(runJob(dir.path(), 2, {}));
        // Node 0's ranks may all end before its link follows node 1's stream (one there before node 0's first
        // look is followed once it grows): node 0 then waits for node 1's end as for a connected node's.
        checkEveryRankOnNodeZero(dir.path());
        if (QTest::currentTestFailed()) {
            qWarning("node 0 recorded of node 1's launcher: [%s]",
                     qPrintable(nodeOneStates(dir.path()).join(", ")));
            return;
        }
        QCOMPARE(nodeOneStates(dir.path()), QStringList({"connected", "ended: ok"}));
        QVERIFY2(linkFolders(dir.path()).isEmpty(), qPrintable(linkFolders(dir.path()).join(' ')));
    }

    void stopOnNodeZeroEndsEveryNodeThroughTheFolder() {
        QTemporaryDir dir;
        useFileStore(dir.path());
        QVector<qint64> pids;
        double stoppedT = 0;
        runJob(dir.path(), 1, {}, 29517, 100000, [&] {
            if (!waitForSteps(dir.filePath("node0"), {0, 1}, 3)) return;
            pids = launchtest::workerPids(dir.filePath("node0/metrics.jsonl")) +
                   launchtest::workerPids(dir.filePath("node1/metrics.jsonl"));
            stoppedT = QDateTime::currentMSecsSinceEpoch() / 1000.0;
            ::kill(pid_t(m_launchers[0]->processId()), SIGINT);
        });
        QVERIFY2(stoppedT > 0, "the run did not train on both nodes");
        QVERIFY(launchtest::leftovers(pids, 500).isEmpty());
        const QJsonObject s1 = launchtest::readJsonFile(dir.filePath("node1/summary.json"));
        QCOMPARE(s1["status"].toString(), QStringLiteral("stopped"));
        QVERIFY2(QJsonDocument(s1).toJson().contains("stopped from node 0"),
                 QJsonDocument(s1).toJson().constData());
        double endT = 0;
        for (const QJsonObject& e : launchtest::readJsonLines(dir.filePath("node1/metrics.jsonl")))
            if (e["event"].toString() == QLatin1String("rank_exit")) endT = std::max(endT, e["t"].toDouble());
        qInfo("node 1's rank ended %.2f s after Ctrl-C on node 0 (through the folder)", endT - stoppedT);
        QVERIFY2(endT > 0 && endT - stoppedT <= 5, qPrintable(QString::number(endT - stoppedT)));
        const QJsonObject s0 = launchtest::readJsonFile(dir.filePath("node0/summary.json"));
        QCOMPARE(s0["status"].toString(), QStringLiteral("stopped"));
        QVERIFY2(!QJsonDocument(s0).toJson().contains("PEER_LOST: "), QJsonDocument(s0).toJson().constData());
        QVERIFY(linkFolders(dir.path()).isEmpty());
    }

    // Someone who can write to the share appends a frame to node 1's stream without the run's secret: node 0
    // stops reading that stream and says why. Then node 1's launcher is killed: its silence is named.
    void aForgedFrameAndADeadLauncherAreNamed() {
        QTemporaryDir dir;
        useFileStore(dir.path());
        QString forgedInto;
        double killedT = 0;
        runJob(dir.path(), 1, {}, 29517, 100000, [&] {
            if (!waitForSteps(dir.filePath("node0"), {0, 1}, 3)) return;
            const QStringList folders = linkFolders(dir.path());
            if (folders.size() != 1) return;
            const QDir link(dir.filePath(folders[0]));
            const QStringList node1 = link.entryList({"node-1-*.frames"}, QDir::Files);
            if (node1.isEmpty()) return;
            forgedInto = link.filePath(node1[0]);
            std::ofstream out(forgedInto.toStdString(), std::ios::binary | std::ios::app);
            namespace nl = ddpdesk::protocol::node_link;
            out << nl::frameBytes(nl::signFrame(std::string(32, 'x'), "forged", nl::Direction::Up, 0,
                                                R"({"type":"events","events":[]})"));
            out.close();
            QTest::qWait(2000);
            killedT = QDateTime::currentMSecsSinceEpoch() / 1000.0;
            ::kill(pid_t(m_launchers[1]->processId()), SIGKILL);
        });
        QVERIFY2(!forgedInto.isEmpty() && killedT > 0, "the run did not train on both nodes");
        const QStringList states = nodeOneStates(dir.path());
        const QString all = states.join('\n');
        QVERIFY2(all.contains("not signed with this run's secret"), qPrintable(all));
        QVERIFY2(states.first() == QLatin1String("connected"), qPrintable(all));
        const QJsonObject s0 = launchtest::readJsonFile(dir.filePath("node0/summary.json"));
        QCOMPARE(s0["status"].toString(), QStringLiteral("failed"));
        QVERIFY2(s0["failure_reason"].toString().startsWith("node 1 (ddpdesk-node1) lost contact first"),
                 qPrintable(s0["failure_reason"].toString()));
    }
};

QTEST_GUILESS_MAIN(TwoNodesFolderTest)
#include "test_two_nodes_folder.moc"
