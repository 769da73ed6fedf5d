// The launcher's side of "loopback unless asked" and the run secret, with real ddpdesk-cli and ddpdesk-worker
// processes: a single-node run's workers get the secret in their environment only (never on a command line,
// never in metrics.jsonl / summary.json) and keep every TCP socket on loopback; a two-launcher run (--nnodes
// 2 on this machine) warns that the store is reachable, saves the secret in a file only its owner can read
// and prints the command for the other node naming that file (never the secret: on a command line every user
// sees it in ps), and trains when node 1 uses it; node 1 without it, with a malformed one or with a file
// others can read is refused (exit 2), and a secret given on the command line is warned about.
#include "launch_test_util.h"

#include "../train/listening_sockets.h"

#include "launch/config/run_config.h"
#include "launch/run/run_secret.h"
#include "launch/run/supervisor.h"
#include "protocol/run_auth.h"

#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace ddpdesk;

namespace {

// Node 0 names a file for the other nodes, never the secret itself.
const QRegularExpression kSecretFileFlag(QStringLiteral("--run-secret-file (\\S+)"));
const QRegularExpression kAnySecret(QStringLiteral("[0-9a-f]{64}"));

QByteArray readProc(qint64 pid, const char* what) {
    QFile f(QStringLiteral("/proc/%1/%2").arg(pid).arg(QLatin1String(what)));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QByteArray fileText(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Waits (bounded) until `p` wrote a line matching `re` to stderr; `seen` keeps everything read.
QString waitForStderr(QProcess* p, const QRegularExpression& re, int timeoutMs, QString* seen) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        p->waitForReadyRead(200);
        *seen += QString::fromUtf8(p->readAllStandardError());
        const auto m = re.match(*seen);
        if (m.hasMatch()) return m.captured(1);
        if (p->state() == QProcess::NotRunning) break;
    }
    return QString();
}

QStringList quickRun(const QString& out) {
    return {"run", "--workload",   "autoencoder", "--steps",         "6",   "--threads",
            "1",   "--batch-size", "16",          "--limit-samples", "256", "--telemetry-ms",
            "0",   "--timeout",    "60",          "--out",           out};
}

} // namespace

class RunSecretTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { qunsetenv(protocol::kRunSecretEnv); }

    void scriptEnvironmentStaysOnLoopback() {
        launch::RunConfig c;
        c.scriptFile = "train.py";
        c.nproc = 2;
        c.store = "tcp://10.0.0.5:29500";
        c.outDir = "/tmp/x";
        auto env = c.rankEnvironment(1);
        QCOMPARE(env["MASTER_ADDR"], QStringLiteral("127.0.0.1"));
#ifdef Q_OS_LINUX
        QCOMPARE(env["GLOO_SOCKET_IFNAME"], QStringLiteral("lo"));
#endif
        QVERIFY(!env.contains(protocol::kRunSecretEnv)); // the secret is the Supervisor's, per run
        c.iface = "eth1";                                // asked for the network: honoured
        QCOMPARE(c.rankEnvironment(0)["GLOO_SOCKET_IFNAME"], QStringLiteral("eth1"));
        c.iface.clear();
        c.nnodes = 2;
        env = c.rankEnvironment(1);
        QCOMPARE(env["MASTER_ADDR"], QStringLiteral("10.0.0.5"));
        QVERIFY(!env.contains("GLOO_SOCKET_IFNAME"));
    }

    void singleNodeSecretOnlyInTheEnvironment() {
#ifndef Q_OS_LINUX
        QSKIP("reads /proc");
#endif
        QTemporaryDir dir;
        QProcess cli;
        cli.start(launchtest::envPath("DDPDESK_CLI"),
                  {"run", "--workload", "autoencoder", "--nproc", "2", "--steps", "100000", "--threads", "1",
                   "--telemetry-ms", "200", "--timeout", "60", "--out", dir.path()});
        QVERIFY(cli.waitForStarted(10000));
        const QString metrics = dir.filePath("metrics.jsonl");
        QVector<qint64> pids;
        for (QElapsedTimer t; !t.isValid() || t.elapsed() < 60000;) {
            if (!t.isValid()) t.start();
            pids = launchtest::workerPids(metrics);
            if (pids.size() == 2 && launchtest::countEvents(launchtest::readJsonLines(metrics), "step") >= 2)
                break;
            QVERIFY2(cli.state() == QProcess::Running,
                     qPrintable(QString::fromUtf8(cli.readAllStandardError())));
            QThread::msleep(200);
        }
        QCOMPARE(pids.size(), 2);
        QString secret;
        for (qint64 pid : pids) {
            const QByteArray environ = readProc(pid, "environ");
            QString mine;
            for (const QByteArray& kv : environ.split('\0'))
                if (kv.startsWith(QByteArray(protocol::kRunSecretEnv) + "="))
                    mine = QString::fromLatin1(kv.mid(int(qstrlen(protocol::kRunSecretEnv)) + 1));
            QVERIFY2(QRegularExpression("^[0-9a-f]{64}$").match(mine).hasMatch(), qPrintable(mine));
            if (secret.isEmpty()) secret = mine;
            QCOMPARE(mine, secret); // one secret per run, the same for every rank
            QVERIFY(!readProc(pid, "cmdline").contains(secret.toLatin1()));
            const QStringList sockets = listentest::localAddresses(pid, false);
            QVERIFY2(!sockets.isEmpty(), "no TCP socket found: the check would prove nothing");
            for (const QString& a : sockets)
                QVERIFY2(listentest::isLoopback(a),
                         qPrintable("socket beyond loopback: " + sockets.join(", ")));
        }
        ::kill(pid_t(cli.processId()), SIGINT);
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 130);
        const QString err = QString::fromUtf8(cli.readAllStandardError());
        QVERIFY(!err.contains(secret));
        QVERIFY(!err.contains("unauthenticated")); // one node: nothing to warn about
        QVERIFY(!fileText(metrics).contains(secret.toLatin1()));
        QVERIFY(!fileText(dir.filePath("summary.json")).contains(secret.toLatin1()));
    }

    // Two launchers on this machine as nodes 0 and 1: node 0 prints the secret, node 1 joins with it (from a
    // file).
    void twoLaunchersJoinWithTheSecret() {
        QTemporaryDir dir;
        const int port = launchtest::freePort();
        const QString store = QStringLiteral("tcp://127.0.0.1:%1").arg(port);
        auto node = [&](int rank, const QStringList& extra) {
            auto* p = new QProcess(this);
            p->start(
                launchtest::envPath("DDPDESK_CLI"),
                quickRun(dir.filePath(QStringLiteral("node%1").arg(rank))) +
                    QStringList{"--nnodes", "2", "--node-rank", QString::number(rank), "--store", store} +
                    extra);
            return p;
        };
        QProcess* node0 = node(0, {});
        QString err0;
        const QString file = waitForStderr(node0, kSecretFileFlag, 30000, &err0);
        QVERIFY2(!file.isEmpty(), qPrintable(err0));
        QVERIFY2(err0.contains("unauthenticated") && err0.contains(QStringLiteral("127.0.0.1:%1").arg(port)),
                 qPrintable(err0));
        QVERIFY2(err0.contains("--node-rank N") && err0.contains("--nnodes 2") && err0.contains(store),
                 qPrintable(err0));
        // The file is node 0's own, in its --out folder, readable only by its owner; the secret is nowhere
        // on screen.
        QCOMPARE(file, dir.filePath("node0/run-secret"));
        QCOMPARE(QFile(file).permissions() & ~(QFile::ReadUser | QFile::WriteUser),
                 QFile::ReadOwner | QFile::WriteOwner);
        const QString secret = QString::fromLatin1(fileText(file)).trimmed();
        QVERIFY2(kAnySecret.match(secret).hasMatch(), qPrintable(secret));
        QVERIFY2(!err0.contains(secret), qPrintable(err0));
        QProcess* node1 = node(1, {"--run-secret-file", file});
        QVERIFY(node0->waitForFinished(120000));
        QVERIFY(node1->waitForFinished(120000));
        err0 += QString::fromUtf8(node0->readAllStandardError());
        const QString err1 = QString::fromUtf8(node1->readAllStandardError());
        QVERIFY2(node0->exitCode() == 0, qPrintable(err0));
        QVERIFY2(node1->exitCode() == 0, qPrintable(err1));
        QVERIFY2(err1.contains("unauthenticated"), qPrintable(err1)); // every node warns
        QVERIFY(!err0.contains(secret) && !err1.contains(secret));    // no node shows the secret
        QVERIFY(!QFileInfo::exists(file));                            // gone with node 0's run
        for (int n : {0, 1}) {
            const QString out = dir.filePath(QStringLiteral("node%1").arg(n));
            QCOMPARE(launchtest::readJsonFile(out + "/summary.json")["status"].toString(),
                     QStringLiteral("ok"));
            QVERIFY(!fileText(out + "/metrics.jsonl").contains(secret.toLatin1()));
        }
    }

    // What the GUI's run log shows: the Supervisor's message signal (the CLI prints the same signal on
    // stderr).
    void supervisorAnnouncesMultiNodeOnce() {
        QTemporaryDir dir;
        qputenv("DDPDESK_WORKER", launchtest::envPath("DDPDESK_WORKER_BIN").toLocal8Bit());
        launch::RunConfig c;
        c.nnodes = 2;
        c.store = QStringLiteral("tcp://127.0.0.1:%1").arg(launchtest::freePort());
        c.training.steps = 2;
        c.timeoutSec = 30;
        c.outDir = dir.path();
        launch::Supervisor s;
        QStringList messages;
        connect(&s, &launch::Supervisor::message, this, [&](const QString& m) { messages << m; });
        QSignalSpy finished(&s, &launch::Supervisor::finished);
        QVector<launch::ConfigProblem> problems;
        QVERIFY2(s.start(c, &problems), qPrintable(launch::RunConfig::problemsText(problems)));
        s.stop(QStringLiteral("test over"));
        QVERIFY(finished.wait(30000));
        QCOMPARE(messages.filter("unauthenticated").size(), 1);
        QVERIFY2(messages.filter(kSecretFileFlag).size() == 1, qPrintable(messages.join('\n')));
        QVERIFY2(messages.filter(kAnySecret).isEmpty(), qPrintable(messages.join('\n')));

        // Issue 41: a loopback store is not "reachable from the network".
        QVERIFY2(messages.filter("reachable from the network").isEmpty(), qPrintable(messages.join('\n')));
        QVERIFY2(messages.filter("loopback").size() == 1, qPrintable(messages.join('\n')));

        launch::Supervisor s1;
        c.nodeRank = 1;
        QVERIFY(!s1.start(c, &problems));
        QCOMPARE(problems.size(), 1);
        QCOMPARE(problems[0].field, QStringLiteral("run-secret"));
    }

    void nodeAboveZeroNeedsTheSecret() {
        QTemporaryDir dir;
        const QStringList node1 =
            quickRun(dir.filePath("n1")) +
            QStringList{"--nnodes", "2", "--node-rank", "1", "--store", "tcp://127.0.0.1:29999"};
        launchtest::CliResult r = launchtest::runCli(node1, 30000);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--run-secret HEX") && r.err.contains("--run-secret-file FILE"),
                 qPrintable(r.err));

        r = launchtest::runCli(node1 + QStringList{"--run-secret", "1234"}, 30000);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--run-secret") && r.err.contains("64 hexadecimal"), qPrintable(r.err));

        // A well-formed secret on the command line works but is visible in ps: said so (the run is refused
        // here for an unrelated setting, so nothing connects).
        r = launchtest::runCli(node1 + QStringList{"--run-secret",
                                                   QString::fromStdString(protocol::newRunSecretHex()),
                                                   "--global-batch", "3"},
                               30000);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("warning: --run-secret puts the secret on this command line") &&
                     r.err.contains("--run-secret-file FILE"),
                 qPrintable(r.err));

#ifndef Q_OS_WIN
        const QString file = dir.filePath("shared-secret");
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(protocol::newRunSecretHex()));
        f.close();
        QVERIFY(f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup));
        r = launchtest::runCli(node1 + QStringList{"--run-secret-file", file}, 30000);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--run-secret-file") && r.err.contains(file) && r.err.contains("chmod 600"),
                 qPrintable(r.err));
#endif
        QVERIFY(!QFile::exists(dir.filePath("n1/metrics.jsonl"))); // refused before anything started
    }

    // How far the store reaches decides the wording (issue 41: a two-node run on tcp://127.0.0.1 was told its
    // store is "reachable from the network"). Node 1 announces without writing a secret file.
    void announcementSaysHowFarTheStoreReaches() {
        QTemporaryDir dir;
        const QVector<QPair<QString, bool>> stores = {{QStringLiteral("tcp://127.0.0.1:29500"), true},
                                                      {QStringLiteral("tcp://localhost:29500"), true},
                                                      {QStringLiteral("tcp://[::1]:29500"), true},
                                                      {QStringLiteral("tcp://10.1.2.3:29500"), false},
                                                      {QStringLiteral("tcp://node0.cluster:29500"), false}};
        for (const auto& [store, loopback] : stores) {
            launch::RunConfig c;
            c.nnodes = 2;
            c.nodeRank = 1;
            c.store = store;
            launch::RunSecret secret;
            QStringList messages;
            secret.announce(c, dir.path(), QStringLiteral("00"), [&](const QString& m) { messages << m; });
            const QString all = messages.join('\n');
            QVERIFY2(messages.size() == 1 && all.contains("unauthenticated"), qPrintable(store + ": " + all));
            QVERIFY2(all.contains("reachable from the network") == !loopback, qPrintable(store + ": " + all));
            QVERIFY2(all.contains("loopback") == loopback, qPrintable(store + ": " + all));
        }
    }
};

QTEST_GUILESS_MAIN(RunSecretTest)
#include "test_run_secret.moc"
