// The numbers of a user's script are the script's own (issue: a DataLoader with worker processes once gave
// 44x to 132x the samples/s, and a step count that went back at the end). Each case is a real 2-rank run
// through ddpdesk-cli whose script counts its training iterations and times them itself; the run must report
// the same steps and, from its step events, a global samples/s within 10 % of the script's own (both measured
// in the same run, so a busy machine moves both).
//  * DataLoader(num_workers=2) with DistributedSampler and set_epoch over 3 epochs: forked workers made anew
//    each epoch, persistent forked workers, spawned workers and forkserver workers. A forked worker carries
//    the instrumentation with the rank's counts; it must stay silent.
//  * a GAN (two DDP models, two optimizers, the critic forwarded three times an iteration): one step per
//    iteration, samples once per iteration, each model's loss named; a critic stepped on every batch and the
//    generator on every fifth: one step per batch, as the script's loop counts;
//  * a validation pass each epoch (the DDP model in eval() under no_grad), by every rank or by rank 0 alone
//    while the others wait: its samples are not training samples, its time is not training time, each rank's
//    passes are counted (summary.json ranks[].eval_passes, eval_s; `eval` events), and rank 0 validating
//    alone (and saving a checkpoint alone, timed at its torch.save) is named UNSHARED_WORK, and while the
//    others wait for its 6-s pass the hold-up watch says it is in a validation pass;
//  * no_sync accumulation (an iteration is 4 micro-batches, one optimizer step) and bfloat16 autocast with
//    gradient clipping: one step per optimizer step, every micro-batch's samples;
//  * the worker's training flags given with --script (they would change nothing) are refused by name;
//  * a script that never wraps its model in DDP (imagenet's main.py on a CPU) is told each rank trains alone,
//    and its samples/s and comm wait say n/a with that reason instead of "one step" and 0.
#include "launch_test_util.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

bool writeFile(const QString& path, const QByteArray& text) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text) == text.size();
}

// argv: OWN_FOLDER fresh|persistent|spawn. Each rank writes OWN_FOLDER/rankN.json: its iterations and its own
// samples/s from the end of its first iteration to the end of its last.
const QByteArray kLoaderScript = R"PY(import json, os, sys, time
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


class Generator(torch.nn.Sequential):
    def __init__(self):
        super().__init__(torch.nn.Linear(8, 32), torch.nn.ReLU(), torch.nn.Linear(32, 32))


class Critic(torch.nn.Sequential):
    def __init__(self):
        super().__init__(torch.nn.Linear(32, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1))


def main():
    how = sys.argv[2]
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(6144, 32), torch.randn(6144, 1))
    sampler = DistributedSampler(data)
    workers = 2 if how in ("fresh", "persistent", "spawn", "forkserver") else 0
    loader = DataLoader(data, batch_size=16, sampler=sampler, num_workers=workers,
                        persistent_workers=workers > 0 and how != "fresh",
                        multiprocessing_context=how if how in ("spawn", "forkserver") else None)
    held_out = DataLoader(TensorDataset(torch.randn(6144, 32), torch.randn(6144, 1)), batch_size=64)
    net = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 1))
    model = DDP(net)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    if how in ("gan", "critic5"):  # two DDP models, two optimizers; the critic sees each batch and the fakes
        gen, critic = DDP(Generator()), DDP(Critic())
        opt_g = torch.optim.Adam(gen.parameters(), lr=1e-4)
        opt_c = torch.optim.Adam(critic.parameters(), lr=1e-4)
        bce = torch.nn.BCEWithLogitsLoss()
    iterations, samples, train_s, last_end, micro, taken = 0, 0, 0.0, None, 0, 0
    pad = torch.zeros(16 << 20)  # what makes rank 0's checkpoint big enough to wait for
    for epoch in range(3):
        sampler.set_epoch(epoch)
        model.train()
        for x, y in loader:
            if how in ("gan", "critic5"):
                opt_c.zero_grad()
                real = bce(critic(x), torch.ones(x.shape[0], 1))
                real.backward()
                g_steps = how == "gan" or iterations % 5 == 4  # critic5: the generator steps every fifth batch
                with torch.set_grad_enabled(g_steps):  # a DDP forward with no backward after it must not sync
                    fake = gen(torch.randn(x.shape[0], 8))
                faked = bce(critic(fake.detach()), torch.zeros(x.shape[0], 1))
                faked.backward()
                opt_c.step()
                if g_steps:
                    opt_g.zero_grad()
                    fooled = bce(critic(fake), torch.ones(x.shape[0], 1))
                    fooled.backward()
                    opt_g.step()
            elif how == "nosync":  # 4 micro-batches an iteration, the first 3 without the gradient exchange
                micro += 1
                taken += x.shape[0]
                if micro % 4:
                    with model.no_sync():
                        torch.nn.functional.mse_loss(model(x), y).backward()
                    continue  # not an iteration of its own
                torch.nn.functional.mse_loss(model(x), y).backward()
                opt.step()
                opt.zero_grad()
            elif how == "autocast":  # bfloat16 autocast and gradient clipping
                opt.zero_grad()
                with torch.autocast("cpu", dtype=torch.bfloat16):
                    loss = torch.nn.functional.mse_loss(model(x).float(), y)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                opt.step()
            else:
                opt.zero_grad()
                torch.nn.functional.mse_loss(model(x), y).backward()
                opt.step()
            iterations += 1
            now = time.time()
            if last_end is not None:  # its training time: from the end of the iteration before
                samples += taken or x.shape[0]
                train_s += now - last_end
            last_end, taken = now, 0
        # A validation pass each epoch: the DDP model in eval() under no_grad, as long as the epoch's training
        # or so; by every rank, or by rank 0 alone while the others wait (nanoGPT). Not training time.
        if how == "validation" or (how == "rank0_validation" and rank == 0):
            model.eval()
            with torch.no_grad():
                for x, y in held_out:  # the first epoch's pass by rank 0 alone lasts 6 s: a hold-up
                    time.sleep(0.06 if how == "rank0_validation" and epoch == 0 else 0.005)
                    torch.nn.functional.mse_loss(model(x), y)
        if how == "rank0_validation":
            if rank == 0:  # rank 0 alone saves a checkpoint (a 64 MB one) each epoch, as tutorials do
                torch.save({"model": model.state_dict(), "pad": pad}, os.path.join(sys.argv[1], "checkpoint.pt"))
            dist.barrier()
        last_end = time.time() if last_end is not None else None
    with open(os.path.join(sys.argv[1], f"rank{rank}.json"), "w") as f:
        json.dump({"iterations": iterations, "samples_per_s": samples / train_s}, f)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
)PY";

// The shape of pytorch/examples imagenet/main.py on a machine without CUDA: the process group is made, the
// model is never wrapped, and each rank steps its own optimizer.
const QByteArray kAloneScript = R"PY(import time
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
torch.manual_seed(dist.get_rank())
model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(24):
    x, y = torch.randn(32, 64), torch.randint(0, 10, (32,))
    loss = torch.nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    time.sleep(0.05)
dist.destroy_process_group()
)PY";

QStringList scalingCodes(const QJsonObject& summary) {
    QStringList codes;
    for (const QJsonValue& c : summary["scaling"].toArray())
        codes << c.toObject()["code"].toString();
    return codes;
}

} // namespace

class ScriptNumbersTest : public QObject {
    Q_OBJECT

private slots:
    void numbersAreTheScriptsOwn_data() {
        QTest::addColumn<QString>("how");
        QTest::newRow("forked each epoch") << QStringLiteral("fresh");
        QTest::newRow("forked, persistent") << QStringLiteral("persistent");
        QTest::newRow("spawned") << QStringLiteral("spawn");
        QTest::newRow("forkserver") << QStringLiteral("forkserver");
        QTest::newRow("a GAN: two models, two optimizers") << QStringLiteral("gan");
        QTest::newRow("a critic stepped on five batches per generator step") << QStringLiteral("critic5");
        QTest::newRow("a validation pass each epoch") << QStringLiteral("validation");
        QTest::newRow("rank 0 alone validates") << QStringLiteral("rank0_validation");
        QTest::newRow("no_sync accumulation over 4 micro-batches") << QStringLiteral("nosync");
        QTest::newRow("bfloat16 autocast with gradient clipping") << QStringLiteral("autocast");
    }

    void numbersAreTheScriptsOwn() {
        QFETCH(QString, how);
        QTemporaryDir tmp;
        const QString script = tmp.filePath("loader.py"), out = tmp.filePath("run"),
                      own = tmp.filePath("own");
        QVERIFY(writeFile(script, kLoaderScript));
        QVERIFY(QDir().mkpath(own));
        const auto r =
            launchtest::runCli({"run", "--script", script, "--python", launchtest::envPath("DDPDESK_PYTHON"),
                                "--nproc", "2", "--out", out, "--", own, how},
                               240000);
        QVERIFY2(r.finished && r.exitCode == 0, qPrintable(QString::number(r.exitCode) + "\n" + r.err));
        const QJsonObject summary = launchtest::readJsonFile(out + "/summary.json");
        double ownRate = 0;
        int iterations = -1;
        for (int rank = 0; rank < 2; ++rank) {
            const QJsonObject mine = launchtest::readJsonFile(own + QStringLiteral("/rank%1.json").arg(rank));
            QVERIFY2(!mine.isEmpty(), "the script did not finish");
            ownRate += mine["samples_per_s"].toDouble();
            if (iterations >= 0) QCOMPARE(mine["iterations"].toInt(), iterations);
            iterations = mine["iterations"].toInt();
        }
        const double reported = summary["samples_per_s"].toDouble();
        qInfo("%s: steps %d (the script's own %d), samples/s %.0f (the script's own %.0f): %.3fx",
              qPrintable(how), summary["steps"].toInt(), iterations, reported, ownRate, reported / ownRate);
        QCOMPARE(summary["steps"].toInt(), iterations);
        for (const QJsonValue& rank : summary["ranks"].toArray())
            QCOMPARE(rank.toObject()["steps"].toInt(), iterations);
        QVERIFY2(!scalingCodes(summary).contains("EACH_RANK_ALONE"),
                 qPrintable(scalingCodes(summary).join(' ')));
        if (how == QLatin1String("gan")) { // each model's loss, named by its class
            QFile metrics(out + "/metrics.jsonl");
            QVERIFY(metrics.open(QIODevice::ReadOnly));
            QJsonObject losses;
            for (const QByteArray& line : metrics.readAll().split('\n')) {
                const QJsonObject e = QJsonDocument::fromJson(line).object();
                if (e["event"].toString() == QLatin1String("step") && e.contains("losses"))
                    losses = e["losses"].toObject();
            }
            QVERIFY2(losses.keys() == QStringList({"Critic", "Generator"}),
                     qPrintable(QJsonDocument(losses).toJson(QJsonDocument::Compact)));
        }
        QVERIFY2(std::abs(reported / ownRate - 1.0) <= 0.10,
                 qPrintable(QStringLiteral("%1 against %2").arg(reported).arg(ownRate)));
        // Each rank's validation passes, counted apart; rank 0 validating alone is named as such, and not as
        // a straggler.
        const bool validates = how.endsWith(QLatin1String("validation"));
        for (const QJsonValue& v : summary["ranks"].toArray()) {
            const QJsonObject rank = v.toObject();
            const int expected =
                validates && (how == QLatin1String("validation") || rank["rank"].toInt() == 0) ? 3 : 0;
            QVERIFY2(rank["eval_passes"].toInt() == expected &&
                         (rank["eval_s"].toDouble() > 0) == (expected > 0),
                     qPrintable(QJsonDocument(rank).toJson(QJsonDocument::Compact)));
        }
        // (Not a STRAGGLER either: launch.scaling validationIsNamedAndLeftOutOfTheTrainingRate says so from
        // fixed figures; here a busy machine may make a real one.)
        const QStringList codes = scalingCodes(summary);
        QVERIFY2(codes.contains("UNSHARED_WORK") == (how == QLatin1String("rank0_validation")),
                 qPrintable(codes.join(' ')));
        for (const QJsonValue& v : summary["ranks"].toArray()) { // its checkpoint saves, counted apart
            const QJsonObject rank = v.toObject();
            const int expected =
                how == QLatin1String("rank0_validation") && rank["rank"].toInt() == 0 ? 3 : 0;
            QVERIFY2(rank["saves"].toInt() == expected && (rank["save_s"].toDouble() > 0) == (expected > 0),
                     qPrintable(QJsonDocument(rank).toJson(QJsonDocument::Compact)));
        }
        if (validates) {
            QFile metrics(out + "/metrics.jsonl");
            QVERIFY(metrics.open(QIODevice::ReadOnly));
            QStringList states;
            for (const QByteArray& line : metrics.readAll().split('\n')) {
                const QJsonObject e = QJsonDocument::fromJson(line).object();
                if (e["event"].toString() == QLatin1String("eval") && e["rank"].toInt() == 0)
                    states << e["state"].toString();
            }
            QVERIFY2(states.count("begin") == 3 && states.count("end") == 3, qPrintable(states.join(' ')));
            QVERIFY2(r.out.contains("validation: rank 0 3 passes, "), qPrintable(r.out));
        }
        if (how == QLatin1String("rank0_validation")) { // the others waiting for it: said as such, live
            bool named = false;
            for (const QJsonObject& e : launchtest::readJsonLines(out + "/metrics.jsonl"))
                named = named || (e["event"].toString() == QLatin1String("diagnosis") &&
                                  e["code"].toString() == QLatin1String("RANK_BEHIND") &&
                                  e["text"].toString().contains("rank 0 is in a validation pass (for "));
            QVERIFY2(named, qPrintable(r.out));
            QVERIFY2(r.out.contains("validation passes (") && r.out.contains(" and 3 checkpoint saves (") &&
                         r.out.contains("checkpoint saves: rank 0 3 saves, "),
                     qPrintable(r.out));
        }
    }

    // Before: samples/s n/a "each rank reported one step; a rate needs two" though each reported 24, a comm
    // wait of 0, and no word that the ranks never exchanged a gradient.
    void aScriptWithoutDdpIsToldEachRankTrainsAlone() {
        QTemporaryDir tmp;
        const QString script = tmp.filePath("alone.py"), out = tmp.filePath("run");
        QVERIFY(writeFile(script, kAloneScript));
        const auto r =
            launchtest::runCli({"run", "--script", script, "--python", launchtest::envPath("DDPDESK_PYTHON"),
                                "--nproc", "2", "--out", out},
                               120000);
        QVERIFY2(r.finished && r.exitCode == 0, qPrintable(QString::number(r.exitCode) + "\n" + r.err));
        const QJsonObject summary = launchtest::readJsonFile(out + "/summary.json");
        QCOMPARE(summary["steps"].toInt(), 24);
        QCOMPARE(scalingCodes(summary), QStringList({"EACH_RANK_ALONE"}));
        QVERIFY(summary["samples_per_s"].isNull());
        QVERIFY2(summary["samples_per_s_why"].toString().contains("each rank trains alone"),
                 qPrintable(summary["samples_per_s_why"].toString()));
        for (const QJsonValue& rank : summary["ranks"].toArray())
            QVERIFY2(rank.toObject()["comm_wait_share"].isNull(),
                     qPrintable(QJsonDocument(rank.toObject()).toJson(QJsonDocument::Compact)));
        QVERIFY2(r.out.contains("EACH_RANK_ALONE") || r.err.contains("EACH_RANK_ALONE"),
                 qPrintable(r.out + r.err));
    }

    // The worker's training flags change nothing for a script: refused by name before anything starts (they
    // were accepted silently, and the run looked as if they had been applied). --threads still applies.
    void workerFlagsThatDoNothingForAScriptAreRefused() {
        QTemporaryDir tmp;
        const QString script = tmp.filePath("noop.py");
        QVERIFY(writeFile(script, "print('ran')\n"));
        const auto r =
            launchtest::runCli({"run", "--script", script, "--python", launchtest::envPath("DDPDESK_PYTHON"),
                                "--grad-compression", "fp16", "--accumulate", "2", "--threads", "1", "--out",
                                tmp.filePath("run")},
                               60000);
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 2, qPrintable(QString::number(r.exitCode) + "\n" + r.err));
        QVERIFY2(r.err.contains("--grad-compression: does nothing for a --script run") &&
                     r.err.contains("--accumulate: does nothing for a --script run") &&
                     !r.err.contains("--threads:"),
                 qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(tmp.filePath("run")));
    }
};

QTEST_GUILESS_MAIN(ScriptNumbersTest)
#include "test_script_numbers.moc"
