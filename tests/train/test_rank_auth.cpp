// Loopback unless asked for the network, and the rank proof, with real worker processes: a single-node job's
// Gloo (and, where LibTorch allows, TCPStore) sockets listen on loopback only; ranks sharing the run secret
// train; a rank with a wrong secret, or none, makes the genuine ranks refuse (FOREIGN_RANK, naming its host
// and pid, exit 6); a secret file others can read and a malformed secret are refused by name (exit 2).

#include "listening_sockets.h"
#include "worker_harness.h"

#include "protocol/run_auth.h"
#include "train/rendezvous/c10d_compat.h"

#include <QTemporaryDir>

using namespace ddpdesk;
using namespace ddpdesk::traintest;

namespace {

const QStringList kQuickJob = {"--workload", "autoencoder",     "--steps", "3",         "--telemetry-ms",
                               "0",          "--limit-samples", "400",     "--timeout", "30"};

// A clean environment: no secret and no Gloo interface inherited from whoever runs the tests.
QProcessEnvironment envWith(const QString& secretHex) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(protocol::kRunSecretEnv);
    env.remove("GLOO_SOCKET_IFNAME");
    if (!secretHex.isEmpty()) env.insert(protocol::kRunSecretEnv, secretHex);
    return env;
}

QStringList rankArgs(int rank, int world, const QStringList& common) {
    return common + QStringList{"--rank", QString::number(rank), "--world-size", QString::number(world)};
}

QString secretHex() {
    return QString::fromStdString(protocol::newRunSecretHex());
}

void verifyForeign(const RankResult& r, qint64 foreignPid) {
    QVERIFY2(r.exitCode == 6, qPrintable(r.describe()));
    const protocol::Event* e = r.last("error");
    QVERIFY2(e, qPrintable(r.describe()));
    QCOMPARE(e->body["code"].get<std::string>(), std::string("FOREIGN_RANK"));
    const std::string message = e->body["message"].get<std::string>();
    QVERIFY2(message.find("pid " + std::to_string(foreignPid)) != std::string::npos, message.c_str());
    QVERIFY2(message.find("host " + QSysInfo::machineHostName().toStdString()) != std::string::npos,
             message.c_str());
    QCOMPARE(e->body["waiting_for"]["pid"].get<qint64>(), foreignPid);
    QVERIFY(!r.last("step")); // refused before the process group formed: nothing trained
}

} // namespace

class TestRankAuth : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sharedSecretTrains() {
        QTemporaryDir dir;
        const QString secret = secretHex();
        WorkerSet set;
        for (int r = 0; r < 2; ++r)
            set.start(rankArgs(r, 2,
                               kQuickJob + QStringList{"--store", "file:" + dir.filePath("store"), "--out",
                                                       dir.path()}),
                      envWith(secret));
        for (const RankResult& r : set.waitAll(120000)) {
            QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
            QVERIFY(r.last("done"));
            QVERIFY(!r.stdoutText.contains(secret.toUtf8())); // never in telemetry
        }
    }

    // All ranks on this machine (local world size == world size, from flags): Gloo binds 127.0.0.1 only. The
    // rendezvous event names the device (the hostname's address before, which many hosts resolve beyond
    // loopback) and every TCP socket of both ranks is bound to loopback (the TCPStore port aside, checked
    // below).
    void singleNodeListensOnLoopbackOnly_data() {
        QTest::addColumn<bool>("tcp");
        QTest::newRow("FileStore") << false;
        QTest::newRow("TCPStore") << true;
    }
    void singleNodeListensOnLoopbackOnly() {
#ifndef Q_OS_LINUX
        QSKIP("reads /proc");
#endif
        QFETCH(bool, tcp);
        QTemporaryDir dir;
        const quint16 port = freePort();
        const QString store =
            tcp ? QStringLiteral("tcp://127.0.0.1:%1").arg(port) : "file:" + dir.filePath("store");
        const QStringList job = {"--workload",
                                 "autoencoder",
                                 "--steps",
                                 "100000",
                                 "--telemetry-ms",
                                 "0",
                                 "--timeout",
                                 "30",
                                 "--local-world-size",
                                 "2",
                                 "--store",
                                 store,
                                 "--out",
                                 dir.path()};
        const QString secret = secretHex();
        WorkerSet live;
        QProcess* p0 = live.start(rankArgs(0, 2, job + QStringList{"--local-rank", "0"}), envWith(secret));
        QProcess* p1 = live.start(rankArgs(1, 2, job + QStringList{"--local-rank", "1"}), envWith(secret));
        QByteArray buf0, buf1;
        std::optional<protocol::Event> pg;
        for (auto deadline = QDeadlineTimer(60000); !deadline.hasExpired();) {
            auto e = waitForEvent(p0, "rendezvous", 60000, buf0);
            if (!e) // (QVERIFY2 would evaluate the message, and so consume stderr, on every pass)
                QFAIL(qPrintable(QString::fromUtf8(p0->readAllStandardError())));
            if (e->body["phase"] == "pg_create") pg = e;
            if (e->body["phase"] == "pg_ready") break;
        }
        QVERIFY(pg);
        QCOMPARE(pg->body["device"].get<std::string>(), std::string("address of 127.0.0.1"));
        QVERIFY(waitForEvent(p1, "step", 60000, buf1));
        for (QProcess* p : {p0, p1}) {
            const QStringList listening = listentest::localAddresses(p->processId(), false);
            QVERIFY2(!listening.isEmpty(), "no TCP socket found: the check would prove nothing");
            QStringList beyond;
            for (const QString& a : listening)
                if (!listentest::isLoopback(a)) beyond << a;
            QVERIFY2(beyond.isEmpty(), qPrintable("listening beyond loopback: " + beyond.join(", ")));
        }
        if (tcp) {
            // Rank 0 hosts the store on loopback only, with every LibTorch (DDP Desk's own server, core/net).
            const QStringList l0 = listentest::listeningAddresses(p0->processId());
            QVERIFY2(l0.contains(QStringLiteral("127.0.0.1:%1").arg(port)), qPrintable(l0.join(", ")));
            QVERIFY2(!l0.contains(QStringLiteral("0.0.0.0:%1").arg(port)) &&
                         !l0.contains(QStringLiteral("[::]:%1").arg(port)),
                     qPrintable(l0.join(", ")));
        }
    }

    // A third process joins with a wrong secret: both genuine ranks refuse, naming its host and pid.
    void wrongSecretIsForeign() {
        QTemporaryDir dir;
        const QString secret = secretHex();
        const QStringList job =
            kQuickJob + QStringList{"--store", "file:" + dir.filePath("store"), "--out", dir.path()};
        WorkerSet set;
        set.start(rankArgs(0, 3, job), envWith(secret));
        set.start(rankArgs(1, 3, job), envWith(secret));
        QProcess* foreign = set.start(rankArgs(2, 3, job), envWith(secretHex()));
        QVERIFY(foreign->waitForStarted(10000));
        const qint64 foreignPid = foreign->processId();
        auto results = set.waitAll(120000);
        verifyForeign(results[0], foreignPid);
        verifyForeign(results[1], foreignPid);
        QCOMPARE(results[2].exitCode, 6); // and the foreign rank cannot verify the genuine ones either
        QVERIFY(results[0].last("error")->body["message"].get<std::string>().find("does not verify") !=
                std::string::npos);
    }

    // A rank started without the secret (by hand, or by another launcher) next to ranks that have one.
    void rankWithoutProofIsForeign() {
        QTemporaryDir dir;
        QStringList job =
            kQuickJob + QStringList{"--store", "file:" + dir.filePath("store"), "--out", dir.path()};
        job[job.indexOf("--timeout") + 1] = "8";
        WorkerSet set;
        set.start(rankArgs(0, 2, job), envWith(secretHex()));
        QProcess* bare = set.start(rankArgs(1, 2, job), envWith(QString()));
        QVERIFY(bare->waitForStarted(10000));
        const qint64 barePid = bare->processId();
        auto results = set.waitAll(120000);
        verifyForeign(results[0], barePid);
        QVERIFY(results[0].last("error")->body["message"].get<std::string>().find("without a proof") !=
                std::string::npos);
        QVERIFY(results[1].exitCode !=
                0); // behaves as before the proof existed: rank 0 is gone, it times out
    }

    void badSecretsAreRefusedByName() {
#ifdef Q_OS_WIN
        QSKIP("POSIX mode bits");
#endif
        QTemporaryDir dir;
        const QString file = dir.filePath("secret");
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(secretHex().toUtf8());
        f.close();
        QVERIFY(f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther));
        const QStringList job = kQuickJob + QStringList{"--store",      "file:" + dir.filePath("store"),
                                                        "--out",        dir.path(),
                                                        "--rank",       "0",
                                                        "--world-size", "1"};
        RankResult r = runWorker(job + QStringList{"--run-secret-file", file}, 60000, envWith(QString()));
        QCOMPARE(r.exitCode, 2);
        std::string message = r.last("error")->body["message"].get<std::string>();
        QVERIFY2(message.find("--run-secret-file") != std::string::npos &&
                     message.find("chmod 600") != std::string::npos,
                 message.c_str());

        QVERIFY(f.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
        r = runWorker(job + QStringList{"--run-secret-file", file}, 60000, envWith(QString()));
        QVERIFY2(r.exitCode == 0,
                 qPrintable(r.describe())); // a private file works (world size 1: itself only)

        r = runWorker(job, 60000, envWith("abc123"));
        QCOMPARE(r.exitCode, 2);
        message = r.last("error")->body["message"].get<std::string>();
        QVERIFY2(message.find(protocol::kRunSecretEnv) != std::string::npos, message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestRankAuth)
#include "test_rank_auth.moc"
