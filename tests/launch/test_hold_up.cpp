// Who holds the run up, from the ranks' collective records (core/launch/diagnose/hold_up.h) and their stacks
// (whereInUserCode): the rules on made-up records, the record file's format both ways, and the frame picked
// from a real faulthandler dump's shape. The live path (a real script, the launcher's watch) is
// launch.script_stacks's theRankEveryoneWaitsForIsNamed.
#include "launch/diagnose/hold_up.h"
#include "launch/diagnose/stack_dump.h"
#include "protocol/collective_progress.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace ddpdesk;
using launch::RankCollectives;

namespace {

RankCollectives rank(int r, std::int64_t entered, std::int64_t completed, double t) {
    RankCollectives c;
    c.rank = r;
    c.record.entered = entered;
    c.record.completed = completed;
    c.record.kind = "allreduce";
    c.record.detail = "bucket 2 of 3";
    c.record.bytes = 4100000;
    c.record.t = t;
    return c;
}

} // namespace

class HoldUpTest : public QObject {
    Q_OBJECT

private slots:
    void aRankBehindIsNamedAfterTheThreshold() {
        const double now = 1000;
        // Ranks 0, 2, 3 inside #57 since 4.2 s; rank 1 finished #56 and has not entered #57.
        const std::vector<RankCollectives> ranks{rank(0, 57, 56, now - 4.2), rank(1, 56, 56, now - 9),
                                                 rank(2, 57, 56, now - 4.0), rank(3, 57, 56, now - 3.9)};
        const auto h = launch::findHoldUp(ranks, now);
        QVERIFY(h);
        QCOMPARE(QString::fromStdString(h->code), QStringLiteral("RANK_BEHIND"));
        QCOMPARE(h->behind, std::vector<int>{1});
        QCOMPARE(h->waiting, (std::vector<int>{0, 2, 3}));
        QCOMPARE(h->number, std::int64_t(57));
        QVERIFY(qAbs(h->waitedS - 4.2) < 1e-9);
        QCOMPARE(QString::fromStdString(launch::describeCollective(*h)),
                 QStringLiteral("allreduce #57 (bucket 2 of 3, 4.1 MB)"));
        // Ordinary jitter (entered 1 s apart) is not a hold-up.
        QVERIFY(!launch::findHoldUp(ranks, now - 3));
    }

    void everyoneInsideIsAWaitForSomeoneElse() {
        const double now = 1000;
        std::vector<RankCollectives> ranks{rank(0, 12, 11, now - 20), rank(1, 12, 11, now - 16)};
        const auto h = launch::findHoldUp(ranks, now);
        QVERIFY(h);
        QCOMPARE(QString::fromStdString(h->code), QStringLiteral("COLLECTIVE_WAIT_ALL"));
        QVERIFY(h->behind.empty());
        QVERIFY(qAbs(h->waitedS - 16) < 1e-9);        // since the last one came in
        QVERIFY(!launch::findHoldUp(ranks, now - 5)); // a big allreduce on a slow link takes a while
    }

    // Issue 41: ranks inside the same numbered collective that is not the same one (rank 0 broadcasts where
    // rank 1 sums) can never finish: said as soon as a late rank would be, with what each waits in.
    void ranksInDifferentCollectivesAreAMismatch() {
        const double now = 1000;
        std::vector<RankCollectives> ranks{rank(0, 12, 11, now - 4), rank(1, 12, 11, now - 3)};
        ranks[0].record.kind = "broadcast";
        ranks[0].record.detail = "train.py:41";
        ranks[0].record.bytes = 400;
        const auto h = launch::findHoldUp(ranks, now);
        QVERIFY(h);
        QCOMPARE(QString::fromStdString(h->code), QStringLiteral("COLLECTIVE_MISMATCH"));
        QCOMPARE(h->each.size(), size_t(2));
        QCOMPARE(QString::fromStdString(h->each[0].kind), QStringLiteral("broadcast"));
        QCOMPARE(QString::fromStdString(h->each[0].detail), QStringLiteral("train.py:41"));
        QCOMPARE(QString::fromStdString(h->each[1].kind), QStringLiteral("allreduce"));
        QVERIFY(!launch::findHoldUp(ranks, now - 2)); // not before a late rank would be named
        // The same op with another size is a mismatch too; the same op and size is a wait for someone else.
        ranks[0].record.kind = "allreduce";
        QCOMPARE(QString::fromStdString(launch::findHoldUp(ranks, now)->code),
                 QStringLiteral("COLLECTIVE_MISMATCH"));
        ranks[0].record.bytes = ranks[1].record.bytes;
        QVERIFY(!launch::findHoldUp(ranks, now)); // under the 15 s of COLLECTIVE_WAIT_ALL
        QCOMPARE(QString::fromStdString(launch::findHoldUp(ranks, now + 20)->code),
                 QStringLiteral("COLLECTIVE_WAIT_ALL"));
    }

    // A ring allreduce lets a rank finish and move on while another still receives: node 0's rank 0 waits in
    // the next bucket's allreduce (#32) while its rank 1 still waits in the epoch-loss allreduce (#31), both
    // for a frozen node 1. Rank 1 waits too: it is not the one behind (launch.two_nodes produced exactly
    // this).
    void aRankWaitingInAnEarlierCollectiveIsNotBehind() {
        const double now = 1000;
        const std::vector<RankCollectives> ranks{rank(0, 32, 31, now - 17), rank(1, 31, 30, now - 18)};
        QVERIFY(
            !launch::findHoldUp(ranks, now - 12)); // not before the all-wait threshold, and never RANK_BEHIND
        const auto h = launch::findHoldUp(ranks, now);
        QVERIFY(h);
        QCOMPARE(QString::fromStdString(h->code), QStringLiteral("COLLECTIVE_WAIT_ALL"));
        QVERIFY(h->behind.empty());
        QCOMPARE(h->waiting, (std::vector<int>{0, 1}));
        QCOMPARE(h->number, std::int64_t(32));
        // The same rank 1 between collectives (computing, frozen, loading data) is the one behind.
        const auto behind = launch::findHoldUp({rank(0, 32, 31, now - 17), rank(1, 31, 31, now - 18)}, now);
        QVERIFY(behind);
        QCOMPARE(QString::fromStdString(behind->code), QStringLiteral("RANK_BEHIND"));
        QCOMPARE(behind->behind, std::vector<int>{1});
    }

    void movingRunsAreNotHeldUp() {
        const double now = 1000;
        // Between collectives (all completed), one ahead that finished (a broadcast root), or one rank only.
        QVERIFY(!launch::findHoldUp({rank(0, 5, 5, now - 60), rank(1, 5, 5, now - 60)}, now));
        QVERIFY(!launch::findHoldUp({rank(0, 6, 6, now - 60), rank(1, 5, 5, now - 60)}, now));
        QVERIFY(!launch::findHoldUp({rank(0, 6, 5, now - 60)}, now));
        QVERIFY(!launch::findHoldUp({rank(0, 0, 0, 0), rank(1, 0, 0, 0)}, now));
        // Some ranks already left #6 while others are inside it: it is completing.
        QVERIFY(!launch::findHoldUp({rank(0, 6, 6, now - 60), rank(1, 6, 5, now - 60)}, now));
    }

    void recordFileRoundTrip() {
        protocol::CollectiveRecord r;
        r.pid = 4242;
        r.entered = 7;
        r.completed = 6;
        r.kind = "broadcast";
        r.detail = std::string(1000, 'x'); // cut to fit
        r.bytes = 123;
        r.t = 1700000000.25;
        const std::string bytes = protocol::formatCollectiveRecord(r);
        QCOMPARE(bytes.size(), protocol::kCollectiveRecordBytes);
        QCOMPARE(bytes.back(), '\n');
        const auto back = protocol::parseCollectiveRecord(bytes);
        QVERIFY(back);
        QCOMPARE(back->entered, std::int64_t(7));
        QCOMPARE(back->completed, std::int64_t(6));
        QVERIFY(back->inside());
        QCOMPARE(back->kind, std::string("broadcast"));
        QCOMPARE(back->t, 1700000000.25);
        // Half-written (no newline yet), torn, foreign or impossible records are not read.
        QVERIFY(!protocol::parseCollectiveRecord(bytes.substr(0, 40)));
        QVERIFY(!protocol::parseCollectiveRecord("{\"entered\": 3, \"comp\n"));
        QVERIFY(!protocol::parseCollectiveRecord("hello\n"));
        QVERIFY(!protocol::parseCollectiveRecord("{\"entered\": 3, \"completed\": 4}\n"));
        QVERIFY(!protocol::parseCollectiveRecord("{\"entered\": -1, \"completed\": 0}\n"));
        // What the Python module writes (json.dumps, padded) reads the same.
        const auto py = protocol::parseCollectiveRecord("{\"pid\": 9, \"entered\": 4, \"completed\": 3, "
                                                        "\"kind\": \"allreduce\", \"bytes\": 36, \"detail\": "
                                                        "\"DDP gradients\", \"t\": 1.5}          \n");
        QVERIFY(py && py->entered == 4 && py->detail == "DDP gradients" && py->bytes == 36);
    }

    // DDP Desk's own counts see nothing wrong (neither rank inside a collective it counts); the Flight
    // Recorder's say rank 0 waits in #9 that rank 1 has not entered: the hold-up comes from them. A rank
    // without Flight Recorder counts leaves them unused.
    void theFlightRecordersCountsNameWhatTheOwnCountsMiss() {
        const double now = 1000;
        std::vector<RankCollectives> ranks{rank(0, 3, 3, now - 20), rank(1, 3, 3, now - 20)};
        QVERIFY(!launch::findHoldUpByAnyCount(ranks, now));
        protocol::CollectiveRecord::Flight waiting{9, 8, 8, "allreduce", now - 3.4};
        protocol::CollectiveRecord::Flight behind{8, 8, 4, "broadcast", now - 30};
        ranks[0].record.flight = waiting;
        QVERIFY(!launch::findHoldUpByAnyCount(ranks, now)); // rank 1 has none: not comparable
        ranks[1].record.flight = behind;
        const auto h = launch::findHoldUpByAnyCount(ranks, now);
        QVERIFY(h);
        QCOMPARE(QString::fromStdString(h->code), QStringLiteral("RANK_BEHIND"));
        QCOMPARE(h->behind, std::vector<int>{1});
        QCOMPARE(QString::fromStdString(launch::describeCollective(*h)),
                 QStringLiteral("allreduce #9 (PyTorch's Flight Recorder, 8 bytes)"));
        // Its own counts come first where they see a hold-up.
        ranks[0].record.entered = 4;
        ranks[0].record.t = now - 5;
        QCOMPARE(launch::findHoldUpByAnyCount(ranks, now)->number, std::int64_t(4));

        // The record file carries them both ways, as the Python module writes them.
        const auto py = protocol::parseCollectiveRecord(
            "{\"pid\": 9, \"entered\": 3, \"completed\": 3, \"kind\": \"allreduce\", \"bytes\": 36, "
            "\"detail\": \"DDP gradients\", \"t\": 1.5, \"fr_entered\": 9, \"fr_completed\": 8, "
            "\"fr_kind\": \"allreduce\", \"fr_bytes\": 8, \"fr_t\": 2.5}     \n");
        QVERIFY(py && py->flight);
        QCOMPARE(py->flight->entered, std::int64_t(9));
        QCOMPARE(py->flight->completed, std::int64_t(8));
        QCOMPARE(py->flight->bytes, std::int64_t(8));
        QCOMPARE(py->flightView()->detail, std::string("PyTorch's Flight Recorder"));
        const auto back = protocol::parseCollectiveRecord(protocol::formatCollectiveRecord(*py));
        QVERIFY(back && back->flight && back->flight->entered == 9 && back->flight->t == 2.5);
        QVERIFY(
            !protocol::parseCollectiveRecord(protocol::formatCollectiveRecord(protocol::CollectiveRecord{}))
                 ->flight);
    }

    // The main thread's innermost frame in the user's own code, with its source line; threads of PyTorch and
    // frames of the standard library and of DDP Desk's module are passed over.
    void whereInUserCodeReadsAFaulthandlerDump() {
        QTemporaryDir dir;
        const QString script = dir.filePath("train.py");
        QFile f(script);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("import time\n\ndef load():\n    time.sleep(30)\n");
        f.close();
        const QString dump =
            QStringLiteral(
                "Thread 0x00007f0000000001 (most recent call first):\n"
                "  File \"/usr/lib/python3.11/threading.py\", line 320 in wait\n"
                "  File \"/work/other.py\", line 9 in helper_thread\n\n"
                "Current thread 0x00007f0000000002 (most recent call first):\n"
                "  File \"/usr/lib/python3/dist-packages/torch/utils/data/x.py\", line 5 in fetch\n"
                "  File \"%1\", line 4 in load\n"
                "  File \"%1\", line 9 in <module>\n"
                "  File \"/run/.ddpdesk-python/ddpdesk_instrument.py\", line 403 in _run_as_main\n"
                "  File \"/run/.ddpdesk-python/ddpdesk_instrument.py\", line 446 in <module>\n")
                .arg(script);
        QCOMPARE(launch::whereInUserCode(dump), QStringLiteral("train.py:4 in load: time.sleep(30)"));
        // A worker's answer is one line of words.
        QCOMPARE(launch::whereInUserCode("\nwaiting 4.0 s in allreduce of bucket 2 of 3\nstep 7\n"),
                 QStringLiteral("waiting 4.0 s in allreduce of bucket 2 of 3"));
        QCOMPARE(launch::whereInUserCode(""), QString());
    }
};

QTEST_GUILESS_MAIN(HoldUpTest)
#include "test_hold_up.moc"
