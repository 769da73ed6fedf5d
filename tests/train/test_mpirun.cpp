// The worker runs unchanged under Open MPI's mpirun: each process takes its rank, world size and local rank from
// OMPI_COMM_WORLD_* and the two ranks train together over a FileStore and over a TCPStore.

#include "worker_harness.h"

#include <QStandardPaths>
#include <QTemporaryDir>

using namespace ddpdesk;
using namespace ddpdesk::traintest;

class TestMpirun : public QObject {
    Q_OBJECT

    QString m_mpirun;

    RankResult runMpi(const QStringList& workerArgs) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* name : {"RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"})
            env.remove(name);
        // Loopback and shared memory only; root in containers needs the explicit allowance.
        env.insert("OMPI_MCA_btl", "self,tcp");
        env.insert("OMPI_MCA_btl_tcp_if_include", "lo");
        env.insert("OMPI_MCA_oob_tcp_if_include", "lo");
        env.insert("OMPI_MCA_btl_vader_single_copy_mechanism", "none");
        env.insert("OMPI_MCA_rmaps_base_oversubscribe", "1");
        QStringList args{"--allow-run-as-root", "--oversubscribe", "-np", "2", workerPath()};
        WorkerSet set;
        set.start(args + workerArgs, env, m_mpirun);
        return set.waitAll(180000).front();
    }

    static void verifyBothRanks(const RankResult& r) {
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        std::set<int> helloRanks, doneRanks;
        for (const auto& e : r.ofType("hello")) {
            helloRanks.insert(e.rank);
            QCOMPARE(e.body["identity_source"].get<std::string>(), std::string("Open MPI env"));
            QCOMPARE(e.body["world_size"].get<int>(), 2);
        }
        for (const auto& e : r.ofType("done"))
            doneRanks.insert(e.rank);
        QCOMPARE(helloRanks, (std::set<int>{0, 1}));
        QCOMPARE(doneRanks, (std::set<int>{0, 1}));
    }

private Q_SLOTS:
    void initTestCase() {
        m_mpirun = QStringLiteral(DDPDESK_MPIRUN);
        if (m_mpirun.isEmpty() || m_mpirun.endsWith("NOTFOUND"))
            m_mpirun = QStandardPaths::findExecutable("mpirun");
        if (m_mpirun.isEmpty())
            QSKIP("mpirun (Open MPI) is not installed");
    }

    void fileStore() {
        QTemporaryDir dir;
        RankResult r = runMpi({"--workload", "autoencoder", "--steps", "3", "--limit-samples", "400", "--store",
                               "file:" + dir.filePath("store"), "--out", dir.path()});
        verifyBothRanks(r);
        QVERIFY(QFile::exists(dir.filePath("model.pt")));
    }

    void tcpStore() {
        QTemporaryDir dir;
        RankResult r = runMpi({"--workload", "fashion-mnist", "--steps", "2", "--limit-samples", "256", "--store",
                               QString("tcp://127.0.0.1:%1").arg(freePort()), "--out", dir.path()});
        verifyBothRanks(r);
    }
};

QTEST_GUILESS_MAIN(TestMpirun)
#include "test_mpirun.moc"
