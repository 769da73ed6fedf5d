// FileStore faults created for real: a missing folder, a lock held by another process, a store left by a killed
// python3-torch run (and the GUI's delete fix on it), and the reader checked against a file torch itself wrote.

#include "doctor_test_support.h"

#include "doctor/file_store_reader.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace ddpdesk::doctor;
using namespace ddpdesk::doctor::test;

class TestDoctorFileStore : public QObject {
    Q_OBJECT

private slots:
    void readerMatchesTorchFileStore();
    void folderMissing();
    void lockedByAnotherProcess();
    void staleStoreFromKilledRun();
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

    FileStoreContents c = readFileStore(path.toStdString());
    QVERIFY2(c.ok, c.error.c_str());
    QVERIFY(!c.truncated);
    QCOMPARE(c.keys.size(), std::size_t(2));
    QCOMPARE(c.keys.at("/a"), std::string("one"));
    QCOMPARE(c.keys.at("/n"), std::string("7"));
    QVERIFY(!c.keys.count("/gone"));
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

    auto fix = deleteStaleStore(path.toStdString());
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
    QVERIFY2(rank0.launch(python(), {helperScript(), "rank", "file://" + path, "0", "2"}), qPrintable(rank0.error()));
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 60000 && readFileStore(path.toStdString()).keys.size() < 2)
        QTest::qWait(200);
    QVERIFY2(readFileStore(path.toStdString()).keys.size() >= 2, "rank 0 never wrote its Gloo keys");

    // While the rank lives the file is in use, not stale, and the fix refuses.
    auto findings = diagnose(r);
    QVERIFY2(!find(findings, "FILESTORE_STALE"), dump(findings));
    QVERIFY2(find(findings, "FILESTORE_IN_USE") || find(findings, "FILESTORE_LOCKED"), dump(findings));
    QVERIFY(!deleteStaleStore(path.toStdString()).ok);
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
    findings = diagnose(r);
    const Finding* stale = find(findings, "FILESTORE_STALE");
    QVERIFY2(stale, dump(findings));
    QCOMPARE(stale->severity, Severity::Error);
    QVERIFY(stale->evidence["size"].get<long long>() > 0);
    QVERIFY(stale->evidence["age_s"].get<double>() >= 1.0);
    QVERIFY2(stale->evidence["keys"].dump().find("/default_pg/0/0/rank_0") != std::string::npos,
             stale->evidence.dump().c_str());

    auto fix = deleteStaleStore(r.store);
    QVERIFY2(fix.ok, fix.message.c_str());
    QVERIFY(!QFile::exists(path));
    findings = diagnose(r);
    QVERIFY2(find(findings, "FILESTORE_READY") && !hasError(findings), dump(findings));
    r.jobRunning = true; // "the job is running" but its file is gone
    findings = diagnose(r);
    QVERIFY2(find(findings, "FILESTORE_GONE"), dump(findings));
}

QTEST_GUILESS_MAIN(TestDoctorFileStore)
#include "test_doctor_filestore.moc"
