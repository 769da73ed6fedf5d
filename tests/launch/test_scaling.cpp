// Why a run does not scale (core/launch/diagnose/scaling.h): the rules on made-up facts, then real ranks
// producing the causes this machine can produce: ddpdesk-worker ranks given more threads than there are cores
// (CPU_OVERSUBSCRIBED), and a tiny-batch model exchanging its gradients over Gloo's loopback TCP
// (COMM_BOUND), which a large batch of the same model is not; a ddpdesk-worker rank sharing its core with
// CPU hogs (STRAGGLER, compute). A script rank loading data slowly (STRAGGLER, data loading, not COMM_BOUND)
// is launch.script_sweep's aSlowRankIsNamedAStraggler.
#include "launch/config/run_config.h"
#include "launch/diagnose/scaling.h"
#include "launch/model/run_model.h"
#include "launch/run/scaling_facts.h"
#include "launch_test_util.h"
#include "protocol/telemetry.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>
#include <algorithm>
#include <memory>

using ddpdesk::launch::ScalingFacts;
using ddpdesk::launch::ScalingRank;

namespace {

ScalingRank rank(int r, double commShare, double stepMs = 20, double dataMs = -1, double vsFastest = 1) {
    ScalingRank s;
    s.rank = r;
    s.commWaitShare = commShare;
    s.stepMs = stepMs;
    s.dataMs = dataMs;
    s.vsFastest = vsFastest;
    s.slow = vsFastest >= 1.3;
    s.bytesPerStep = 800000;
    return s;
}

ScalingFacts healthy() {
    ScalingFacts f;
    f.worldSize = 2;
    f.localRanks = 2;
    f.threadsPerRank = 1;
    f.cores = 2;
    f.devices = {QStringLiteral("cpu"), QStringLiteral("cpu")};
    f.ranks = {rank(0, 0.05), rank(1, 0.08)};
    return f;
}

ddpdesk::os::NetInterface iface(const char* name, ddpdesk::os::InterfaceKind kind, const char* address,
                                std::int64_t mbps, const char* why = "", bool up = true) {
    ddpdesk::os::NetInterface i;
    i.name = name;
    i.kind = kind;
    i.kindWhy = why;
    i.addresses = {address};
    i.speedMbps = mbps;
    i.up = up;
    return i;
}

// Two nodes of two ranks, every rank here waiting half its step, Gloo told to use `used`.
ScalingFacts multiNode(const char* used, std::vector<ddpdesk::os::NetInterface> interfaces) {
    ScalingFacts f = healthy();
    f.worldSize = 4;
    f.ranks = {rank(0, 0.50), rank(1, 0.55)};
    f.glooInterface = used;
    f.glooInterfaceFrom = QStringLiteral("--iface");
    f.interfaces = std::move(interfaces);
    return f;
}

QStringList codes(const ScalingFacts& f) {
    QStringList out;
    for (const auto& c : ddpdesk::launch::diagnoseScaling(f))
        out << c.code;
    return out;
}

qint64 rankPid(const QVector<QJsonObject>& events, int rank) {
    for (const QJsonObject& e : events)
        if (e["event"].toString() == QLatin1String("rank_start") && e["rank"].toInt() == rank)
            return qint64(e["pid"].toDouble());
    return 0;
}

bool pin(qint64 pid, int core) { // every thread the process has, and so those it starts later
    return QProcess::execute("taskset", {"-a", "-p", "-c", QString::number(core), QString::number(pid)}) == 0;
}

QStringList summaryCodes(const QString& out) {
    QStringList found;
    for (const QJsonValue& v : launchtest::readJsonFile(out + "/summary.json")["scaling"].toArray())
        found << v.toObject()["code"].toString();
    return found;
}

} // namespace

class ScalingTest : public QObject {
    Q_OBJECT

private slots:
    void aHealthyRunHasNoCause() { QVERIFY(codes(healthy()).isEmpty()); }

    void everyRankWaitingIsCommBound() {
        ScalingFacts f = healthy();
        f.ranks = {rank(0, 0.45), rank(1, 0.50)};
        QCOMPARE(codes(f), QStringList{"COMM_BOUND"});
        const auto causes = ddpdesk::launch::diagnoseScaling(f);
        QVERIFY2(causes[0].text.contains("45 %"), qPrintable(causes[0].text));
        QVERIFY(causes[0].text.contains("0.80 MB"));
        QVERIFY(!causes[0].fix.isEmpty());
    }

    void oneRankTheOthersWaitForIsAStragglerNotTheLink() {
        ScalingFacts f = healthy();
        f.ranks = {rank(0, 0.70), rank(1, 0.02, 20, -1, 3.5)};
        QCOMPARE(codes(f), QStringList{"STRAGGLER"});
        // The fix names what is slow from the facts, never a live warning the run may not have had.
        auto fix = [&] { return ddpdesk::launch::diagnoseScaling(f).front(); };
        QVERIFY2(fix().fix.contains("rank 1's compute or data loading (its time outside forward and backward "
                                    "was not reported)") &&
                     !fix().fix.contains("warning"),
                 qPrintable(fix().fix));
        f.ranks = {rank(0, 0.70, 20, 2), rank(1, 0.02, 20, 15, 3.5)};
        QVERIFY2(fix().fix.contains("rank 1's data loading (15.0 ms a step outside forward and backward, "
                                    "against 2.0 ms on rank 0)"),
                 qPrintable(fix().fix));
        QCOMPARE(fix().evidence["slow_part"].toString(), QStringLiteral("data_loading"));
        f.ranks = {rank(0, 0.70, 20, 2), rank(1, 0.02, 20, 3, 3.5)};
        QVERIFY2(fix().fix.contains("rank 1's compute (forward and backward"), qPrintable(fix().fix));
        QCOMPARE(fix().evidence["slow_part"].toString(), QStringLiteral("compute"));
        f.ranks[1].slow = false; // 1.6x of 2 ms: the meter calls it jitter, and so does this
        QVERIFY(codes(f).isEmpty());
    }

    void stepsOutsideForwardAndBackwardAreDataBound() {
        ScalingFacts f = healthy();
        f.ranks = {rank(0, 0.05, 20, 9), rank(1, 0.05, 20, 2)};
        const auto causes = ddpdesk::launch::diagnoseScaling(f);
        QCOMPARE(causes.size(), 1);
        QCOMPARE(causes[0].code, QStringLiteral("DATA_BOUND"));
        QCOMPARE(causes[0].evidence["rank"].toInt(), 0);
    }

    void moreThreadsThanCoresIsOversubscribed() {
        ScalingFacts f = healthy();
        f.threadsPerRank = 2;
        const auto causes = ddpdesk::launch::diagnoseScaling(f);
        QCOMPARE(causes.size(), 1);
        QCOMPARE(causes[0].code, QStringLiteral("CPU_OVERSUBSCRIBED"));
        QVERIFY2(causes[0].fix.contains("at most 1 thread"), qPrintable(causes[0].fix));
        f.cores = 0; // unknown: nothing is claimed
        QVERIFY(codes(f).isEmpty());
    }

    void twoRanksOnOneGpuShareIt() {
        ScalingFacts f = healthy();
        f.devices = {QStringLiteral("0"), QStringLiteral("0")};
        QCOMPARE(codes(f), QStringList{"GPU_SHARED"});
        f.devices = {QStringLiteral("0"), QStringLiteral("1")};
        QVERIFY(codes(f).isEmpty());
    }

    void aVirtualAdapterWhileAWiredOneIsUpIsTheWrongInterface() {
        using K = ddpdesk::os::InterfaceKind;
        ScalingFacts f =
            multiNode("docker0", {iface("lo", K::Loopback, "127.0.0.1", -1),
                                  iface("docker0", K::Virtual, "172.17.0.1", -1, "a Docker bridge"),
                                  iface("eth0", K::Wired, "192.168.1.5", 1000)});
        QCOMPARE(codes(f), (QStringList{"WRONG_INTERFACE", "COMM_BOUND"}));
        const auto cause = ddpdesk::launch::diagnoseScaling(f)[0];
        QVERIFY2(cause.text.contains("docker0 (172.17.0.1, a Docker bridge") &&
                     cause.text.contains("eth0 (192.168.1.5, wired, 1 Gbit/s) is up"),
                 qPrintable(cause.text));
        QVERIFY2(cause.fix.contains("--iface eth0"), qPrintable(cause.fix));
        QCOMPARE(cause.evidence["better_interface"].toString(), QStringLiteral("eth0"));
        f.interfaces[2].up = false; // nothing better here: the adapter is all there is
        QCOMPARE(codes(f), QStringList{"COMM_BOUND"});
        f = multiNode("docker0", {iface("docker0", K::Virtual, "172.17.0.1", -1, "a Docker bridge"),
                                  iface("eth0", K::Wired, "192.168.1.5", 1000)});
        f.ranks = {rank(0, 0.05), rank(1, 0.08)}; // nobody waits: the adapter costs nothing measurable
        QVERIFY(codes(f).isEmpty());
        f = multiNode("docker0", {iface("docker0", K::Virtual, "172.17.0.1", -1, "a Docker bridge"),
                                  iface("eth0", K::Wired, "192.168.1.5", 1000)});
        f.worldSize = 2; // one node: Gloo's traffic never leaves this machine
        QCOMPARE(codes(f), QStringList{"COMM_BOUND"});
    }

    void aSlowerLinkWhileAFasterOneIsUpIsTheWrongInterface() {
        using K = ddpdesk::os::InterfaceKind;
        ScalingFacts f = multiNode("eth0", {iface("eth0", K::Wired, "192.168.1.5", 1000),
                                            iface("eth1", K::Wired, "10.0.0.5", 25000)});
        QCOMPARE(codes(f), (QStringList{"WRONG_INTERFACE", "COMM_BOUND"}));
        QVERIFY(ddpdesk::launch::diagnoseScaling(f)[0].fix.contains("--iface eth1"));
        f.interfaces[1].speedMbps = 1000; // as fast: nothing to gain
        QCOMPARE(codes(f), QStringList{"COMM_BOUND"});
        f.interfaces[1].speedMbps = -1; // unknown: nothing claimed
        QCOMPARE(codes(f), QStringList{"COMM_BOUND"});
    }

    void loopbackInAMultiNodeRunIsTheWrongInterface() {
        using K = ddpdesk::os::InterfaceKind;
        ScalingFacts f = multiNode(
            "lo", {iface("lo", K::Loopback, "127.0.1.1", -1), iface("eth0", K::Wired, "192.168.1.5", 1000)});
        f.glooInterfaceFrom = QStringLiteral("the host name 'box' resolves to 127.0.1.1");
        f.ranks = {rank(0, 0.05), rank(1, 0.08)};
        const auto causes = ddpdesk::launch::diagnoseScaling(f);
        QCOMPARE(causes.size(), 1);
        QCOMPARE(causes[0].code, QStringLiteral("WRONG_INTERFACE"));
        QVERIFY2(causes[0].text.contains("resolves to 127.0.1.1") &&
                     causes[0].text.contains("reaches no other"),
                 qPrintable(causes[0].text));
    }

    // A script whose ranks never ran a DDP forward: each trains alone, and that is the one cause named (more
    // threads than cores on top of it would only distract from it).
    void ranksWithoutDdpEachTrainAlone() {
        ScalingFacts f = healthy();
        f.eachRankAlone = true;
        f.threadsPerRank = 4;
        f.ranks = {rank(0, -1), rank(1, -1)};
        QCOMPARE(codes(f), QStringList{"EACH_RANK_ALONE"});
        const auto causes = ddpdesk::launch::diagnoseScaling(f);
        QVERIFY2(causes[0].text.contains("2 ranks train 2 separate models"), qPrintable(causes[0].text));
        QVERIFY(causes[0].fix.contains("DistributedDataParallel(model)"));
        f.worldSize = 1; // one rank is alone by design
        f.localRanks = 1;
        f.threadsPerRank = 1;
        f.ranks = {rank(0, -1)};
        f.devices = {QStringLiteral("cpu")};
        QVERIFY(codes(f).isEmpty());
    }

    // The end of a run judges a straggler on its steady steps: two ranks alike for 60 steps, then rank 0's
    // last step holds an evaluation it alone runs. Before, STRAGGLER named rank 0 at 2.1x; now no cause.
    // The same run with rank 1 slow on every step still names rank 1.
    void aLastStepThatHeldOneRanksEvaluationIsNoStraggler() {
        for (const bool everyStepSlow : {false, true}) {
            ddpdesk::launch::RunModel model;
            model.reset({0, 1}, 2, "autoencoder", 0);
            const double t0 = ddpdesk::protocol::nowSeconds();
            for (int s = 1; s <= 61; ++s)
                for (int r = 0; r < 2; ++r) {
                    double own = everyStepSlow && r == 1 ? 60 : 20;
                    if (!everyStepSlow && s == 61 && r == 0) own = 400;
                    const double stepMs = everyStepSlow ? 61 : (s == 61 ? 401 : 21);
                    auto e = ddpdesk::protocol::makeEvent("step", r);
                    e["t"] = t0 + s * 0.1;
                    e["step"] = s;
                    e["loss"] = 1.0;
                    e["samples"] = s * 32;
                    e["step_ms"] = stepMs;
                    e["comm_wait_ms"] = stepMs - own;
                    model.applyLine(r, QByteArray::fromStdString(ddpdesk::protocol::encodeLine(e)));
                }
            ddpdesk::launch::RunConfig config;
            config.nproc = 2;
            const QStringList found = codes(ddpdesk::launch::scalingFacts(config, model));
            if (everyStepSlow) {
                QVERIFY2(found.contains("STRAGGLER"), qPrintable(found.join(' ')));
                const auto causes =
                    ddpdesk::launch::diagnoseScaling(ddpdesk::launch::scalingFacts(config, model));
                for (const auto& c : causes)
                    if (c.code == QLatin1String("STRAGGLER")) QCOMPARE(c.evidence["rank"].toInt(), 1);
            } else {
                QVERIFY2(model.rank(0).straggler.vsFastest >= 1.3,
                         "the case no longer makes the smoothed figure jump");
                QVERIFY2(!found.contains("STRAGGLER"), qPrintable(found.join(' ')));
            }
        }
    }

    // Validation passes (`eval` events) are neither training time nor a straggler's work. Two ranks step
    // every 0.1 s for 60 steps; after steps 20 and 40 rank 0 alone (then every rank) validates for 1.5 s, and
    // the others wait for it at their next exchange. Rank 0 alone: UNSHARED_WORK names it, no
    // STRAGGLER, and samples/s is the training rate (before: no word of the evaluation, and 211 a rank
    // instead of 320).
    void validationIsNamedAndLeftOutOfTheTrainingRate() {
        for (const bool everyRank : {false, true}) {
            ddpdesk::launch::RunModel model;
            const double t0 = 1.0e9;
            model.setReplayClock(t0);
            model.reset({0, 1}, 2, "script", 0);
            auto send = [&](int r, nlohmann::json e) {
                model.applyLine(r, QByteArray::fromStdString(ddpdesk::protocol::encodeLine(e)));
            };
            double shift = 0, total = 0;
            int passes = 0;
            for (int s = 1; s <= 60; ++s) {
                const bool after = s == 21 || s == 41; // the step whose interval held the pass
                if (after) {
                    const double begin = t0 + (s - 1) * 0.1 + shift;
                    ++passes;
                    for (int r = 0; r < (everyRank ? 2 : 1); ++r) {
                        for (const char* state : {"begin", "running", "end"}) {
                            const bool end = state == std::string("end");
                            const double ms = state == std::string("begin") ? 0 : end ? 1500 : 1000;
                            auto e = ddpdesk::protocol::makeEvent("eval", r);
                            e["t"] = begin + ms / 1000.0;
                            e["state"] = state;
                            e["step"] = s - 1;
                            e["samples"] = int(ms / 10);
                            e["eval_ms"] = ms;
                            e["eval_total_ms"] = total + ms;
                            e["passes"] = passes;
                            send(r, e);
                            if (!end) {
                                QVERIFY(model.rank(r).evaluating);
                                QCOMPARE(model.rank(r).lastProgressT, begin + ms / 1000.0);
                            }
                        }
                        QVERIFY(!model.rank(r).evaluating);
                    }
                    total += 1500;
                    shift += 1.5;
                }
                for (int r = 0; r < 2; ++r) {
                    const bool evaluated = after && (r == 0 || everyRank);
                    auto e = ddpdesk::protocol::makeEvent("step", r);
                    e["t"] = t0 + s * 0.1 + shift;
                    e["step"] = s;
                    e["loss"] = 1.0;
                    e["samples"] = s * 32;
                    e["step_ms"] = after ? 1600 : 100;
                    e["comm_wait_ms"] = after && !evaluated ? 1510 : 10;
                    if (evaluated) e["eval_ms"] = 1500;
                    send(r, e);
                }
            }
            model.setReplayClock(t0 + 6.0 + shift);
            QCOMPARE(model.rank(0).evalPasses, 2);
            QCOMPARE(model.rank(0).evalS, 3.0);
            QCOMPARE(model.rank(1).evalPasses, everyRank ? 2 : 0);
            const double rate = model.samplesRate().perS;
            QVERIFY2(std::abs(rate / 640.0 - 1) < 0.02, qPrintable(QString::number(rate)));
            ddpdesk::launch::RunConfig config;
            config.nproc = 2;
            const auto causes =
                ddpdesk::launch::diagnoseScaling(ddpdesk::launch::scalingFacts(config, model));
            QStringList found;
            for (const auto& c : causes)
                found << c.code;
            QVERIFY2(!found.contains("STRAGGLER"), qPrintable(found.join(' ')));
            if (everyRank) {
                QVERIFY2(!found.contains("UNSHARED_WORK"), qPrintable(found.join(' ')));
                continue;
            }
            QVERIFY2(found.contains("UNSHARED_WORK"), qPrintable(found.join(' ')));
            for (const auto& c : causes)
                if (c.code == QLatin1String("UNSHARED_WORK")) {
                    QCOMPARE(c.evidence["rank"].toInt(), 0);
                    QCOMPARE(c.evidence["eval_passes"].toInt(), 2);
                    QVERIFY2(
                        c.text.contains("rank 0 spent 3.0 s (33 % of the run) in 2 validation passes (3.0 s) "
                                        "that rank 1 did not make"),
                        qPrintable(c.text));
                    QVERIFY(c.fix.contains("DistributedSampler"));
                }
        }
    }

    void unmeasuredFiguresClaimNothing() {
        ScalingFacts f = healthy();
        f.ranks = {rank(0, -1), rank(1, -1)};
        QVERIFY(codes(f).isEmpty());
        f.worldSize = 1;
        f.ranks = {rank(0, 0.9)}; // one rank alone waits for nobody
        QVERIFY(codes(f).isEmpty());
    }

    void workersWithMoreThreadsThanCores() {
        QTemporaryDir dir;
        const QString out = dir.filePath("threads");
        const int cores = QThread::idealThreadCount();
        const auto r = launchtest::runCli({"run", "--workload", "autoencoder", "--nproc", "2", "--threads",
                                           QString::number(cores), "--steps", "20", "--out", out},
                                          120000);
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QVERIFY2(summaryCodes(out).contains("CPU_OVERSUBSCRIBED"), qPrintable(r.out));
        QVERIFY2(
            r.out.contains("Scaling [CPU_OVERSUBSCRIBED]: 2 ranks x " + QString::number(cores) + " threads"),
            qPrintable(r.out));
    }

    // Batch 1 waits a larger share of its step in the exchange than batch 1024, and each run's verdict
    // follows its own measured shares: COMM_BOUND exactly when every rank waited 30 % or more. Quiet, batch 1
    // waits about 45 % (COMM_BOUND) and batch 1024 about 5 %; with two CPU hogs beside them 23-38 % and 4-6
    // %: a loaded machine stretches the computation and can bring the tiny batch under the line, so the
    // verdict is checked against the figures. launch.two_nodes aSlowLinkIsCommBound produces COMM_BOUND on a
    // shaped link whatever the load.
    void aTinyBatchWaitsMoreAndTheVerdictFollowsTheFigures() {
        QTemporaryDir dir;
        auto run = [&](const char* batch) {
            const QString out = dir.filePath(QStringLiteral("batch-%1").arg(batch));
            const auto r = launchtest::runCli({"run", "--workload", "autoencoder", "--nproc", "2",
                                               "--threads", "1", "--grad-transport", "gloo", "--batch-size",
                                               batch, "--steps", "60", "--out", out},
                                              120000);
            return std::make_pair(r, out);
        };
        auto leastShare = [](const QString& out) {
            double least = 1;
            for (const QJsonValue& v : launchtest::readJsonFile(out + "/summary.json")["ranks"].toArray())
                least = std::min(least, v.toObject()["comm_wait_share"].toDouble(-1));
            return least;
        };
        const auto [tiny, tinyOut] = run("1");
        QVERIFY(tiny.finished);
        QVERIFY2(tiny.exitCode == 0, qPrintable(tiny.err + tiny.out));
        const auto [large, largeOut] = run("1024");
        QVERIFY(large.finished);
        QVERIFY2(large.exitCode == 0, qPrintable(large.err + large.out));
        const double tinyShare = leastShare(tinyOut), largeShare = leastShare(largeOut);
        qInfo("least comm-wait share: batch 1 %.2f, batch 1024 %.2f", tinyShare, largeShare);
        QVERIFY2(tinyShare > largeShare,
                 qPrintable(QStringLiteral("%1 vs %2").arg(tinyShare).arg(largeShare)));
        QCOMPARE(summaryCodes(tinyOut).contains("COMM_BOUND"), tinyShare >= ddpdesk::launch::kCommBoundShare);
        QCOMPARE(summaryCodes(largeOut).contains("COMM_BOUND"),
                 largeShare >= ddpdesk::launch::kCommBoundShare);
    }

    // Two ddpdesk-worker ranks, each pinned to its own core; four busy loops then pinned to rank 1's core
    // leave it a fifth of that core (whatever else the machine runs, rank 0 keeps a larger share of its own).
    // Rank 1 is named once it has been slow for 3 s (--straggler-after 3), with compute as what is slow and
    // its CPU share beside it; rank 0 never is.
    void aWorkerRankBesideCpuHogsIsNamedAStraggler() {
#ifndef Q_OS_LINUX
        QSKIP("pins ranks and hogs to cores with taskset (Linux)");
#else
        if (QThread::idealThreadCount() < 2) QSKIP("needs two cores: one per rank");
        QTemporaryDir dir;
        const QString out = dir.filePath("hog"), metrics = out + "/metrics.jsonl";
        QProcess cli;
        cli.setProcessChannelMode(QProcess::MergedChannels);
        cli.start(launchtest::envPath("DDPDESK_CLI"),
                  {"run", "--workload", "autoencoder", "--nproc", "2", "--threads", "1", "--grad-transport",
                   "gloo", "--batch-size", "128", "--steps", "1000000", "--telemetry-ms", "0",
                   "--straggler-after", "3", "--out", out});
        QVERIFY(cli.waitForStarted(10000));
        std::vector<std::unique_ptr<QProcess>> hogs;
        auto cleanUp = qScopeGuard([&] {
            for (auto& h : hogs)
                h->kill(), h->waitForFinished(5000);
            cli.terminate();
            if (!cli.waitForFinished(30000)) cli.kill(), cli.waitForFinished(5000);
        });
        qint64 pids[2] = {0, 0};
        QElapsedTimer t;
        t.start();
        while ((!pids[0] || !pids[1]) && t.elapsed() < 60000 && cli.state() == QProcess::Running) {
            cli.waitForFinished(100);
            const auto events = launchtest::readJsonLines(metrics);
            pids[0] = rankPid(events, 0);
            pids[1] = rankPid(events, 1);
        }
        QVERIFY2(pids[0] && pids[1], qPrintable(QString::fromUtf8(cli.readAll())));
        QVERIFY(pin(pids[0], 0));
        QVERIFY(pin(pids[1], 1));
        for (int i = 0; i < 4; ++i) {
            hogs.push_back(std::make_unique<QProcess>());
            hogs.back()->start("taskset", {"-c", "1", "sh", "-c", "while :; do :; done"});
            QVERIFY(hogs.back()->waitForStarted(5000));
        }
        const double hogsT = QDateTime::currentMSecsSinceEpoch() / 1000.0;
        QJsonObject straggler;
        t.restart();
        while (straggler.isEmpty() && t.elapsed() < 60000 && cli.state() == QProcess::Running) {
            cli.waitForFinished(200);
            for (const QJsonObject& e : launchtest::readJsonLines(metrics))
                if (e["event"].toString() == "diagnosis" && e["code"].toString() == "STRAGGLER") {
                    QVERIFY2(e["behind"].toArray() == QJsonArray({1}), qPrintable(QJsonDocument(e).toJson()));
                    straggler = e;
                }
        }
        QVERIFY2(!straggler.isEmpty(), qPrintable(QString::fromUtf8(cli.readAll())));
        const QString json = QString::fromUtf8(QJsonDocument(straggler).toJson());
        QCOMPARE(straggler["slow_part"].toString(), QStringLiteral("compute"));
        QCOMPARE(straggler["fastest_rank"].toInt(), 0);
        QVERIFY2(straggler["ratio"].toDouble() >= 1.3, qPrintable(json));
        QVERIFY2(straggler.contains("cpu_percent"), qPrintable(json)); // its process's share of a core
        // From rank 1's first step beside the hogs: a loaded machine can take a while to start the ranks.
        double firstStepT = 0;
        for (const QJsonObject& e : launchtest::readJsonLines(metrics))
            if (e["event"].toString() == "step" && e["rank"].toInt() == 1 && e["t"].toDouble() >= hogsT) {
                firstStepT = e["t"].toDouble();
                break;
            }
        QVERIFY(firstStepT > 0);
        const double namedAfterS = straggler["t"].toDouble() - firstStepT;
        qInfo("rank 1 named a straggler %.1f s after its first step beside the hogs (%.1f s after they "
              "started)",
              namedAfterS, straggler["t"].toDouble() - hogsT);
        // Idle, it is named 3 to 4 s after (the sustained 3 s and a few steps). Beside another heavy test on
        // this 2-core machine rank 0 slows too, and the four hogs take a while to slow rank 1 by 1.3x: the
        // bound leaves room for that; the sustained time it reports is what the meter adds.
        QVERIFY2(namedAfterS <= 20, qPrintable(json));
        QVERIFY2(straggler["slow_for_s"].toDouble() >= 3 && straggler["slow_for_s"].toDouble() < 6,
                 qPrintable(json));
#endif
    }
};

QTEST_GUILESS_MAIN(ScalingTest)
#include "test_scaling.moc"
