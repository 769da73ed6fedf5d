// FileStore faults created for real: a missing folder, a lock held by another process, a store left by a
// killed python3-torch run (and the rename-aside fix on it), a live rank waiting alone that no process list
// reveals, node ranks above 0, files that are not stores (empty, random bytes, a symlink), and the reader
// checked against a file torch itself wrote.

#include "doctor_test_support.h"
#include "os/utf8_path.h"

#include "protocol/file_store_reader.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <filesystem>
#include <random>

using namespace ddpdesk::doctor;
using namespace ddpdesk::doctor::test;

namespace {

namespace fs = std::filesystem;

// A FileStore log as c10d writes it: uint32 little-endian length + key, then length + value, per record.
bool writeStore(const QString& path, const std::vector<std::pair<std::string, std::string>>& records) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return false;
    auto put = [&f](const std::string& b) {
        const quint32 n = qToLittleEndian(quint32(b.size()));
        f.write(reinterpret_cast<const char*>(&n), 4);
        f.write(b.data(), qint64(b.size()));
    };
    for (const auto& [k, v] : records) {
        put(k);
        put(v);
    }
    return true;
}

// Backdates the last write: a store older than the rendezvous timeout can no longer be waited on.
void age(const QString& path, int seconds) {
    fs::last_write_time(ddpdesk::os::pathFromUtf8(path.toStdString()),
                        fs::file_time_type::clock::now() - std::chrono::seconds(seconds));
}

QByteArray bytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

QStringList staleNames(const QString& folder) {
    return QDir(folder).entryList({QStringLiteral("*.stale-*")}, QDir::Files | QDir::System | QDir::Hidden);
}

const std::vector<std::pair<std::string, std::string>> kTwoRanks = {{"/default_pg/0/0/rank_0", "hostA"},
                                                                    {"/default_pg/0/0/rank_1", "hostB"}};

struct CliRun {
    int exitCode = -1;
    QString out, err;
};

CliRun cli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(DDPDESK_DOCTOR_CLI), QStringList{"doctor"} + args);
    CliRun r;
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished(5000);
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace

class TestDoctorFileStore : public QObject {
    Q_OBJECT

private slots:
    void readerMatchesTorchFileStore();
    void folderMissing();
    void shareThatStoppedAnswering();
    void lockedByAnotherProcess();
    void staleStoreFromKilledRun();
    void liveRankWaitingAloneIsNotStale();
    void nodeRankAboveZeroNeedsForce();
    void notAStoreIsNeverTouched();
    void symlinkAtStorePathIsRefused();
    void renameNeverOverwrites();
    void censusTrustsTheBarrierCounter();
    void cliRenamesAndRefuses();
};

void TestDoctorFileStore::readerMatchesTorchFileStore() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("store");
    // os._exit skips FileStore's destructor, which would bump "cleanup/" and delete the file.
    const QString script = QStringLiteral(
        "import os, sys, torch.distributed as d\n"
        "s = d.FileStore(sys.argv[1], 1)\n"
        "s.set('a', 'one'); s.add('n', 5); s.add('n', 2); s.set('gone', 'x'); s.delete_key('gone')\n"
        "os._exit(0)\n");
    QProcess p;
    p.start(python(), {"-c", script, path});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 0);

    ddpdesk::protocol::FileStoreContents c = ddpdesk::protocol::readFileStore(path.toStdString());
    QVERIFY2(c.ok, c.error.c_str());
    QVERIFY(!c.truncated);
    QCOMPARE(c.keys.size(), std::size_t(2));
    QCOMPARE(c.keys.at("/a"), std::string("one"));
    QCOMPARE(c.keys.at("/n"), std::string("7"));
    QVERIFY(!c.keys.count("/gone"));
    QVERIFY2(c.proven(), c.notProven.c_str());
}

void TestDoctorFileStore::folderMissing() {
    QTemporaryDir tmp;
    DoctorRequest r;
    r.store = "file:" + tmp.filePath("no/such/folder/store").toStdString();
    auto findings = diagnose(r);
    const Finding* f = find(findings, "FILESTORE_DIR_MISSING");
    QVERIFY2(f, dump(findings));
    QCOMPARE(f->severity, Severity::Error);
    QVERIFY(hasError(findings));
    QCOMPARE(f->evidence["folder"].get<std::string>(), tmp.filePath("no/such/folder").toStdString());
}

// A store on a share whose server went down: stat() blocks (a FUSE mount that never answers the kernel). The
// diagnosis must still end, within its bounds, and say so - for the library call and the CLI alike.
void TestDoctorFileStore::shareThatStoppedAnswering() {
    QTemporaryDir tmp;
    const QString mount = tmp.filePath("share");
    QVERIFY(QDir().mkpath(mount));
    const QString python = QStringLiteral("/usr/bin/python3");
    if (!QFileInfo::exists(python)) QSKIP("no /usr/bin/python3 to host the silent share");
    Fault share;
    if (!share.start(python, {DDPDESK_SILENT_SHARE, mount}, 30000)) {
        if (share.error().contains("unavailable:"))
            QSKIP(qPrintable("FUSE, which stands in for a dead network share, cannot be used here: " +
                             share.error()));
        QFAIL(qPrintable(share.error()));
    }
    const std::string store = QDir(mount).filePath("store").toStdString();

    DoctorRequest r;
    r.store = "file:" + store;
    r.probeTimeoutSec = 1;
    r.deadlineSec = 20;
    const auto findings = diagnose(r); // returning at all is the point: a plain stat() would never
    const Finding* f = find(findings, "FILESTORE_NOT_ANSWERING");
    QVERIFY2(f, dump(findings));
    QCOMPARE(f->severity, Severity::Error);
    QCOMPARE(f->evidence["path"].get<std::string>(), store);
    QCOMPARE(f->evidence["timeout_ms"].get<int>(), 1000);

    const CliRun run = cli({"--store", QString::fromStdString("file:" + store), "--timeout", "1", "--json"});
    QVERIFY2(run.exitCode > 0, qPrintable("the doctor CLI hung or crashed on the silent share: " + run.err));
    QVERIFY2(run.out.contains("FILESTORE_NOT_ANSWERING"), qPrintable(run.out));
}

void TestDoctorFileStore::lockedByAnotherProcess() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("store");
    Fault holder;
    QVERIFY2(holder.startHelper({"flock", path}), qPrintable(holder.error()));

    DoctorRequest r;
    r.store = "file:" + path.toStdString();
    auto findings = diagnose(r);
    const Finding* f = find(findings, "FILESTORE_LOCKED");
    QVERIFY2(f, dump(findings));
    QCOMPARE(f->severity, Severity::Error);
    QCOMPARE(f->evidence["pid"].get<qint64>(), holder.pid());
    QVERIFY2(f->evidence["process"].get<std::string>().rfind("python", 0) == 0, f->evidence.dump().c_str());
    QVERIFY(!find(findings, "FILESTORE_STALE"));

    auto fix = renameStaleStore(path.toStdString());
    QVERIFY2(!fix.ok, fix.message.c_str());
    QVERIFY(QFile::exists(path));

    holder.stop();
    QTest::qWait(1100); // older than the "just written" window
    findings = diagnose(r);
    QVERIFY2(!find(findings, "FILESTORE_LOCKED"), dump(findings));
    QVERIFY2(!hasError(findings), dump(findings)); // an empty leftover file is harmless
}

void TestDoctorFileStore::staleStoreFromKilledRun() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("store");
    DoctorRequest r;
    r.store = "file:" + path.toStdString();
    r.worldSize = 2;

    // Rank 0 of 2 alone: it publishes its Gloo keys, then waits for rank 1 forever.
    Fault rank0;
    QVERIFY2(rank0.launch(python(), {helperScript(), "rank", "file://" + path, "0", "2"}),
             qPrintable(rank0.error()));
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 60000 && !glooRankPublished(path, 0))
        QTest::qWait(200);
    QVERIFY2(glooRankPublished(path, 0), "rank 0 never wrote its Gloo keys");

    // While the rank lives the file is in use, not stale, and the fix refuses.
    auto findings = diagnose(r);
    QVERIFY2(!find(findings, "FILESTORE_STALE"), dump(findings));
    QVERIFY2(find(findings, "FILESTORE_IN_USE") || find(findings, "FILESTORE_LOCKED"), dump(findings));
    QVERIFY(!renameStaleStore(path.toStdString(), r).ok);
    r.rank = 0; // a second rank 0 for this live job
    findings = diagnose(r);
    const Finding* taken = find(findings, "RANK_DUPLICATE");
    QVERIFY2(taken, dump(findings));
    QCOMPARE(taken->evidence["rank"].get<int>(), 0);
    r.rank = -1;
    r.jobRunning = true;
    findings = diagnose(r);
    const Finding* missing = find(findings, "RANKS_MISSING");
    QVERIFY2(missing, dump(findings));
    QCOMPARE(missing->evidence["missing"], nlohmann::json::array({1}));

    rank0.stop(); // SIGKILL: no destructor, no cleanup
    QTest::qWait(1100);
    r.jobRunning = false;
    // 1 of 2 arrived a moment ago: a rank this machine cannot see may still wait on it, so it is not stale
    // yet.
    findings = diagnose(r);
    QVERIFY2(!find(findings, "FILESTORE_STALE"), dump(findings));
    const Finding* maybe = find(findings, "FILESTORE_MAYBE_LIVE");
    QVERIFY2(maybe && maybe->variant == "waiting", dump(findings));
    QVERIFY2(maybe->message.find("1 of 2 ranks arrived") != std::string::npos &&
                 maybe->message.find("ranks may wait up to 30 min: not stale yet") != std::string::npos,
             maybe->message.c_str());
    auto early = renameStaleStore(r.store, r);
    QVERIFY2(!early.ok && early.code == "NOT_STALE/waiting", early.message.c_str());
    QVERIFY(QFile::exists(path));

    age(path, 3600); // older than any rank waits (the default rendezvous timeout is 30 min)
    const QByteArray before = bytes(path);
    findings = diagnose(r);
    const Finding* stale = find(findings, "FILESTORE_STALE");
    QVERIFY2(stale, dump(findings));
    QCOMPARE(stale->severity, Severity::Error);
    QCOMPARE(stale->variant, std::string("expired"));
    QVERIFY(stale->evidence["size"].get<long long>() > 0);
    QVERIFY(stale->evidence["age_s"].get<double>() >= 3600.0);
    // Rank 0's Gloo key: "/default_pg/0/0/rank_0" from PyTorch 1.x, "/default_pg/0//cpu//0/0" from 2.x.
    QVERIFY2(stale->evidence["ranks"]["arrived"] == nlohmann::json::array({0}),
             stale->evidence.dump().c_str());
    QVERIFY2(stale->evidence["keys"].dump().find(pythonTorchMajor() >= 2
                                                     ? "/default_pg/0//cpu//0/0"
                                                     : "/default_pg/0/0/rank_0") != std::string::npos,
             stale->evidence.dump().c_str());
    QVERIFY2(stale->message.find("longer than ranks wait in rendezvous (30 min)") != std::string::npos,
             stale->message.c_str());

    auto fix = renameStaleStore(r.store, r);
    QVERIFY2(fix.ok && fix.code == "RENAMED", fix.message.c_str());
    QVERIFY(!QFile::exists(path));
    const QString moved = QString::fromStdString(fix.newPath);
    QCOMPARE(QFileInfo(moved).absolutePath(), QFileInfo(path).absolutePath());
    QVERIFY2(QRegularExpression(QStringLiteral("^store\\.stale-\\d{8}-\\d{6}$"))
                 .match(QFileInfo(moved).fileName())
                 .hasMatch(),
             qPrintable(moved));
    QCOMPARE(bytes(moved), before);
    QVERIFY2(fix.message.find("Renamed") == 0 && fix.message.find(fix.newPath) != std::string::npos,
             fix.message.c_str());
    findings = diagnose(r);
    QVERIFY2(find(findings, "FILESTORE_READY") && !hasError(findings), dump(findings));
    r.jobRunning = true; // "the job is running" but its file is gone
    findings = diagnose(r);
    QVERIFY2(find(findings, "FILESTORE_GONE"), dump(findings));
}

// pytorch#67566's trap: rank 0 of 2 waits alone in Gloo's rendezvous, which only reads the file, and its
// store path is relative (on no command line in absolute form), so nothing here shows it lives. It must not
// be called stale.
void TestDoctorFileStore::liveRankWaitingAloneIsNotStale() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("store");
    QProcess rank0;
    rank0.setWorkingDirectory(tmp.path());
    rank0.start(python(), {helperScript(), "storerank", "store", "0", "2"});
    QVERIFY(rank0.waitForStarted(10000));
    auto cleanup = qScopeGuard([&] {
        rank0.kill();
        rank0.waitForFinished(10000);
    });
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 60000 && !glooRankPublished(path, 0))
        QTest::qWait(200);
    QVERIFY2(glooRankPublished(path, 0), "rank 0 never wrote its Gloo keys");
    QTest::qWait(1500); // past the "written just now" window: from here on rank 0 only reads
    QVERIFY(rank0.state() == QProcess::Running);
    const QByteArray before = bytes(path);

    DoctorRequest r;
    r.store = "file:" + path.toStdString();
    r.worldSize = 2;
    auto findings = diagnose(r);
    QVERIFY2(!find(findings, "FILESTORE_STALE") && !find(findings, "FILESTORE_ABANDONED"), dump(findings));
    QVERIFY2(find(findings, "FILESTORE_MAYBE_LIVE") || find(findings, "FILESTORE_IN_USE") ||
                 find(findings, "FILESTORE_LOCKED"),
             dump(findings));
    auto fix = renameStaleStore(r.store, r);
    QVERIFY2(!fix.ok && (fix.code == "NOT_STALE/waiting" || fix.code == "IN_USE"), fix.message.c_str());
    // Unknown world size: a young store is conservatively not stale either.
    DoctorRequest unknown = r;
    unknown.worldSize = 0;
    findings = diagnose(unknown);
    QVERIFY2(!find(findings, "FILESTORE_STALE"), dump(findings));
    QVERIFY(!renameStaleStore(unknown.store, unknown).ok);
    QVERIFY(QFile::exists(path));
    QVERIFY(staleNames(tmp.path()).isEmpty());

    // Rank 1 arrives (absolute path, another folder as cwd) and the waiting rank 0 completes its rendezvous.
    Fault rank1;
    QVERIFY2(rank1.startHelper({"storerank", path, "1", "2"}), qPrintable(rank1.error()));
    QByteArray out;
    t.restart();
    while (t.elapsed() < 60000 && !out.contains("ready initialized") && rank0.state() == QProcess::Running) {
        rank0.waitForReadyRead(200);
        out += rank0.readAllStandardOutput();
    }
    QVERIFY2(out.contains("ready initialized"), out.constData());
    QVERIFY(bytes(path).startsWith(before)); // the store only grew: nothing was removed under the ranks
}

void TestDoctorFileStore::nodeRankAboveZeroNeedsForce() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("shared.store");
    QVERIFY(writeStore(path, {{"/default_pg/0/0/rank_0", "hostA"}}));
    age(path, 3600);
    const QByteArray before = bytes(path);
    DoctorRequest r;
    r.store = "file:" + path.toStdString();
    r.worldSize = 2;
    r.nodeRank = 1;
    auto findings = diagnose(r);
    QVERIFY2(!find(findings, "FILESTORE_STALE"), dump(findings));
    const Finding* maybe = find(findings, "FILESTORE_MAYBE_LIVE");
    QVERIFY2(maybe && maybe->variant == "other_node", dump(findings));
    QCOMPARE(maybe->severity, Severity::Warning);
    QVERIFY2(maybe->message.find("this is node 1") != std::string::npos &&
                 maybe->message.find("another node") != std::string::npos,
             maybe->message.c_str());
    auto fix = renameStaleStore(r.store, r);
    QVERIFY2(!fix.ok && fix.code == "NOT_STALE/other_node", fix.message.c_str());
    QCOMPARE(bytes(path), before);

    r.force = true;
    findings = diagnose(r);
    QVERIFY2(find(findings, "FILESTORE_STALE"), dump(findings));
    fix = renameStaleStore(r.store, r);
    QVERIFY2(fix.ok, fix.message.c_str());
    QVERIFY(!QFile::exists(path));
    QCOMPARE(bytes(QString::fromStdString(fix.newPath)), before);

    // All ranks arrived and none runs here: stale even while young (on node 0).
    QVERIFY(writeStore(path, kTwoRanks));
    age(path, 5);
    r.force = false;
    r.nodeRank = 0;
    findings = diagnose(r);
    const Finding* stale = find(findings, "FILESTORE_STALE");
    QVERIFY2(stale && stale->variant == "complete", dump(findings));
    QVERIFY2(stale->message.find("2 of 2 ranks arrived") != std::string::npos, stale->message.c_str());
}

void TestDoctorFileStore::notAStoreIsNeverTouched() {
    QTemporaryDir tmp;
    const QString empty = tmp.filePath("empty.store");
    const QString noise = tmp.filePath("noise.store");
    const QString foreign = tmp.filePath("foreign.store");
    QVERIFY(QFile(empty).open(QIODevice::WriteOnly));
    {
        std::mt19937 gen(1234);
        QByteArray random(4096, '\0');
        for (auto& c : random)
            c = char(gen() & 0xff);
        QFile f(noise);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(random);
    }
    QVERIFY(writeStore(foreign, {{"title", "my notes"}})); // parses as records, but no key c10d writes
    for (const QString& path : {empty, noise, foreign}) {
        age(path, 7200);
        const QByteArray before = bytes(path);
        DoctorRequest r;
        r.store = "file:" + path.toStdString();
        r.worldSize = 2;
        auto findings = diagnose(r);
        QVERIFY2(!find(findings, "FILESTORE_STALE") && !find(findings, "FILESTORE_ABANDONED"),
                 dump(findings));
        QVERIFY2(find(findings, path == empty ? "FILESTORE_EMPTY" : "FILESTORE_NOT_A_STORE"), dump(findings));
        r.jobRunning = true;
        findings = diagnose(r);
        QVERIFY2(!find(findings, "FILESTORE_ABANDONED"), dump(findings));
        auto fix = renameStaleStore(r.store, r);
        QVERIFY2(!fix.ok && fix.code == "NOT_A_STORE", fix.message.c_str());
        QVERIFY2(fix.message.find(path.toStdString()) != std::string::npos, fix.message.c_str());
        QCOMPARE(bytes(path), before);
    }
    QVERIFY(staleNames(tmp.path()).isEmpty());
}

void TestDoctorFileStore::symlinkAtStorePathIsRefused() {
    QTemporaryDir tmp;
    const QString target = tmp.filePath("real.store");
    const QString link = tmp.filePath("store");
    QVERIFY(writeStore(target, kTwoRanks));
    age(target, 3600);
    QVERIFY(QFile::link(target, link));
    const QByteArray before = bytes(target);
    DoctorRequest r;
    r.store = "file:" + link.toStdString();
    r.worldSize = 2;
    auto findings = diagnose(r);
    const Finding* stale = find(findings, "FILESTORE_STALE");
    QVERIFY2(stale && stale->evidence.value("symlink", false), dump(findings));
    auto fix = renameStaleStore(r.store, r);
    QVERIFY2(!fix.ok && fix.code == "SYMLINK", fix.message.c_str());
    QVERIFY(QFileInfo(link).isSymLink());
    QCOMPARE(QFileInfo(link).symLinkTarget(), target);
    QCOMPARE(bytes(target), before);
    QVERIFY(staleNames(tmp.path()).isEmpty());
}

void TestDoctorFileStore::renameNeverOverwrites() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("store");
    QVERIFY(writeStore(path, kTwoRanks));
    age(path, 3600);
    const QByteArray before = bytes(path);
    // Occupy the names of this second and of 30 before and after it (a loaded machine may take seconds to get
    // to the rename, and a sandbox's clock was seen to step): files, and one dangling symlink, so neither
    // overwriting nor following a link can go unnoticed.
    const QDateTime now = QDateTime::currentDateTime();
    QStringList blockers;
    QList<int> offsets{0, 1, 2};
    for (int s = 3; s <= 30; ++s)
        offsets << s << -s;
    offsets << -1 << -2;
    for (int s : offsets)
        blockers << path + ".stale-" + now.addSecs(s).toString(QStringLiteral("yyyyMMdd-HHmmss"));
    for (int i = 0; i < blockers.size(); ++i) {
        if (i == 1) {
            QVERIFY(QFile::link(tmp.filePath("nowhere"), blockers[i]));
            continue;
        }
        QFile f(blockers[i]);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("keep me");
    }
    QVERIFY(QString::fromStdString(staleAsidePath(path.toStdString())).endsWith("-2"));
    DoctorRequest r;
    r.worldSize = 2;
    auto fix = renameStaleStore(path.toStdString(), r);
    QVERIFY2(fix.ok, fix.message.c_str());
    const QString moved = QString::fromStdString(fix.newPath);
    QVERIFY2(QRegularExpression(QStringLiteral("^store\\.stale-\\d{8}-\\d{6}-2$"))
                 .match(QFileInfo(moved).fileName())
                 .hasMatch(),
             qPrintable(moved));
    QCOMPARE(bytes(moved), before);
    QVERIFY(!QFile::exists(path));
    QCOMPARE(bytes(blockers[0]), QByteArray("keep me"));
    QVERIFY(QFileInfo(blockers[1]).isSymLink() && !QFile::exists(tmp.filePath("nowhere")));
    QCOMPARE(bytes(blockers[2]), QByteArray("keep me"));
}

// torch's store-based barrier counts ranks past init; with no per-rank keys the census must not call them
// missing.
void TestDoctorFileStore::censusTrustsTheBarrierCounter() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("store");
    QVERIFY(writeStore(path, {{"/default_pg/store_based_barrier_key:1", "1"},
                              {"/default_pg/store_based_barrier_key:1", "2"}}));
    age(path, 60);
    DoctorRequest r;
    r.store = "file:" + path.toStdString();
    r.worldSize = 2;
    r.jobRunning = true;
    auto findings = diagnose(r);
    QVERIFY2(!find(findings, "RANKS_MISSING"), dump(findings));
    QVERIFY2(find(findings, "RANKS_COMPLETE"), dump(findings));

    QVERIFY(writeStore(path, {{"/default_pg/store_based_barrier_key:1", "1"}}));
    age(path, 60);
    r.worldSize = 3;
    findings = diagnose(r);
    const Finding* missing = find(findings, "RANKS_MISSING");
    QVERIFY2(missing, dump(findings));
    QCOMPARE(missing->variant, std::string("counted_barrier"));
    QVERIFY2(missing->message.find(
                 "1 of 3 ranks arrived (by the barrier counter); which ones is not recorded") == 0,
             missing->message.c_str());
    QVERIFY2(missing->message.find("never joined") == std::string::npos, missing->message.c_str());
    QVERIFY2(!missing->evidence.contains("missing"), missing->evidence.dump().c_str());
    QCOMPARE(missing->evidence["arrived_count"].get<int>(), 1);
    QVERIFY2(!find(findings, "FILESTORE_STALE"),
             dump(findings)); // 1 of 3, a minute old: may still be waited on
}

void TestDoctorFileStore::cliRenamesAndRefuses() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("store");
    QVERIFY(writeStore(path, {{"/default_pg/0/0/rank_0", "hostA"}}));
    age(path, 120);
    const QString store = "file:" + path;
    auto run = cli({"--store", store, "--world-size", "2", "--rename-stale-store"});
    QCOMPARE(run.exitCode, 1); // 2 minutes old, 1 of 2: not stale under the default 30 min
    QVERIFY2(run.err.contains("not stale yet"), qPrintable(run.err));
    QVERIFY(QFile::exists(path));
    run = cli({"--store", store, "--world-size", "2", "--rendezvous-timeout", "60", "--node-rank", "1",
               "--delete-stale-store"});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains("this is node 1"), qPrintable(run.err));
    QVERIFY(QFile::exists(path));
    run = cli({"--store", store, "--world-size", "2", "--rendezvous-timeout", "60", "--node-rank", "1",
               "--force", "--delete-stale-store"}); // the old flag name, which renames as well
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    QVERIFY2(run.err.contains("Renamed the stale store file"), qPrintable(run.err));
    QVERIFY(!QFile::exists(path));
    QCOMPARE(staleNames(tmp.path()).size(), 1);
    run = cli({"--store", store, "--rendezvous-timeout", "0"});
    QVERIFY(run.exitCode != 0 &&
            run.exitCode != 1); // the driver gives CLI11's code; ddpdesk-cli maps it to 2
    QVERIFY2(run.err.contains("--rendezvous-timeout"), qPrintable(run.err));
}

QTEST_GUILESS_MAIN(TestDoctorFileStore)
#include "test_doctor_filestore.moc"
