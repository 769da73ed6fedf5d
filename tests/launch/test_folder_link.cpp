// The node link over a folder (core/launch/link/folder_link.h, protocol/node_link.h "Over a folder"), for a
// multi-node run whose store is a FileStore on a share: two real FolderLinks (node 0 and node 1) in one
// temporary folder, as two launchers on two machines see the share. A node's events reach node 0 tagged with
// its node, only its own ranks' events; node 0's stop reaches the node; the run's end leaves nothing in the
// folder. What anyone who can write to the share could try is refused and named: a frame without the run's
// MAC, a stream signed with another secret, a 4 GiB length prefix (read without allocating it). A stream a
// crashed run left behind is not followed. A node 0 that never reads costs the share a bounded number of
// segments: the rest is dropped and counted.
#include "launch/link/folder_link.h"
#include "launch/link/folder_stream.h"
#include "link_test_seen.h"
#include "protocol/node_link.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <thread>

#ifndef Q_OS_WIN
#include <sys/stat.h>
#endif

using namespace ddpdesk;
using namespace ddpdesk::launch::link;
namespace nl = protocol::node_link;
namespace fs = std::filesystem;

namespace {

const std::string kSecret(32, 'f');

FolderLinkConfig config(const fs::path& folder, int node, const std::string& secret = kSecret) {
    FolderLinkConfig c;
    c.folder = folder;
    c.secret = secret;
    c.nodeRank = node;
    c.run = {2, 4, 2};
    c.hostName = "host" + std::to_string(node);
    return c;
}

std::unique_ptr<FolderLink> startLink(const fs::path& folder, int node, LinkSeen& seen,
                                      const std::string& secret = kSecret) {
    return std::make_unique<FolderLink>(config(folder, node, secret), seen.hubHooks(), seen.nodeHooks());
}

std::string stepEvent(int rank, int step) {
    return nlohmann::json{{"event", "step"}, {"rank", rank}, {"step", step}}.dump();
}

std::vector<std::string> filesIn(const fs::path& folder) {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(folder, ec))
        names.push_back(e.path().filename().string());
    return names;
}

fs::path segmentOf(const fs::path& folder, int node) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(folder, ec)) {
        int n = 0;
        std::string session;
        std::uint64_t k = 0;
        if (nl::parseSegmentFileName(e.path().filename().string(), &n, &session, &k) && n == node)
            return e.path();
    }
    return {};
}

// A stream of node 1's written by hand: its hello, then a heartbeat every poll (so node 0 follows it) until
// `pred` holds of what node 0 reported (at most 8 s).
template <class F>
bool helloAndBeatUntil(FolderStreamWriter& w, const std::string& host, LinkSeen& seen, F pred) {
    if (!w.append(nlohmann::json{
            {"type", "hello"}, {"v", 1}, {"node_rank", 1}, {"host", host}, {"world_size", 4}, {"nproc", 2}}
                      .dump()))
        return false;
    return seen.waitFor(
        [&] {
            w.append(R"({"type":"events","events":[]})");
            return pred();
        },
        8000);
}

} // namespace

class FolderLinkTest : public QObject {
    Q_OBJECT

private slots:
    void eventsReachNodeZeroAndItsStopComesBack() {
        QTemporaryDir dir;
        const fs::path folder = fs::path(dir.path().toStdString()) / "store.ddpdesk-link-test";
        LinkSeen hub, node;
        // Node 1 first, as on a real job (node 0's store is not there yet): it makes the folder and waits.
        auto one = startLink(folder, 1, node);
        one->push(stepEvent(2, 1));
        one->push(stepEvent(0, 1)); // node 0's rank: not node 1's to say
        one->push(stepEvent(3, 1));
        QThread::msleep(300);
        auto zero = startLink(folder, 0, hub);
        QVERIFY2(hub.waitFor([&] { return hub.events.size() >= 2; }), hub.all().c_str());
        {
            std::lock_guard<std::mutex> lock(hub.mutex);
            QCOMPARE(hub.connected, std::vector<std::string>({"1@host1"}));
            QCOMPARE(hub.events.size(), std::size_t(2));
            QCOMPARE(hub.events[0]["rank"].get<int>(), 2);
            QCOMPARE(hub.events[1]["rank"].get<int>(), 3);
            QCOMPARE(hub.events[0]["node"].get<int>(), 1);
        }
        QElapsedTimer t;
        t.start();
        std::vector<int> reached = zero->sendToAll({{"type", "stop"}, {"reason", "stopped from node 0"}});
        QCOMPARE(reached, std::vector<int>({1}));
        QVERIFY2(node.waitFor([&] { return !node.control.empty(); }), node.all().c_str());
        qInfo("node 1 had node 0's stop %lld ms after it was sent", t.elapsed());
        QVERIFY(t.elapsed() < 5000);
        QCOMPARE(node.control[0]["reason"].get<std::string>(), std::string("stopped from node 0"));
        zero->sendToAll({{"type", "stacks"}, {"reason", "asked on node 0"}});
        QVERIFY2(node.waitFor([&] { return node.control.size() >= 2; }), node.all().c_str());
        QCOMPARE(node.control[1]["type"].get<std::string>(), std::string("stacks"));
        // Node 1 ends: its last events, then its stream's end; node 0 reads through and removes the segment.
        one->push(stepEvent(3, 2));
        one.reset();
        QVERIFY2(hub.waitFor([&] { return !hub.disconnected.empty(); }), hub.all().c_str());
        QCOMPARE(hub.events.back()["step"].get<int>(), 2);
        QCOMPARE(hub.disconnected[0], std::string("1: its launcher closed the link"));
        zero.reset();
        QVERIFY2(!fs::exists(folder),
                 (folder.string() + " left with: " + std::to_string(filesIn(folder).size())).c_str());
    }

    void aForgedFrameEndsTheStreamAndIsNamed() {
        QTemporaryDir dir;
        const fs::path folder = fs::path(dir.path().toStdString()) / "link";
        LinkSeen hub, node;
        auto zero = startLink(folder, 0, hub);
        auto one = startLink(folder, 1, node);
        QVERIFY2(hub.waitFor([&] { return !hub.connected.empty(); }), hub.all().c_str());
        // A frame signed with another key, appended by someone else who can write to the share.
        {
            std::ofstream out(segmentOf(folder, 1), std::ios::binary | std::ios::app);
            const std::string body =
                nl::signFrame(std::string(32, 'x'), "whatever", nl::Direction::Up, 1,
                              R"({"type":"events","events":[{"event":"step","rank":2}]})");
            out << nl::frameBytes(body);
        }
        QVERIFY2(hub.waitFor([&] { return !hub.disconnected.empty(); }), hub.all().c_str());
        QVERIFY2(hub.disconnected[0].find("not signed with this run's secret") != std::string::npos,
                 hub.disconnected[0].c_str());
        for (const auto& e : hub.events)
            QVERIFY(e.value("step", 0) == 0); // the forged step never came through
    }

    void aStreamOfAnotherSecretOrALyingLengthIsRefused() {
        QTemporaryDir dir;
        const fs::path folder = fs::path(dir.path().toStdString()) / "link";
        LinkSeen hub;
        auto zero = startLink(folder, 0, hub);
        QThread::msleep(200);
        // A writer with another secret in this run's folder, growing (so node 0 reads it).
        FolderStreamWriter forger(folder, std::string(32, 'x'), 1);
        QVERIFY2(helloAndBeatUntil(forger, "evil", hub, [&] { return !hub.refused.empty(); }),
                 hub.all().c_str());
        QVERIFY2(hub.refused[0].find("not signed with this run's secret") != std::string::npos,
                 hub.refused[0].c_str());
        QVERIFY(hub.connected.empty());
        // An honest hello, then a length prefix of 4 GiB: the stream ends, named, nothing that size is read.
        FolderStreamWriter liar(folder, kSecret, 1);
        QVERIFY2(helloAndBeatUntil(liar, "liar", hub, [&] { return !hub.connected.empty(); }),
                 hub.all().c_str());
        QCOMPARE(hub.connected[0], std::string("1@liar"));
        {
            std::ofstream out(folder / nl::segmentFileName(1, liar.session(), 0),
                              std::ios::binary | std::ios::app);
            out << std::string("\xff\xff\xff\xf0", 4) << std::string(64, '0');
        }
        QVERIFY2(hub.waitFor([&] { return !hub.disconnected.empty(); }), hub.all().c_str());
        QVERIFY2(hub.disconnected[0].find("a frame of 4294967280 bytes") != std::string::npos,
                 hub.disconnected[0].c_str());
    }

    void aStreamACrashedRunLeftIsNotFollowed() {
        QTemporaryDir dir;
        const fs::path folder = fs::path(dir.path().toStdString()) / "link";
        fs::create_directory(folder);
        FolderStreamWriter stale(folder, kSecret, 1);
        QVERIFY(
            stale.append(R"({"type":"hello","v":1,"node_rank":1,"host":"old","world_size":4,"nproc":2})"));
        QVERIFY(stale.append(
            nlohmann::json{{"type", "events"}, {"events", {nlohmann::json::parse(stepEvent(2, 99))}}}
                .dump()));
        LinkSeen hub, node;
        auto zero = startLink(folder, 0, hub);
        QThread::msleep(2500);
        auto one = startLink(folder, 1, node);
        one->push(stepEvent(2, 1));
        QVERIFY2(hub.waitFor([&] { return !hub.events.empty(); }), hub.all().c_str());
        QCOMPARE(hub.connected, std::vector<std::string>({"1@host1"}));
        for (const auto& e : hub.events)
            QVERIFY(e["step"].get<int>() != 99);
    }

    // One file anyone who can write to the share may put there, a segment header of the wrong types: refused
    // and named, node 0's launcher goes on (it once ended on nlohmann's type_error).
    void aSegmentHeaderOfTheWrongTypesIsRefused() {
        QTemporaryDir dir;
        const fs::path folder = fs::path(dir.path().toStdString()) / "link";
        LinkSeen hub, node;
        auto zero = startLink(folder, 0, hub);
        QThread::msleep(1300); // after node 0's first look: a stream that appears now is followed at once
        int k = 0;
        for (const char* header : {R"({"type":5})", R"({"type":"segment","v":1,"node":"1","session":7})"}) {
            const std::string body = std::string(64, '0') + header;
            std::ofstream(folder / ("node-1-00000000deadbee" + std::to_string(k++) + "-0.frames"),
                          std::ios::binary)
                << nl::frameBytes(body);
            QVERIFY2(hub.waitFor([&] { return hub.refused.size() >= std::size_t(k); }), hub.all().c_str());
            QVERIFY2(hub.refused.back().find("does not begin as its name says") != std::string::npos,
                     hub.all().c_str());
        }
        auto one = startLink(folder, 1, node); // the real node 1 still gets in
        one->push(stepEvent(2, 5));
        QVERIFY2(hub.waitFor([&] { return !hub.events.empty(); }), hub.all().c_str());
        QCOMPARE(hub.connected, std::vector<std::string>({"1@host1"}));
    }

    // The writer never follows a link put in place of its segment: it would append frames to any file the
    // user can write.
    void aLinkInPlaceOfASegmentIsNotWrittenThrough() {
        QTemporaryDir dir;
        const fs::path folder = fs::path(dir.path().toStdString()) / "link";
        fs::create_directory(folder);
        const fs::path victim = fs::path(dir.path().toStdString()) / "victim.txt";
        std::ofstream(victim) << "the user's own file\n";
        FolderStreamWriter w(folder, kSecret, 1);
        QVERIFY(w.append(R"({"type":"hello","v":1,"node_rank":1,"host":"h","world_size":4,"nproc":2})"));
        const fs::path segment = folder / nl::segmentFileName(1, w.session(), 0);
        QVERIFY(fs::remove(segment));
        fs::create_symlink(victim, segment);
        QVERIFY(!w.append(R"({"type":"events","events":[]})"));
        QVERIFY2(w.error().find("symbolic link") != std::string::npos, w.error().c_str());
        std::ifstream in(victim);
        std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        QCOMPARE(content, std::string("the user's own file\n"));
        // Nor is a name that is taken (by a link, even a dangling one) ever a new segment.
        FolderStreamWriter second(folder, kSecret, 1);
        fs::create_symlink(folder / "nowhere", folder / nl::segmentFileName(1, second.session(), 0));
        QVERIFY(!second.append(R"({"type":"events","events":[]})"));
        QVERIFY(!fs::exists(folder / "nowhere"));
    }

#ifndef Q_OS_WIN
    // A FIFO named like a segment: reading it would block the link's thread for good (std::ifstream did).
    void aFifoNamedLikeASegmentDoesNotHangTheReader() {
        QTemporaryDir dir;
        const fs::path folder(dir.path().toStdString());
        const std::string session = "00000000deadbeef";
        QCOMPARE(::mkfifo((folder / nl::segmentFileName(1, session, 0)).c_str(), 0600), 0);
        auto done = std::make_shared<std::atomic<int>>(0);
        auto error = std::make_shared<std::string>();
        std::thread([folder, session, done, error] {
            FolderStreamReader r(folder, kSecret, 1, session, false);
            r.poll();
            *error = r.error();
            *done = r.state() == FolderStreamReader::State::Broken ? 1 : 2;
        }).detach(); // if it hangs, the test fails and the process ends it
        QElapsedTimer t;
        t.start();
        while (*done == 0 && t.elapsed() < 5000)
            QThread::msleep(20);
        QVERIFY2(*done == 1, "the reader hung on a FIFO (or did not refuse it)");
        QVERIFY2(error->find("FIFO") != std::string::npos, error->c_str());
    }

    // FIFOs and folders named like segments in the link folder: node 0's scan goes past them (a size it could
    // not read once ended the scan) and still follows the real node.
    void aFifoOrFolderInTheLinkFolderDoesNotEndTheScan() {
        QTemporaryDir dir;
        const fs::path folder = fs::path(dir.path().toStdString()) / "link";
        fs::create_directory(folder);
        for (int i = 0; i < 24; ++i) {
            char session[17];
            std::snprintf(session, sizeof session, "%016x", 0x1000 + i);
            const fs::path p = folder / nl::segmentFileName(1, session, 0);
            if (i % 2)
                fs::create_directory(p);
            else
                QCOMPARE(::mkfifo(p.c_str(), 0600), 0);
        }
        LinkSeen hub, node;
        auto zero = startLink(folder, 0, hub);
        auto one = startLink(folder, 1, node);
        one->push(stepEvent(2, 1));
        QVERIFY2(hub.waitFor([&] { return !hub.events.empty(); }), hub.all().c_str());
        QCOMPARE(hub.connected, std::vector<std::string>({"1@host1"}));
    }
#endif

    // A stream named after node 1 by someone without the secret never replaces node 1's own: node 0 stays
    // with the real one (it once followed the forgery, refused it, and was blind to node 1 from then on).
    void aForgedStreamDoesNotReplaceAFollowedNode() {
        QTemporaryDir dir;
        const fs::path folder = fs::path(dir.path().toStdString()) / "link";
        LinkSeen hub, node;
        auto zero = startLink(folder, 0, hub);
        auto one = startLink(folder, 1, node);
        one->push(stepEvent(2, 1));
        QVERIFY2(hub.waitFor([&] { return !hub.events.empty(); }), hub.all().c_str());
        FolderStreamWriter forger(folder, std::string(32, 'x'), 1);
        QVERIFY2(helloAndBeatUntil(forger, "evil", hub, [&] { return !hub.refused.empty(); }),
                 hub.all().c_str());
        QVERIFY2(hub.refused[0].find("not signed with this run's secret") != std::string::npos,
                 hub.refused[0].c_str());
        one->push(stepEvent(3, 77));
        QVERIFY2(hub.waitFor([&] {
            for (const auto& e : hub.events)
                if (e.value("step", 0) == 77) return true;
            return false;
        }),
                 hub.all().c_str());
        QVERIFY2(hub.disconnected.empty(), hub.all().c_str());
        QCOMPARE(hub.connected, std::vector<std::string>({"1@host1"}));
    }

    // No node 0: the node's stream stops at kMaxUnreadSegments segments; what does not fit is dropped and
    // counted, and the node's push never waits.
    void aNodeZeroThatNeverReadsCostsBoundedSpace() {
        QTemporaryDir dir;
        const fs::path folder = fs::path(dir.path().toStdString()) / "link";
        LinkSeen node;
        auto one = startLink(folder, 1, node);
        const std::string pad(1000, 'p');
        QElapsedTimer t;
        t.start();
        qint64 slowestPushUs = 0;
        for (int i = 0; i < 60000; ++i) { // ~60 MB of events
            QElapsedTimer p;
            p.start();
            one->push(nlohmann::json{{"event", "log"}, {"rank", 2}, {"text", pad}}.dump());
            slowestPushUs = std::max(slowestPushUs, p.nsecsElapsed() / 1000);
            if (i % 6000 == 0) QThread::msleep(1000);
        }
        QThread::msleep(1500);
        std::uintmax_t bytes = 0;
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(folder, ec))
            bytes += e.file_size(ec);
        qInfo("%.1f MB in the folder, %llu events dropped, slowest push %lld us", bytes / 1e6,
              (unsigned long long)one->dropped(), slowestPushUs);
        QVERIFY(bytes <= std::uintmax_t(nl::kMaxUnreadSegments + 1) * nl::kSegmentBytes);
        QVERIFY(one->dropped() > 0);
        one.reset(); // nobody read: it removes its own segments and the folder
        QVERIFY(!fs::exists(folder));
    }
};

QTEST_GUILESS_MAIN(FolderLinkTest)
#include "test_folder_link.moc"
