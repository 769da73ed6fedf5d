// Rendezvous for real: two worker processes meeting over a c10d FileStore and a TCPStore, identity from the
// torchrun environment (also with torchrun's agent hosting the store), and every way it can go wrong: a rank
// that never comes (bounded, names who arrived), a store nobody hosts, a port already taken, a stale store, a
// rank that dies mid-training. Also
// --inspect-store.

#include "worker_harness.h"

#include <QTemporaryDir>
#include <QThread>

using namespace ddpdesk;
using namespace ddpdesk::traintest;

namespace {

const QStringList kQuickJob = {"--workload",     "autoencoder", "--steps",         "3",
                               "--telemetry-ms", "0",           "--limit-samples", "400"};

// What torchrun gives rank `rank` of `world` on this machine, with the store at 127.0.0.1:port.
QProcessEnvironment torchrunEnv(int rank, int world, quint16 port) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("RANK", QString::number(rank));
    env.insert("WORLD_SIZE", QString::number(world));
    env.insert("LOCAL_RANK", QString::number(rank));
    env.insert("MASTER_ADDR", "127.0.0.1");
    env.insert("MASTER_PORT", QString::number(port));
    return env;
}

QStringList phases(const RankResult& r) {
    QStringList out;
    for (const auto& e : r.ofType("rendezvous"))
        out << QString::fromStdString(e.body.value("phase", std::string()));
    return out;
}

void verifyTrained(const std::vector<RankResult>& results) {
    for (size_t r = 0; r < results.size(); ++r) {
        const RankResult& rr = results[r];
        QVERIFY2(rr.exitCode == 0, qPrintable(rr.describe()));
        QVERIFY(rr.last("hello"));
        QCOMPARE(rr.last("hello")->rank, static_cast<int>(r));
        QCOMPARE(phases(rr), (QStringList{"store_connect", "store_ready", "pg_create", "pg_ready", "done"}));
        auto steps = rr.ofType("step");
        QCOMPARE(static_cast<int>(steps.size()), 3);
        QVERIFY(steps.back().body["bytes_allreduced"].get<std::int64_t>() > 0);
        QVERIFY(rr.last("done"));
        QCOMPARE(rr.last("done")->body["steps"].get<int>(), 3);
    }
}

} // namespace

class TestRendezvous : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fileStoreTwoRanks() {
        QTemporaryDir dir;
        const QString store = dir.filePath("store");
        WorkerSet set;
        set.startRanks(2, kQuickJob + QStringList{"--store", "file:" + store, "--out", dir.path()});
        auto results = set.waitAll(120000);
        verifyTrained(results);
        // The last rank to finish removes the store file: nothing stale is left for the next run.
        QVERIFY(!QFile::exists(store));
        QVERIFY(QFile::exists(dir.filePath("model.pt")));
    }

    void tcpStoreTwoRanksFromTorchrunEnv() {
        QTemporaryDir dir;
        const quint16 port = freePort();
        WorkerSet set;
        for (int r = 0; r < 2; ++r) {
            set.start(kQuickJob + QStringList{"--out", dir.path()}, torchrunEnv(r, 2, port));
        }
        auto results = set.waitAll(120000);
        verifyTrained(results);
        QCOMPARE(results[0].last("hello")->body["identity_source"].get<std::string>(),
                 std::string("torchrun env"));
        QCOMPARE(results[0].ofType("rendezvous").front().body["hosting"].get<bool>(), true);
        QCOMPARE(results[1].ofType("rendezvous").front().body["hosting"].get<bool>(), false);
        // Both ranks took identical optimizer steps on different shards: their last losses differ, models
        // agree.
        QVERIFY(results[0].last("done")->body["final_loss"] != results[1].last("done")->body["final_loss"]);
    }

    // torchrun (PyTorch 2.x) hosts the store in its agent and tells the ranks
    // TORCHELASTIC_USE_AGENT_STORE=True: rank 0 joins that store as a client. Here the agent is PyTorch's own
    // TCPStore server in a Python process; a rank 0 that tried to host as well would end with PORT_IN_USE.
    void tcpStoreHostedByTorchrunsAgent() {
        QTemporaryDir dir;
        const quint16 port = freePort();
        QProcess agent;
        agent.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        agent.start(pythonPath(), {"-c", R"(
import sys, datetime, torch.distributed as d
port = int(sys.argv[1])
args = ("127.0.0.1", port, 1, True, datetime.timedelta(seconds=60))
try:
    store = d.TCPStore(*args, wait_for_workers=False, use_libuv=False)  # 2.x: Debian's builds have no libuv
except TypeError:
    store = d.TCPStore(*args, wait_for_workers=False)                   # 1.x: no such option
print("hosting", flush=True)
sys.stdin.read()
)",
                                   QString::number(port)});
        QVERIFY(agent.waitForReadyRead(60000));
        QVERIFY2(agent.readAllStandardOutput().contains("hosting"), "the agent's store did not start");
        WorkerSet set;
        for (int r = 0; r < 2; ++r) {
            QProcessEnvironment env = torchrunEnv(r, 2, port);
            env.insert("LOCAL_WORLD_SIZE", "2");
            env.insert("TORCHELASTIC_USE_AGENT_STORE", "True");
            set.start(kQuickJob + QStringList{"--out", dir.path()}, env);
        }
        auto results = set.waitAll(120000);
        agent.closeWriteChannel();
        agent.waitForFinished(10000);
        verifyTrained(results);
        QCOMPARE(results[0].ofType("rendezvous").front().body["hosting"].get<bool>(), false);
        QCOMPARE(results[1].ofType("rendezvous").front().body["hosting"].get<bool>(), false);
    }

    void missingRankTimesOutAndSaysWhoArrived() {
        QTemporaryDir dir;
        const QString store = dir.filePath("store");
        QElapsedTimer timer;
        timer.start();
        RankResult r0 =
            runWorker(kQuickJob + QStringList{"--store", "file:" + store, "--rank", "0", "--world-size", "2",
                                              "--timeout", "3", "--out", dir.path()},
                      60000);
        QVERIFY2(r0.exitCode == 3, qPrintable(r0.describe()));
        QVERIFY(timer.elapsed() < 40000);
        const protocol::Event* err = r0.last("error");
        QVERIFY(err);
        QCOMPARE(err->body["code"].get<std::string>(), std::string("RENDEZVOUS_TIMEOUT"));
        QCOMPARE(QString::fromStdString(err->body["waiting_for"]["arrived"].dump()), QStringLiteral("[0]"));
        QCOMPARE(QString::fromStdString(err->body["waiting_for"]["missing"].dump()), QStringLiteral("[1]"));
        QVERIFY(err->body["message"].get<std::string>().find("file:" + store.toStdString()) !=
                std::string::npos);

        // The doctor's view of the same store: rank 0's arrival is there, rank 1's is not; reading changes
        // nothing.
        const QByteArray before = [&] {
            QFile f(store);
            f.open(QIODevice::ReadOnly);
            return f.readAll();
        }();
        RankResult inspect = runWorker(
            {"--inspect-store", "--store", "file:" + store, "--keys", "ddpdesk/arrived/0,ddpdesk/arrived/1"});
        QCOMPARE(inspect.exitCode, 0);
        const protocol::Event* seen = inspect.last("store_inspect");
        QVERIFY(seen);
        QCOMPARE(seen->body["reachable"].get<bool>(), true);
        QVERIFY(seen->body["keys"]["ddpdesk/arrived/1"].is_null());
        auto arrival = nlohmann::json::parse(seen->body["keys"]["ddpdesk/arrived/0"].get<std::string>());
        QCOMPARE(arrival["pid"].get<qint64>(), r0.last("hello")->body["pid"].get<qint64>());
        const QByteArray after = [&] {
            QFile f(store);
            f.open(QIODevice::ReadOnly);
            return f.readAll();
        }();
        QCOMPARE(after, before);
        QVERIFY2(seen->body["all_keys"].dump().find("\"ddpdesk/arrived/0\"") != std::string::npos,
                 seen->body["all_keys"].dump().c_str()); // without c10d's "/" prefix

        // The same reader as the doctor's (protocol/file_store_reader.h): bytes that are not a FileStore are
        // said to be so, not read as an empty store.
        QFile junk(dir.filePath("junk"));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write(QByteArray(64, '\xff'));
        junk.close();
        RankResult notStore =
            runWorker({"--inspect-store", "--store", "file:" + junk.fileName(), "--keys", "x"});
        QCOMPARE(notStore.exitCode, 3);
        QVERIFY(!notStore.last("store_inspect")->body["reachable"].get<bool>());
        QVERIFY2(notStore.last("store_inspect")
                         ->body["error"]
                         .get<std::string>()
                         .find("is not a c10d FileStore") != std::string::npos,
                 qPrintable(notStore.describe()));

        // Starting rank 0 again on that stale store is refused with the reason, not a hang.
        RankResult again =
            runWorker(kQuickJob + QStringList{"--store", "file:" + store, "--rank", "0", "--world-size", "2",
                                              "--timeout", "3", "--out", dir.path()});
        QCOMPARE(again.exitCode, 3);
        QCOMPARE(again.last("error")->body["code"].get<std::string>(), std::string("RENDEZVOUS_FAILED"));
    }

    void tcpStoreNobodyHosts() {
        const quint16 port = freePort();
        RankResult r1 =
            runWorker(kQuickJob + QStringList{"--store", QString("tcp://127.0.0.1:%1").arg(port), "--rank",
                                              "1", "--world-size", "2", "--timeout", "3"},
                      60000);
        QVERIFY2(r1.exitCode == 3, qPrintable(r1.describe()));
        QCOMPARE(r1.last("error")->body["code"].get<std::string>(), std::string("STORE_UNREACHABLE"));

        RankResult inspect = runWorker({"--inspect-store", "--store", QString("tcp://127.0.0.1:%1").arg(port),
                                        "--keys", "ddpdesk/arrived/0", "--timeout", "2"});
        QCOMPARE(inspect.exitCode, 3);
        QCOMPARE(inspect.last("store_inspect")->body["reachable"].get<bool>(), false);
    }

    void portAlreadyInUse() {
        QTcpServer holder;
        QVERIFY(holder.listen(QHostAddress::Any, 0));
        RankResult r0 = runWorker(
            kQuickJob + QStringList{"--store", QString("tcp://127.0.0.1:%1").arg(holder.serverPort()),
                                    "--rank", "0", "--world-size", "2", "--timeout", "3"},
            60000);
        QVERIFY2(r0.exitCode == 3, qPrintable(r0.describe()));
        QCOMPARE(r0.last("error")->body["code"].get<std::string>(), std::string("PORT_IN_USE"));
    }

    void inspectLiveTcpStore() {
        // Rank 0 hosts a TCPStore and waits for a rank 1 that never comes; meanwhile a client reads its
        // arrival.
        QTemporaryDir dir;
        const quint16 port = freePort();
        const QString spec = QString("tcp://127.0.0.1:%1").arg(port);
        WorkerSet set;
        QProcess* r0 = set.start(kQuickJob + QStringList{"--store", spec, "--rank", "0", "--world-size", "2",
                                                         "--timeout", "30", "--out", dir.path()});
        QByteArray buffer;
        QVERIFY(waitForEvent(r0, "rendezvous", 30000, buffer)); // store_connect
        std::optional<protocol::Event> ready = waitForEvent(r0, "rendezvous", 30000, buffer);
        QVERIFY(ready);
        QCOMPARE(ready->body["phase"].get<std::string>(), std::string("store_ready"));
        nlohmann::json keys;
        for (int attempt = 0; attempt < 50; ++attempt) {
            RankResult inspect = runWorker({"--inspect-store", "--store", spec, "--keys",
                                            "ddpdesk/arrived/0,ddpdesk/arrived/1", "--timeout", "5"});
            QCOMPARE(inspect.exitCode, 0);
            keys = inspect.last("store_inspect")->body["keys"];
            if (!keys["ddpdesk/arrived/0"].is_null()) break;
            QThread::msleep(100);
        }
        QVERIFY(keys["ddpdesk/arrived/0"].is_string());
        QVERIFY(keys["ddpdesk/arrived/1"].is_null());
        r0->kill();
    }

    void peerDiesMidTraining() {
        QTemporaryDir dir;
        WorkerSet set;
        set.startRanks(2,
                       {"--workload", "autoencoder", "--steps", "100000", "--telemetry-ms", "0", "--store",
                        "file:" + dir.filePath("store"), "--out", dir.path(), "--collective-timeout", "30"});
        QByteArray buffer;
        QVERIFY(waitForEvent(set.process(1), "step", 120000, buffer));
        set.process(1)->kill();
        auto results = set.waitAll(60000);
        const RankResult& r0 = results[0];
        QVERIFY2(r0.exitCode == 5, qPrintable(r0.describe()));
        QCOMPARE(r0.last("error")->body["code"].get<std::string>(), std::string("PEER_LOST"));
        QVERIFY(r0.last("error")->body["waiting_for"]["step"].get<int>() >= 1);
    }
};

QTEST_GUILESS_MAIN(TestRendezvous)
#include "test_rendezvous.moc"
