// RunConfig validation (every refusal names its flag), the per-rank worker flags and torchrun environment,
// JSON profiles, the script loss parser, the cluster command formats and the RunModel fed with recorded
// events.
#include "launch/config/command_format.h"
#include "launch/config/launcher_flags.h"
#include "launch/config/run_config.h"
#include "launch/model/run_model.h"
#include "launch/run/script_output.h"
#include "os/platform.h"
#include "protocol/telemetry.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <type_traits>

using namespace ddpdesk::launch;

namespace {

QStringList fields(const QVector<ConfigProblem>& problems) {
    QStringList f;
    for (const ConfigProblem& p : problems)
        f << p.field;
    return f;
}

// Each launcher flag's value as text, by flag: what a configuration says through the table.
QMap<QString, QString> launcherValues(const RunConfig& c) {
    QMap<QString, QString> values;
    visitLauncherFlags(c, [&values](const LauncherFlag& f, const auto& field) {
        using T = std::decay_t<decltype(field)>;
        if constexpr (std::is_same_v<T, bool>)
            values[f.flag] = field ? "true" : "false";
        else if constexpr (std::is_same_v<T, int>)
            values[f.flag] = QString::number(field);
        else
            values[f.flag] = field;
    });
    return values;
}

QString messageFor(const QVector<ConfigProblem>& problems, const QString& field) {
    for (const ConfigProblem& p : problems)
        if (p.field == field) return p.message;
    return QString();
}

} // namespace

class RunConfigTest : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    RunConfig valid() {
        RunConfig c;
        c.nproc = 2;
        c.training.steps = 10;
        c.outDir = m_dir.filePath("out");
        return c;
    }

private slots:
    void validConfigHasNoProblems() {
        const auto problems = valid().validate();
        QVERIFY2(problems.isEmpty(), qPrintable(RunConfig::problemsText(problems)));
        QVERIFY(!QFileInfo::exists(m_dir.filePath("out"))); // checking makes nothing: the run makes it
    }

    void badFlagsAreNamed_data() {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("expectedText");
        QTest::newRow("nproc 0") << "nproc"
                                 << "use 1..";
        QTest::newRow("port 0") << "store"
                                << "1..65535";
        QTest::newRow("port 70000") << "store"
                                    << "1..65535";
        QTest::newRow("unknown workload") << "workload"
                                          << "valid: autoencoder, fashion-mnist, torchscript";
        QTest::newRow("node rank >= nnodes") << "node-rank"
                                             << "valid node ranks are 0..1";
        QTest::newRow("unwritable out") << "out"
                                        << "cannot create folder";
        QTest::newRow("epochs and steps") << "steps"
                                          << "not both";
        QTest::newRow("bad store scheme") << "store"
                                          << "file:PATH or tcp://HOST:PORT";
        QTest::newRow("multi-node without store") << "store"
                                                  << "every node must reach the same store";
        QTest::newRow("gpu count mismatch") << "nproc"
                                            << "one worker per GPU";
        QTest::newRow("torchscript without model") << "model"
                                                   << "needs --model";
        QTest::newRow("unknown grad transport") << "grad-transport"
                                                << "use auto, shm or gloo";
    }

    void badFlagsAreNamed() {
        QFETCH(QString, field);
        QFETCH(QString, expectedText);
        RunConfig c = valid();
        const QString tag = QString::fromLatin1(QTest::currentDataTag());
        if (tag == "nproc 0") c.nproc = 0;
        if (tag == "port 0") c.store = "tcp://127.0.0.1:0";
        if (tag == "port 70000") c.store = "tcp://127.0.0.1:70000";
        if (tag == "unknown workload") c.workload = "resnet";
        if (tag == "node rank >= nnodes") {
            c.nnodes = 2;
            c.nodeRank = 2;
            c.store = "tcp://10.0.0.1:29500";
        }
        if (tag == "unwritable out") {
            QFile file(m_dir.filePath("a-file"));
            QVERIFY(file.open(QIODevice::WriteOnly));
            c.outDir =
                m_dir.filePath("a-file/sub"); // below a regular file: no one, not even root, can create it
        }
        if (tag == "epochs and steps") c.training.epochs = 2;
        if (tag == "bad store scheme") c.store = "redis://x:1";
        if (tag == "multi-node without store") {
            c.nnodes = 2;
        }
        if (tag == "gpu count mismatch") {
            c.devices = "0,1,2";
        }
        if (tag == "torchscript without model") c.workload = "torchscript";
        if (tag == "unknown grad transport") c.training.gradTransport = "nccl";
        const auto problems = c.validate();
        QVERIFY2(fields(problems).contains(field), qPrintable(RunConfig::problemsText(problems)));
        QVERIFY2(messageFor(problems, field).contains(expectedText), qPrintable(messageFor(problems, field)));
        QVERIFY(RunConfig::problemsText(problems).contains("--" + field + ": "));
    }

    void staleFileStoreIsRefusedOnOneNode() {
        RunConfig c = valid();
        const QString path = m_dir.filePath("stale-store");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        c.store = "file:" + path;
        QVERIFY(messageFor(c.validate(), "store").contains("already exists"));
        c.store = "file://" + path; // the URL spelling names the same file (the worker reads it the same way)
        QCOMPARE(c.storeFilePath(), path);
        QVERIFY(messageFor(c.validate(), "store").contains("already exists"));
        c.nnodes = 2; // on a shared folder another node may have created it already
        c.store = "file:" + path;
        QVERIFY(messageFor(c.validate(), "store").isEmpty());
    }

    void workerArgsAndEnvironment() {
        RunConfig c = valid();
        c.nnodes = 2;
        c.nodeRank = 1;
        c.store = "tcp://10.77.0.1:29511";
        c.training.threads = 3;
        c.iface = "veth1";
        const QStringList a = c.workerArgs(1);
        auto value = [&a](const char* flag) { return a.value(a.indexOf(flag) + 1); };
        QCOMPARE(value("--rank"), QStringLiteral("3"));
        QCOMPARE(value("--world-size"), QStringLiteral("4"));
        QCOMPARE(value("--local-rank"), QStringLiteral("1"));
        QCOMPARE(value("--local-world-size"), QStringLiteral("2"));
        QCOMPARE(value("--store"), QStringLiteral("tcp://10.77.0.1:29511"));
        QCOMPARE(value("--steps"), QStringLiteral("10"));
        QCOMPARE(value("--threads"), QStringLiteral("3"));
        QCOMPARE(value("--iface"), QStringLiteral("veth1"));
        QVERIFY(!a.contains("--grad-transport")); // auto is the worker's default
        c.training.gradTransport = "gloo";
        QCOMPARE(c.workerArgs(0).value(c.workerArgs(0).indexOf("--grad-transport") + 1),
                 QStringLiteral("gloo"));
        QVERIFY(!a.contains("--external-store")); // rank 0 lives on node 0 and hosts the store itself
        const auto env = c.rankEnvironment(1);
        QCOMPARE(env["RANK"], QStringLiteral("3"));
        QCOMPARE(env["LOCAL_RANK"], QStringLiteral("1"));
        QCOMPARE(env["WORLD_SIZE"], QStringLiteral("4"));
        QCOMPARE(env["LOCAL_WORLD_SIZE"], QStringLiteral("2"));
        QCOMPARE(env["MASTER_ADDR"], QStringLiteral("10.77.0.1"));
        QCOMPARE(env["MASTER_PORT"], QStringLiteral("29511"));
        QCOMPARE(env["GLOO_SOCKET_IFNAME"], QStringLiteral("veth1"));
        QCOMPARE(env["OMP_NUM_THREADS"], QStringLiteral("3"));

        RunConfig g = valid();
        g.devices = "2,5";
        QCOMPARE(g.rankEnvironment(1)["CUDA_VISIBLE_DEVICES"], QStringLiteral("5"));
        QVERIFY(g.workerArgs(0).join(' ').contains("--device cuda"));
        QVERIFY(valid().effectiveStore().startsWith("file:" + m_dir.filePath("out")));
        QCOMPARE(valid().rankEnvironment(0, 40123)["MASTER_PORT"], QStringLiteral("40123"));
    }

    void profileRoundTrip() {
        RunConfig c = valid();
        c.workload = "fashion-mnist";
        c.scriptArgs = QStringList{"--x", "1"};
        c.training.lr = 0.05;
        c.training.seed = 7;
        c.training.noOverlap = true;
        c.training.gradTransport = "shm";
        const QString path = m_dir.filePath("profile.json");
        QString error;
        QVERIFY2(c.saveProfile(path, &error), qPrintable(error));
        RunConfig back;
        QVERIFY2(RunConfig::loadProfile(path, &back, &error), qPrintable(error));
        QCOMPARE(back.toJson(), c.toJson());
        QVERIFY(!RunConfig::loadProfile(m_dir.filePath("missing.json"), &back, &error));
        QVERIFY(error.contains("missing.json"));
    }

    // The launcher's table (launch/config/launcher_flags.h): one row per flag and per profile key, each key
    // the flag's name (a switch that turns something off keeps the positive sense: --no-tensorboard ->
    // "tensorboard"), and every row's help says something.
    void launcherFlagTableIsWellFormed() {
        QSet<QString> flags, keys;
        visitLauncherFlags(valid(), [&](const LauncherFlag& f, const auto&) {
            const QString flag = QLatin1String(f.flag), key = QLatin1String(f.key);
            QVERIFY2(flag.startsWith("--") && !flags.contains(flag), f.flag);
            QVERIFY2(!keys.contains(key), f.key);
            flags << flag;
            keys << key;
            QString name = flag.mid(2);
            if (f.rule == LauncherRule::OffSwitch) {
                QVERIFY2(name.startsWith("no-"), f.flag);
                name = name.mid(3);
            }
            QCOMPARE(key, name.replace('-', '_'));
            QVERIFY2(QString::fromUtf8(f.help).size() > 10, f.flag);
        });
        // No launcher flag is also a training setting: each flag has one owner.
        ddpdesk::protocol::WorkerSettings settings;
        ddpdesk::protocol::visitSettings(settings,
                                         [&flags](const ddpdesk::protocol::SettingInfo& info, const auto&) {
                                             QVERIFY2(!flags.contains(QLatin1String(info.flag)), info.flag);
                                         });
    }

    // Every row of the launcher's table reaches a profile and comes back, each field set to another value
    // than its default.
    void everyLauncherFlagRoundTripsThroughAProfile() {
        RunConfig c = valid();
        const QMap<QString, QString> defaults = launcherValues(c);
        visitLauncherFlags(c, [](const LauncherFlag& f, auto& field) {
            using T = std::decay_t<decltype(field)>;
            if constexpr (std::is_same_v<T, bool>)
                field = !field;
            else if constexpr (std::is_same_v<T, int>)
                field += 3;
            else
                field = QStringLiteral("value of ") + QLatin1String(f.flag);
        });
        const QMap<QString, QString> changed = launcherValues(c);
        for (auto it = changed.begin(); it != changed.end(); ++it)
            QVERIFY2(it.value() != defaults.value(it.key()), qPrintable(it.key()));
        const QString path = m_dir.filePath("every-flag.json");
        QString error;
        QVERIFY2(c.saveProfile(path, &error), qPrintable(error));
        RunConfig back;
        QVERIFY2(RunConfig::loadProfile(path, &back, &error), qPrintable(error));
        QCOMPARE(launcherValues(back), changed);
    }

    // The command node 0 prints for the other nodes carries what every node must share, with this node's
    // values: the run's shape always, the rest when it is not the default, the training settings; never what
    // is this machine's own (folders, interface, devices).
    void otherNodesJoinWithWhatEveryNodeShares() {
        RunConfig c = valid();
        c.nnodes = 2;
        c.store = "tcp://10.0.0.5:29500";
        c.maxRestarts = 2;
        c.timeoutSec = 90;
        c.nodeLink = false;
        c.dataDir = "/data/here";
        c.iface = "eth1";
        c.tensorboard = false;
        c.training.lr = 0.05;
        const QStringList args = everyNodeArguments(c);
        const QString line = args.join(' ');
        for (const QString& part :
             {QString("--workload autoencoder"), QString("--nproc 2"), QString("--nnodes 2"),
              QString("--store tcp://10.0.0.5:29500"), QString("--max-restarts 2"), QString("--timeout 90"),
              QString("--no-node-link"), QString("--lr 0.05"), QString("--steps 10")})
            QVERIFY2(line.contains(part), qPrintable(part + " is not in: " + line));
        for (const char* mine : {"--data", "--iface", "--devices", "--node-rank", "--out", "--no-tensorboard",
                                 "--stall-timeout", "--model", "--script"})
            QVERIFY2(!args.contains(QLatin1String(mine)), qPrintable(mine + (" is in: " + line)));
        // The rest of what every node shares, once it is not the default; a script run's own rows too.
        c.stallTimeoutSec = 300;
        c.stragglerAfterSec = 0;
        c.workload = "torchscript";
        c.modelFile = "/models/net.pt";
        const QString more = everyNodeArguments(c).join(' ');
        for (const char* part : {"--stall-timeout 300", "--straggler-after 0", "--workload torchscript",
                                 "--model /models/net.pt"})
            QVERIFY2(more.contains(QLatin1String(part)), qPrintable(part + (" is not in: " + more)));
        RunConfig script = valid();
        script.scriptFile = "/work/train.py";
        script.lossRegex = "loss=([0-9.]+)";
        script.useLocalRankArg = true;
        script.instrument = false;
        script.python = "/opt/py/bin/python";
        script.workDir = "/work";
        const QStringList scriptArgs = everyNodeArguments(script);
        const QString scriptLine = scriptArgs.join(' ');
        for (const char* part : {"--script /work/train.py", "--loss-regex loss=([0-9.]+)",
                                 "--use-local-rank-arg", "--no-instrument"})
            QVERIFY2(scriptLine.contains(QLatin1String(part)),
                     qPrintable(part + (" is not in: " + scriptLine)));
        QVERIFY2(!scriptArgs.contains("--python") && !scriptArgs.contains("--workdir"),
                 qPrintable(scriptLine));
        // A FileStore this node made up inside its --out is the one the others must reach.
        RunConfig d = valid();
        d.nnodes = 2;
        const QStringList dArgs = everyNodeArguments(d);
        QCOMPARE(dArgs.value(dArgs.indexOf("--store") + 1), d.effectiveStore());
        QVERIFY(!d.effectiveStore().isEmpty());
    }

    // The line node 0 prints for the other nodes: each argument quoted for this system's shell (the quoting
    // launch.command_quoting runs through real shells), so a store on a share whose name has a space stays
    // one argument when pasted.
    void theJoinLineQuotesAPathWithASpace() {
        RunConfig c = valid();
        c.nnodes = 2;
        c.store = "file:/mnt/shared folder/store";
        const QString secret = "/home/me/run one/run-secret";
        const QString line = joinCommandLine(c, secret);
        const bool cmd = ddpdesk::os::printedCommandsAreForCmd();
        QVERIFY2(line.startsWith("ddpdesk-cli run --workload autoencoder "), qPrintable(line));
        QVERIFY2(line.contains("--store " + (cmd ? cmdQuote(c.store) : shellQuote(c.store))),
                 qPrintable(line));
        QVERIFY2(line.contains(cmd ? "\"file:/mnt/shared folder/store\"" : "'file:/mnt/shared folder/store'"),
                 qPrintable(line));
        QVERIFY2(line.endsWith("--node-rank N --run-secret-file " +
                               (cmd ? cmdQuote(secret) : shellQuote(secret)) + " --out DIR"),
                 qPrintable(line));
    }

    void scriptLossParsing_data() {
        QTest::addColumn<QString>("line");
        QTest::addColumn<double>("loss");
        QTest::newRow("colon") << "step 5 loss: 0.123" << 0.123;
        QTest::newRow("equals") << "it=3 loss=1.5e-2 lr=0.1" << 0.015;
        QTest::newRow("seed script") << "Epoch 3 : 0.45" << 0.45;
        QTest::newRow("capital") << "Loss: 2" << 2.0;
    }

    // Issue 41: `run --script train.py --grad-compression fp16 --accumulate 2` exited 0 and changed nothing.
    void workerFlagsAreRefusedForAScript() {
        RunConfig c = valid();
        const QString script = m_dir.filePath("train.py");
        QFile f(script);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("print('hi')\n");
        f.close();
        c.scriptFile = script;
        c.python = QStringLiteral("python3");
        c.training.threads = 2; // OMP_NUM_THREADS and the length reach a script: no problem
        QVERIFY2(c.validate().isEmpty(), qPrintable(RunConfig::problemsText(c.validate())));
        c.training.gradCompression = "fp16";
        c.training.accumulate = 2;
        const auto problems = c.validate();
        QCOMPARE(problems.size(), 2);
        for (const char* field : {"grad-compression", "accumulate"})
            QVERIFY2(messageFor(problems, field).contains(QLatin1String("does nothing for a --script run")),
                     qPrintable(RunConfig::problemsText(problems)));
        c.scriptFile.clear(); // the same flags for the worker are fine
        QVERIFY2(c.validate().isEmpty(), qPrintable(RunConfig::problemsText(c.validate())));
    }

    void scriptLossParsing() {
        QFETCH(QString, line);
        QFETCH(double, loss);
        ScriptOutputParser parser(RunConfig::defaultLossRegex());
        const auto e = parser.parse(1, line);
        QVERIFY(e.has_value());
        QCOMPARE((*e)["loss"].get<double>(), loss);
        QCOMPARE((*e)["rank"].get<int>(), 1);
        QCOMPARE((*e)["step"].get<int>(), 1);
        QVERIFY(!parser.parse(1, "no number here: lossless").has_value());
    }

    void commandFormats() {
        RunConfig c = valid();
        c.nnodes = 2;
        c.store = "tcp://node0:29600";
        c.training.threads = 2;
        const QString t = formatCommand(c, CommandFormat::Torchrun);
        QVERIFY2(t.startsWith("torchrun --nnodes=2 --nproc_per_node=2 --node_rank=0 --master_addr=node0 "
                              "--master_port=29600 --no_python ddpdesk-worker --workload autoencoder"),
                 qPrintable(t));
        QVERIFY(t.contains("--external-store") && !t.contains("--rank "));
        const QString m = formatCommand(c, CommandFormat::Mpirun);
        QVERIFY2(m.startsWith("mpirun -np 4 -npernode 2") && m.contains("-x MASTER_ADDR=node0") &&
                     m.contains("-x MASTER_PORT=29600") && m.contains("--store tcp://node0:29600"),
                 qPrintable(m));
        const QString s = formatCommand(c, CommandFormat::Slurm);
        QVERIFY2(s.startsWith("#!/bin/bash\n") && s.contains("#SBATCH --nodes=2") &&
                     s.contains("#SBATCH --ntasks-per-node=2") && s.contains("\nsrun ddpdesk-worker "),
                 qPrintable(s));
        const QString h = formatCommand(c, CommandFormat::HpcPack);
        QVERIFY2(h.startsWith("job submit /numnodes:2 ") && h.contains("--rdzv_endpoint=node0:29600") &&
                     h.contains("ddpdesk-worker.exe"),
                 qPrintable(h));
        QVERIFY(!parseCommandFormat("kubernetes").has_value());
        QCOMPARE(shellQuote("it's"), QStringLiteral("'it'\\''s'"));
        RunConfig py = valid();
        py.scriptFile = "/home/u/train ddp.py";
        py.scriptArgs = {"--epochs", "3"};
        QVERIFY(formatCommand(py, CommandFormat::Torchrun).contains("'/home/u/train ddp.py' --epochs 3"));
    }

    void modelFromRecordedEvents() {
        RunModel m;
        m.reset({0, 1}, 2, "autoencoder", 0);
        QSignalSpy updated(&m, &RunModel::rankUpdated);
        auto feed = [&m](int index, const char* json) { m.applyLine(index, QByteArray(json)); };
        const double t0 = ddpdesk::protocol::nowSeconds();
        for (int s = 1; s <= 5000; ++s) {
            for (int r = 0; r < 2; ++r) {
                auto e = ddpdesk::protocol::makeEvent("step", r);
                e["t"] = t0 + s * 0.01;
                e["step"] = s;
                e["total_steps"] = 5000;
                e["loss"] = 1.0 / s;
                e["samples"] = s * 32;
                e["step_ms"] = 10;
                e["comm_wait_ms"] = 2.5;
                const std::string line = ddpdesk::protocol::encodeLine(e);
                feed(r, line.c_str());
            }
        }
        QCOMPARE(m.expectedSteps(), qint64(5000));
        QCOMPARE(m.progress(), 1.0);
        QCOMPARE(m.rank(1).step, qint64(5000));
        QVERIFY(qAbs(m.rank(0).commWaitShare - 0.25) < 1e-9);
        QVERIFY(qAbs(m.rank(0).samplesPerSec - 3200.0) < 1.0); // 32 samples per 10 ms
        QVERIFY(m.lossSeries(0).size() <= RunModel::kMaxSeriesPoints);
        QVERIFY(m.lossSeries(0).size() > RunModel::kMaxSeriesPoints / 4);
        QCOMPARE(m.lossSeries(0).last().y(), 1.0 / 5000);
        QVERIFY(updated.count() >= 10000);
        feed(0, "not json at all");
        feed(1,
             "{\"v\":1,\"event\":\"error\",\"rank\":1,\"t\":1,\"code\":\"PEER_LOST\",\"message\":\"gone\"}");
        QCOMPARE(m.rank(1).errorCode, QStringLiteral("PEER_LOST"));
        m.finish("ok", -1, QString());
        const QJsonObject j = m.summary().toJson(m.ranks());
        QCOMPARE(j["status"].toString(), QStringLiteral("ok"));
        QVERIFY(j["failed_rank"].isNull());
        QVERIFY(j["test_accuracy"].isNull());
        QCOMPARE(j["world_size"].toInt(), 2);
        QVERIFY(qAbs(j["samples_per_s"].toDouble() - 6400.0) < 2.0);
    }

    // A run too short to leave its first step out is measured from that step on and says so; one that cannot
    // be measured says why, never 0 (summary.json, the CLI's report and progress line read these).
    void shortRunRate_data() {
        QTest::addColumn<int>("steps");
        QTest::addColumn<bool>("samples");
        QTest::addColumn<double>("rate");
        QTest::addColumn<QString>("basis");
        QTest::addColumn<QString>("why");
        QTest::newRow("none") << 0 << true << 0.0 << QString() << "no training step was reported";
        QTest::newRow("one step") << 1 << true << 0.0 << QString()
                                  << "each rank reported one step; a rate needs two";
        QTest::newRow("two steps") << 2 << true << 6400.0 << "from_first_step" << QString();
        QTest::newRow("three steps") << 3 << true << 6400.0 << "after_warmup" << QString();
        QTest::newRow("no counts") << 5 << false << 0.0 << QString()
                                   << "the ranks did not report how many samples they trained on";
    }
    void shortRunRate() {
        QFETCH(int, steps);
        QFETCH(bool, samples);
        QFETCH(double, rate);
        QFETCH(QString, basis);
        QFETCH(QString, why);
        RunModel m;
        m.reset({0, 1}, 2, "script", 0);
        const double t0 = 1.7e9;
        for (int s = 1; s <= steps; ++s)
            for (int r = 0; r < 2; ++r) {
                nlohmann::json e = {
                    {"v", 1}, {"event", "step"}, {"rank", r}, {"t", t0 + s * 0.01}, {"step", s}};
                if (samples) e["samples"] = s * 32; // 32 samples per 10 ms per rank
                m.applyLine(r, QByteArray::fromStdString(ddpdesk::protocol::encodeLine(e)));
            }
        m.finish("ok", -1, QString());
        const QJsonObject j = m.summary().toJson(m.ranks());
        if (rate > 0)
            QVERIFY2(qAbs(j["samples_per_s"].toDouble() - rate) < 2.0,
                     qPrintable(QString::number(j["samples_per_s"].toDouble())));
        else
            QVERIFY(j["samples_per_s"].isNull());
        QCOMPARE(j["samples_per_s_basis"].toString(), basis);
        QCOMPARE(j["samples_per_s_why"].toString(), why);
        QCOMPARE(j["samples_per_s_basis"].isNull(), basis.isEmpty());
        // A rank whose own rate is unknown shows null, not 0.
        QCOMPARE(j["ranks"].toArray()[0].toObject()["samples_per_s"].isNull(), basis != "after_warmup");
        const RunSummary back = RunSummary::fromJson(j);
        QCOMPARE(back.samplesPerSBasis, basis);
        QCOMPARE(back.samplesPerSWhy, why);
    }
};

QTEST_GUILESS_MAIN(RunConfigTest)
#include "test_run_config.moc"
