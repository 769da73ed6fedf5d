// Known failures explained (core/launch/diagnose/failure_diagnosis.h). Every text that a real PyTorch on this
// machine can produce is produced by one (tests/launch/failure_producers.py, with torch 1.13 and, where its
// root is installed, torch 2.6), and the table must recognise what came out; texts only a GPU or Windows can
// produce are quoted in tests/launch/failure_texts with their source. RunModel records a diagnosis that
// points at the rank that died first; ddpdesk-cli writes it to summary.json and its end report, for
// ddpdesk-worker's NaN loss and for Python scripts that fail.
#include "launch/diagnose/failure_diagnosis.h"
#include "launch/model/run_model.h"
#include "launch_test_util.h"

#include <QDirIterator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <regex>
#include <set>

using namespace ddpdesk::launch;

namespace {

std::vector<std::string> splitLines(const QString& text) {
    std::vector<std::string> lines;
    for (const QString& l : text.split(QLatin1Char('\n')))
        lines.push_back(l.toStdString());
    return lines;
}

QString producerScript() {
    return QStringLiteral(DDPDESK_FAILURE_PRODUCERS);
}

struct Python {
    QString label; // "torch1" / "torch2"
    QString path;
    int major = 0;   // torch's major version
    QString version; // torch.__version__
};

// One failure made for real: the case of failure_producers.py and what each torch major version must give.
struct Case {
    const char* name;
    const char* code1;     // torch 1.x; "" = the case must report itself unsupported there
    const char* code2;     // torch 2.x
    const char* fragment1; // a piece of the line that must have been matched
    const char* fragment2;
};

const Case kCases[] = {
    {"nccl", "NCCL_UNAVAILABLE", "NCCL_UNAVAILABLE", "doesn't have NCCL built in",
     "doesn't have NCCL built in"},
    // 2.6 says "build without", 2.14 "built without ... run with USE_LIBUV=0 to disable it".
    {"libuv", "", "LIBUV_UNAVAILABLE", "", "use_libuv was requested but PyTorch was buil"},
    {"gloo_device", "GLOO_DEVICE_UNSUPPORTED", "GLOO_DEVICE_UNSUPPORTED", "unsupported gloo device",
     "unsupported gloo device"},
    {"gloo_unresolved", "GLOO_ADDRESS_UNRESOLVED", "GLOO_ADDRESS_UNRESOLVED", "Cannot resolve 203.0.113.7",
     "Cannot resolve 203.0.113.7"},
    // The exception's line, not the warning printed before it with the same errno.
    {"address_in_use", "ADDRESS_IN_USE", "ADDRESS_IN_USE",
     "failed to listen on any local network address. The",
     "failed to listen on any local network address. The"},
    {"rank_missing", "PEER_TIMEOUT", "RENDEZVOUS_TIMEOUT", "Socket Timeout",
     "waiting for clients. 1/2 clients"},
    {"socket_timeout", "PEER_TIMEOUT", "PEER_TIMEOUT", "The client socket has timed out after",
     "The client socket has timed out after"},
    {"peer_died", "CONNECTION_LOST", "CONNECTION_LOST", "by peer", "by peer"},
    {"unused_parameters", "DDP_UNUSED_PARAMETERS", "DDP_UNUSED_PARAMETERS",
     "Expected to have finished reduction", "Expected to have finished reduction"},
    {"collective_mismatch", "COLLECTIVE_MISMATCH", "COLLECTIVE_MISMATCH",
     "Detected mismatch between collectives", "Detected mismatch between collectives"},
    {"collective_timeout", "PEER_TIMEOUT", "PEER_TIMEOUT", "for recv operation to complete",
     "for recv operation to complete"},
    // One rank aborts in Gloo, the other sees the reset: the root cause wins over the consequence.
    {"shape_mismatch", "COLLECTIVE_MISMATCH", "COLLECTIVE_MISMATCH", "op.preamble.length <= op.nbytes",
     "op.preamble.length <= op.nbytes"},
    {"cuda_unavailable", "CUDA_UNAVAILABLE", "CUDA_UNAVAILABLE", "Torch not compiled with CUDA enabled",
     "Torch not compiled with CUDA enabled"},
    {"cuda_set_device", "CUDA_UNAVAILABLE", "CUDA_UNAVAILABLE", "_cuda_setDevice", "_cuda_setDevice"},
    {"nan_loss", "NAN_LOSS", "NAN_LOSS", "returned nan values", "returned nan values"},
    {"torch_too_old", "TORCH_TOO_OLD", "TORCH_TOO_OLD",
     "has no attribute 'ddpdesk_feature_of_a_later_release'",
     "has no attribute 'ddpdesk_feature_of_a_later_release'"},
    {"backend_required", "BACKEND_REQUIRED", "", "missing 1 required positional argument: 'backend'", ""},
};

} // namespace

class FailureDiagnosisTest : public QObject {
    Q_OBJECT
    QVector<Python> m_pythons;
    bool m_probed = false;

    // The interpreters, probed at the first case that needs one: the cases that only read texts start no
    // process.
    const QVector<Python>& pythons() {
        if (m_probed) return m_pythons;
        m_probed = true;
        // torch 1.x (Debian 12's python3-torch) and torch 2.x (the Debian 13 root), each only where it
        // exists.
        const QList<QPair<QString, QString>> candidates = {
            {"torch1", launchtest::envPath("DDPDESK_PYTHON")},
            {"torch2", launchtest::envPath("DDPDESK_TORCH2_PYTHON_FOR_TESTS")}};
        for (const auto& [label, path] : candidates) {
            if (path.isEmpty() || !QFileInfo::exists(path)) {
                qInfo("%s: no interpreter (%s), its half is skipped", qPrintable(label), qPrintable(path));
                continue;
            }
            QProcess p;
            p.start(path, {"-c", "import torch, torch.distributed; print(torch.__version__)"});
            if (!p.waitForFinished(120000) || p.exitCode() != 0) {
                qInfo("%s: %s cannot import torch.distributed, its half is skipped", qPrintable(label),
                      qPrintable(path));
                continue;
            }
            const QString version = QString::fromUtf8(p.readAllStandardOutput()).trimmed();
            m_pythons.push_back({label, path, version.section(QLatin1Char('.'), 0, 0).toInt(), version});
            qInfo("%s: %s, torch %s", qPrintable(label), qPrintable(path), qPrintable(version));
        }
        return m_pythons;
    }

    const Python* python(const QString& label) {
        for (const Python& p : pythons())
            if (p.label == label) return &p;
        return nullptr;
    }

private slots:
    void tableIsWellFormed() {
        std::set<std::string> codes;
        for (const FailureKind& k : failureKinds()) {
            const std::string code = k.code;
            QVERIFY2(std::regex_match(code, std::regex("[A-Z][A-Z0-9_]+")), k.code);
            QVERIFY2(codes.insert(code).second, k.code);
            QVERIFY(std::string(k.message).size() > 20);
            QVERIFY(std::string(k.fix).size() > 20);
            QCOMPARE(findFailureKind(code), &k);
        }
        // The codes the issue asks for are all there, root causes before the consequences they cause.
        for (const char* c :
             {"NCCL_UNAVAILABLE", "LIBUV_UNAVAILABLE", "GLOO_DEVICE_UNSUPPORTED", "ADDRESS_IN_USE",
              "ADDRESS_NOT_AVAILABLE", "PORT_ACCESS_DENIED", "RENDEZVOUS_TIMEOUT", "PEER_TIMEOUT",
              "CONNECTION_LOST", "CUDA_OUT_OF_MEMORY", "CUDA_UNAVAILABLE", "CUDA_INVALID_DEVICE",
              "DDP_UNUSED_PARAMETERS", "COLLECTIVE_MISMATCH", "NAN_LOSS"})
            QVERIFY2(codes.count(c), c);
        bool seenConsequence = false;
        for (const FailureKind& k : failureKinds()) {
            QVERIFY2(!(seenConsequence && !k.consequence), k.code);
            seenConsequence = seenConsequence || k.consequence;
        }
        QVERIFY(!findFailureKind("NO_SUCH_CODE"));
    }

    // Texts quoted from PyTorch's source and issue tracker (each file says where from).
    void fixtures_data() {
        QTest::addColumn<QString>("path");
        QDirIterator it(QStringLiteral(DDPDESK_FAILURE_TEXTS), {"*.txt"}, QDir::Files);
        QStringList files;
        while (it.hasNext())
            files << it.next();
        files.sort();
        QVERIFY(files.size() >= 10);
        for (const QString& f : files)
            QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
    }

    void fixtures() {
        QFETCH(QString, path);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QString expect, matched;
        std::vector<std::string> lines;
        bool header = true;
        for (const QString& line : QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'))) {
            if (header && line.startsWith(QLatin1String("# "))) {
                if (line.startsWith(QLatin1String("# expect:")))
                    expect = line.section(QLatin1Char(':'), 1).trimmed();
                else if (line.startsWith(QLatin1String("# matched:")))
                    matched = line.mid(int(qstrlen("# matched:"))).trimmed();
                continue;
            }
            header = false;
            lines.push_back(line.toStdString());
        }
        QVERIFY2(!expect.isEmpty(), "a fixture names the code it expects (# expect: CODE, or NONE)");
        const std::optional<LineMatch> m = diagnoseLines(lines);
        if (expect == QLatin1String("NONE")) {
            QVERIFY2(!m, m ? m->kind->code : "");
            return;
        }
        QVERIFY2(m, qPrintable("nothing recognised; expected " + expect));
        QCOMPARE(QString::fromLatin1(m->kind->code), expect);
        QVERIFY2(QString::fromStdString(m->line).contains(matched), m->line.c_str());
    }

    // Which rank's output explains a run, and the rank a consequence points at.
    void runPrefersRootCauseAndPointsAtFirstFailure() {
        // Rank 1 was killed without a word; rank 0 saw the reset connection: the reset is all there is to
        // show, and it points at rank 1.
        std::optional<Diagnosis> d = diagnoseRun(
            {{0,
              {"Traceback (most recent call last):", "RuntimeError: [./gloo/transport/tcp/pair.cc:589] Read "
                                                     "error [127.0.0.1]:5031: Connection reset by "
                                                     "peer"},
              "exit code 1"},
             {1, {}, "killed by signal 9 (SIGKILL)"}},
            1);
        QVERIFY(d);
        QCOMPARE(d->code, std::string("CONNECTION_LOST"));
        QCOMPARE(d->rank, 0);
        QCOMPARE(d->firstFailedRank, 1);
        QCOMPARE(d->firstFailedExit, std::string("killed by signal 9 (SIGKILL)"));
        QVERIFY2(d->message.find("Rank 1 failed first (killed by signal 9 (SIGKILL))") != std::string::npos,
                 d->message.c_str());
        QVERIFY(d->matched.find("Connection reset by peer") != std::string::npos);

        // The first rank to fail only timed out; another rank's output has the cause: the cause wins.
        d = diagnoseRun(
            {{0, {"RuntimeError: Socket Timeout"}, "exit code 1"},
             {1, {"torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"}, ""},
             {2, {"RuntimeError: Connection closed by peer [10.0.0.2]:4242"}, ""}},
            0);
        QVERIFY(d);
        QCOMPARE(d->code, std::string("CUDA_OUT_OF_MEMORY"));
        QCOMPARE(d->rank, 1);
        QCOMPARE(d->firstFailedRank, -1);

        // A consequence in the first failed rank's own output points nowhere else.
        d = diagnoseRun({{0, {"RuntimeError: Socket Timeout"}, "exit code 1"}, {1, {"all good"}, ""}}, 0);
        QVERIFY(d);
        QCOMPARE(d->code, std::string("PEER_TIMEOUT"));
        QCOMPARE(d->rank, 0);
        QCOMPARE(d->firstFailedRank, -1);

        // The first failed rank is looked at first among equals.
        d = diagnoseRun({{0, {"RuntimeError: Distributed package doesn't have NCCL built in"}, ""},
                         {1, {"RuntimeError: Distributed package doesn't have NCCL built in"}, ""}},
                        1);
        QVERIFY(d);
        QCOMPARE(d->rank, 1);

        // Issue 41: the peer whose connection closed had finished well (exit code 0) while rank 0 waited in a
        // collective it alone entered: no rank died, the ranks ran different collectives.
        d = diagnoseRun({{0, {"RuntimeError: Connection closed by peer [127.0.0.1]:4242"}, "exit code 1", 1},
                         {1, {"epoch 3 done"}, "exit code 0", 0}},
                        0);
        QVERIFY(d);
        QCOMPARE(d->code, std::string("COLLECTIVE_MISMATCH"));
        QCOMPARE(d->rank, 0);
        QVERIFY2(d->message.find("Rank 1 had already finished (exit code 0)") != std::string::npos &&
                     d->message.find("died first") == std::string::npos,
                 d->message.c_str());
        // A peer that did not end well is still the one that went away.
        d = diagnoseRun({{0, {"RuntimeError: Connection closed by peer [127.0.0.1]:4242"}, "exit code 1", 1},
                         {1, {}, "killed by signal 9 (SIGKILL)", -1}},
                        0);
        QVERIFY(d);
        QCOMPARE(d->code, std::string("CONNECTION_LOST"));

        // Nothing known: no diagnosis, rather than a wrong one.
        QVERIFY(!diagnoseRun({{0, {"ValueError: bad config"}, "exit code 1"}, {1, {}, ""}}, 0));
        QVERIFY(!diagnoseRun({}, -1));

        // A very long line is cut, and never in the middle of a UTF-8 character.
        const std::string longLine = "RuntimeError: CUDA out of memory. " + std::string(365, 'x') +
                                     "\xe3\x81\x82" +
                                     std::string(300, 'y'); // the character straddles the cut
        const std::optional<LineMatch> m = diagnoseLines({longLine});
        QVERIFY(m);
        QVERIFY(m->line.size() <= kMaxMatchedChars + 3);
        QVERIFY(QString::fromStdString(m->line).toUtf8().toStdString() == m->line);
    }

    // Real PyTorch, really failing.
    void realPyTorch_data() {
        QTest::addColumn<QString>("python");
        QTest::addColumn<QString>("caseName");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("fragment");
        if (pythons().isEmpty()) QSKIP("no Python with torch");
        for (const Python& p : pythons())
            for (const Case& c : kCases)
                QTest::newRow(qPrintable(p.label + "/" + c.name))
                    << p.label << c.name << (p.major >= 2 ? c.code2 : c.code1)
                    << (p.major >= 2 ? c.fragment2 : c.fragment1);
    }

    void realPyTorch() {
        QFETCH(QString, python);
        QFETCH(QString, caseName);
        QFETCH(QString, code);
        QFETCH(QString, fragment);
        QTemporaryDir work;
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels); // as a rank's log holds both
        p.start(this->python(python)->path, {producerScript(), caseName, work.path()});
        QVERIFY(p.waitForStarted(10000));
        QVERIFY2(p.waitForFinished(120000), "the producer hung");
        const QString out = QString::fromUtf8(p.readAll());
        if (code.isEmpty()) { // this torch cannot fail this way (e.g. no use_libuv option in 1.x): it must
                              // say so
            QVERIFY2(p.exitCode() == 77 && out.contains("UNSUPPORTED"), qPrintable(out));
            return;
        }
        QVERIFY2(p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0, qPrintable(out));
        QVERIFY2(!out.contains("NO FAILURE"), qPrintable(out));
        const std::optional<LineMatch> m = diagnoseLines(splitLines(out));
        QVERIFY2(m, qPrintable("nothing recognised in:\n" + out));
        QVERIFY2(QString::fromLatin1(m->kind->code) == code,
                 qPrintable(QStringLiteral("%1 instead of %2; matched: %3\n%4")
                                .arg(m->kind->code, code, QString::fromStdString(m->line), out.right(3000))));
        QVERIFY2(QString::fromStdString(m->line).contains(fragment), m->line.c_str());
    }

    // RunModel::finish gives summary.json its `diagnosis` from every rank's tail and error event.
    void runModelRecordsDiagnosis() {
        RunModel m;
        m.reset({0, 1}, 2, QStringLiteral("script"), 10);
        m.appendStderr(0, QStringLiteral("Traceback (most recent call last):"));
        m.appendStderr(0, QStringLiteral("RuntimeError: [./gloo/transport/tcp/pair.cc:589] Read error "
                                         "[127.0.0.1]:13729: Connection reset by peer"));
        m.setRankState(0, RankState::Failed, QStringLiteral("exit code 1"), 1);
        m.setRankState(1, RankState::Failed, QStringLiteral("killed by signal 9 (SIGKILL)"));
        m.finish(QStringLiteral("failed"), 1,
                 QStringLiteral("rank 1 killed by signal 9 (SIGKILL) (first failure)"));
        const QJsonObject d = m.summary().toJson(m.ranks())["diagnosis"].toObject();
        QCOMPARE(d["code"].toString(), QStringLiteral("CONNECTION_LOST"));
        QCOMPARE(d["rank"].toInt(), 0);
        QCOMPARE(d["first_failed_rank"].toInt(), 1);
        QVERIFY(d["matched"].toString().endsWith(QStringLiteral("Connection reset by peer")));
        QVERIFY2(d["message"].toString().contains(
                     QStringLiteral("Rank 1 failed first (killed by signal 9 (SIGKILL))")),
                 qPrintable(d["message"].toString()));
        QVERIFY(!d["fix"].toString().isEmpty());

        // A successful or stopped run has none, and a new run forgets the last one's.
        m.reset({0, 1}, 2, QStringLiteral("script"), 10);
        m.appendStderr(0, QStringLiteral("RuntimeError: Connection reset by peer"));
        m.finish(QStringLiteral("stopped"), -1, QStringLiteral("interrupted"));
        QVERIFY(m.summary().toJson(m.ranks())["diagnosis"].isNull());
    }

    // The workers' done events carry params_sha256: a completed run whose ranks disagree is RANKS_DIVERGED,
    // naming the rank and both digests; agreeing ranks give params_identical true.
    void divergedParametersAreNamed() {
        const QByteArray a(64, 'a'), b(64, 'b');
        auto done = [](int rank, const QByteArray& digest) {
            QJsonObject e{{"v", 1},     {"event", "done"}, {"t", 1.0},
                          {"steps", 3}, {"rank", rank},    {"params_sha256", QString::fromLatin1(digest)}};
            return QJsonDocument(e).toJson(QJsonDocument::Compact);
        };
        RunModel m;
        m.reset({0, 1}, 2, QStringLiteral("fashion-mnist"), 3);
        m.applyLine(0, done(0, a));
        m.applyLine(1, done(1, b));
        m.finish(QStringLiteral("ok"), -1, QString());
        QJsonObject s = m.summary().toJson(m.ranks());
        QCOMPARE(s["params_identical"].toBool(true), false);
        const QJsonObject d = s["diagnosis"].toObject();
        QCOMPARE(d["code"].toString(), QStringLiteral("RANKS_DIVERGED"));
        QCOMPARE(d["rank"].toInt(), 1);
        QCOMPARE(d["matched"].toString(),
                 QStringLiteral("params_sha256 of rank 0: aaaaaaaaaaaa..., of rank 1: bbbbbbbbbbbb..."));
        QCOMPARE(s["ranks"].toArray()[1].toObject()["params_sha256"].toString(), QString::fromLatin1(b));
        QCOMPARE(RunSummary::fromJson(s).paramsIdentical, 0);

        m.reset({0, 1}, 2, QStringLiteral("fashion-mnist"), 3);
        m.applyLine(0, done(0, a));
        m.applyLine(1, done(1, a));
        m.finish(QStringLiteral("ok"), -1, QString());
        s = m.summary().toJson(m.ranks());
        QCOMPARE(s["params_identical"].toBool(false), true);
        QVERIFY(s["diagnosis"].isNull());
    }

    // A run that ends well without one training step is not simply ok: NO_TRAINING_STEPS, with the last line
    // the rank printed; one that trained has no such diagnosis.
    void noTrainingStepsIsSaid() {
        RunModel m;
        m.reset({0, 1}, 2, QStringLiteral("script"), 0);
        m.applyLine(0, "loading 0 batches from /data/empty");
        m.appendStderr(1, QStringLiteral("rank 1 ready"));
        m.finish(QStringLiteral("ok"), -1, QString());
        const QJsonObject d = m.summary().toJson(m.ranks())["diagnosis"].toObject();
        QCOMPARE(d["code"].toString(), QStringLiteral("NO_TRAINING_STEPS"));
        QCOMPARE(d["rank"].toInt(), 0);
        QCOMPARE(d["matched"].toString(), QStringLiteral("loading 0 batches from /data/empty"));
        QVERIFY(d["fix"].toString().contains("optimizer.step()"));

        m.reset({0, 1}, 2, QStringLiteral("script"), 0);
        m.applyLine(0, R"({"v":1,"event":"step","rank":0,"t":1,"step":1,"loss":0.5,"source":"instrument"})");
        m.finish(QStringLiteral("ok"), -1, QString());
        QVERIFY(m.summary().toJson(m.ranks())["diagnosis"].isNull());
    }

    // Through the launcher: summary.json and the CLI's end report, for the built-in worker and for Python
    // scripts.
    void cliReport_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("code");
        QTest::addColumn<int>("failedRank"); // -1: whichever rank the launcher saw fail first
        QTest::addColumn<QString>("fragment");
        if (launchtest::envPath("DDPDESK_CLI").isEmpty()) QSKIP("DDPDESK_CLI not set");
        // ddpdesk-worker's own NAN_LOSS error event (a learning rate that makes the loss blow up).
        QTest::newRow("worker/nan loss")
            << QStringList{"--workload", "autoencoder",     "--lr", "1e12", "--steps", "30", "--threads",
                           "1",          "--limit-samples", "640"}
            << "NAN_LOSS" << -1 << "the loss became";
        for (const Python& p : pythons()) {
            const QStringList script{"--script", producerScript(), "--python", p.path};
            // Rank 1 hangs; rank 0's allreduce times out first.
            QTest::newRow(qPrintable(p.label + "/peer hangs")) << script + QStringList{"--", "ddp_peer_hangs"}
                                                               << "PEER_TIMEOUT" << 0 << "for recv operation";
            // Every rank fails the same way: the rank that failed first is the one shown.
            QTest::newRow(qPrintable(p.label + "/nccl"))
                << script + QStringList{"--", "ddp_nccl"} << "NCCL_UNAVAILABLE" << -1
                << "doesn't have NCCL built in";
            // Through the instrumentation module: the matched line names the release this interpreter has.
            QTest::newRow(qPrintable(p.label + "/torch too old"))
                << script + QStringList{"--", "torch_too_old"} << "TORCH_TOO_OLD" << -1
                << QStringLiteral("has no attribute 'ddpdesk_feature_of_a_later_release' (this interpreter's "
                                  "PyTorch: %1")
                       .arg(p.version);
        }
    }

    void cliReport() {
        QFETCH(QStringList, args);
        QFETCH(QString, code);
        QFETCH(int, failedRank);
        QFETCH(QString, fragment);
        QTemporaryDir dir;
        const QString out = dir.filePath("run");
        QStringList cli{"run", "--nproc", "2", "--out", out};
        cli += args;
        if (args.contains(QStringLiteral("--"))) // a script's own arguments: its case, then a work folder
            cli << dir.path();
        const auto r = launchtest::runCli(cli, 150000);
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 1, qPrintable(r.err + r.out));
        const QJsonObject s = launchtest::readJsonFile(out + "/summary.json");
        QCOMPARE(s["status"].toString(), QStringLiteral("failed"));
        if (failedRank >= 0) QCOMPARE(s["failed_rank"].toInt(), failedRank);
        const QJsonObject d = s["diagnosis"].toObject();
        QVERIFY2(!d.isEmpty(), qPrintable(r.out));
        QCOMPARE(d["code"].toString(), code);
        QCOMPARE(d["rank"].toInt(),
                 s["failed_rank"].toInt()); // found in the output of the rank that failed first
        QVERIFY(!d.contains("first_failed_rank"));
        QVERIFY2(d["matched"].toString().contains(fragment), qPrintable(d["matched"].toString()));
        const FailureKind* kind = findFailureKind(code.toStdString());
        QVERIFY(kind);
        QCOMPARE(d["message"].toString(), QString::fromUtf8(kind->message));
        QCOMPARE(d["fix"].toString(), QString::fromUtf8(kind->fix));
        // The end report: "Diagnosis [CODE]: message" then "  Fix: fix".
        const QRegularExpression report(
            QStringLiteral("\\nDiagnosis \\[%1\\]: (.+)\\n  Fix: (.+)\\n").arg(code));
        const QRegularExpressionMatch rm = report.match(r.out);
        QVERIFY2(rm.hasMatch(), qPrintable(r.out));
        QCOMPARE(rm.captured(1), d["message"].toString());
        QCOMPARE(rm.captured(2), d["fix"].toString());
        QVERIFY(launchtest::leftovers(launchtest::workerPids(out + "/metrics.jsonl")).isEmpty());
    }

    // A script that trains on through a NaN loss exits 0: the run completes, and still says NAN_LOSS, seen in
    // its printed loss or, for a silent script, in the scalar backward() ran on.
    void completedOnNanLoss_data() {
        QTest::addColumn<QString>("python");
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>("fragment");
        QTest::addColumn<bool>("noInstrument");
        if (launchtest::envPath("DDPDESK_CLI").isEmpty()) QSKIP("DDPDESK_CLI not set");
        for (const Python& p : pythons()) {
            // Without the instrumentation the printed loss lines are the steps; with it, the scalar
            // backward() ran on.
            QTest::newRow(qPrintable(p.label + "/printed")) << p.path << "nan_printed_trains_on"
                                                            << "loss: nan" << true;
            // Issue 41: it began at step 4 (index 3), not at the step of the first event that carried it.
            QTest::newRow(qPrintable(p.label + "/silent")) << p.path << "nan_silent_trains_on"
                                                           << "step 4: loss nan" << false;
        }
    }

    void completedOnNanLoss() {
        QFETCH(QString, python);
        QFETCH(QString, script);
        QFETCH(QString, fragment);
        QFETCH(bool, noInstrument);
        QTemporaryDir dir;
        const QString out = dir.filePath("run");
        QStringList args{"run",      "--nproc",        "2",        "--out", out,
                         "--script", producerScript(), "--python", python};
        if (noInstrument) args << "--no-instrument";
        const auto r = launchtest::runCli(args + QStringList{"--", script, dir.path()}, 150000);
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        const QJsonObject s = launchtest::readJsonFile(out + "/summary.json");
        QCOMPARE(s["status"].toString(), QStringLiteral("ok"));
        const QJsonObject d = s["diagnosis"].toObject();
        QVERIFY2(!d.isEmpty(), qPrintable(r.out));
        QCOMPARE(d["code"].toString(), QStringLiteral("NAN_LOSS"));
        QVERIFY2(d["rank"].toInt() == 0 || d["rank"].toInt() == 1, qPrintable(r.out));
        QVERIFY2(d["matched"].toString().contains(fragment), qPrintable(d["matched"].toString()));
        QVERIFY2(r.out.contains(QStringLiteral("\nDiagnosis [NAN_LOSS]: ")), qPrintable(r.out));
        // The steps before it still count, with their finite losses.
        QVERIFY2(s["steps"].toInt() >= 4, qPrintable(r.out));
    }
};

QTEST_GUILESS_MAIN(FailureDiagnosisTest)
#include "test_failure_diagnosis.moc"
