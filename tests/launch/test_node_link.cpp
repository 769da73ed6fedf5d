// The node link between the launchers of a multi-node run (core/launch/link, protocol/node_link.h) over real
// loopback sockets: a node's events reach node 0 tagged with its node, only its own ranks' events; node 0's
// stop reaches the node; and what any local process could try is refused and named: a launcher without the
// run's secret, a frame with a wrong MAC after an honest hello, a length prefix of 4 GiB, a connection that
// says nothing. A node 0 that never reads does not block the node: its queue stays bounded, the oldest
// dropped.
#include "launch/link/frame_io.h"
#include "launch/link/node_link_client.h"
#include "launch/link/node_link_server.h"
#include "link_test_seen.h"
#include "protocol/node_link.h"

#include <QElapsedTimer>
#include <QtTest>

#include <mutex>

using namespace ddpdesk;
using namespace ddpdesk::launch::link;
namespace nl = protocol::node_link;

namespace {

const std::string kSecret(32, 's');

std::unique_ptr<NodeLinkServer> startServer(LinkSeen& seen) {
    NodeLinkServerConfig c;
    c.address = "127.0.0.1";
    c.secret = kSecret;
    c.worldSize = 4;
    c.nproc = 2;
    c.nnodes = 2;
    auto r = NodeLinkServer::start(c, seen.hubHooks());
    return std::move(r.server);
}

NodeLinkClientConfig clientConfig(int port, const std::string& secret) {
    NodeLinkClientConfig c;
    c.host = "127.0.0.1";
    c.port = port;
    c.secret = secret;
    c.nodeRank = 1;
    c.worldSize = 4;
    c.nproc = 2;
    c.hostName = "node-b";
    return c;
}

// A raw connection that has read the challenge: what a hostile local process starts from.
struct Raw {
    std::unique_ptr<net::Connection> io;
    std::unique_ptr<FrameIo> frames;
    explicit Raw(int port) {
        io = net::connectTcp("127.0.0.1", port, net::Millis(2000)).connection;
        if (!io) return;
        frames = std::make_unique<FrameIo>(*io, kSecret, nl::Direction::Up);
        const auto body = frames->receiveBody(net::Clock::now() + net::Millis(2000));
        const auto text = body ? nl::unsignedPayload(*body) : std::nullopt;
        if (text) frames->setNonce(nlohmann::json::parse(*text).value("nonce", std::string()));
    }
    bool hello() {
        return frames->send(
            {{"type", "hello"}, {"v", 1}, {"node_rank", 1}, {"host", "raw"}, {"world_size", 4}, {"nproc", 2}},
            net::Clock::now() + net::Millis(2000));
    }
    bool refusedThenClosed() { // the server's unsigned refusal, then the end of the connection
        const auto body = frames->receiveBody(net::Clock::now() + net::Millis(3000));
        const auto text = body ? nl::unsignedPayload(*body) : std::nullopt;
        return text && text->find("\"refused\"") != std::string::npos && closedWithin(3000);
    }
    bool closedWithin(int ms) { // the server ended the connection
        char byte;
        return !io->recvExact(&byte, 1, net::Clock::now() + net::Millis(ms)) && io->peerClosed();
    }
};

} // namespace

class NodeLinkTest : public QObject {
    Q_OBJECT

private slots:
    void eventsOfANodesRanksArriveTaggedWithItsNode() {
        LinkSeen seen;
        auto server = startServer(seen);
        QVERIFY(server);
        std::vector<nlohmann::json> control;
        std::mutex controlMutex;
        NodeLinkClientHooks hooks;
        hooks.control = [&](const nlohmann::json& request) {
            std::lock_guard<std::mutex> lock(controlMutex);
            control.push_back(request);
        };
        {
            NodeLinkClient client(clientConfig(server->port(), kSecret), hooks);
            for (int rank : {2, 3, 0, -1}) // rank 0 is node 0's: node 1 cannot speak for it
                client.push(nlohmann::json{{"v", 1}, {"event", "step"}, {"rank", rank}, {"step", 7}}.dump());
            QVERIFY(seen.waitFor([&] { return seen.events.size() >= 3; }));
            QCOMPARE(seen.connected, std::vector<std::string>{"1@node-b"});
            QVERIFY(client.connected());
            // Node 0 stops the run: the node hears it.
            QCOMPARE(server->sendToAll({{"type", "stop"}, {"reason", "stopped on node 0"}}),
                     std::vector<int>{1});
            QVERIFY(seen.waitFor([&] {
                std::lock_guard<std::mutex> lock(controlMutex);
                return !control.empty();
            }));
            std::lock_guard<std::mutex> lock(controlMutex);
            QCOMPARE(control[0].value("reason", std::string()), std::string("stopped on node 0"));
        }
        std::lock_guard<std::mutex> lock(seen.mutex);
        QCOMPARE(seen.events.size(), size_t(3));
        std::vector<int> ranks;
        for (const auto& e : seen.events) {
            ranks.push_back(e.value("rank", -9));
            QCOMPARE(e.value("node", -9), 1);
        }
        QCOMPARE(ranks, (std::vector<int>{2, 3, -1}));
        QVERIFY(seen.refused.empty());
    }

    void aLauncherWithoutTheSecretIsRefusedAndNamed() {
        LinkSeen seen;
        auto server = startServer(seen);
        std::vector<std::string> said;
        std::mutex saidMutex;
        NodeLinkClientHooks hooks;
        hooks.status = [&](const std::string& text) {
            std::lock_guard<std::mutex> lock(saidMutex);
            said.push_back(text);
        };
        NodeLinkClient client(clientConfig(server->port(), std::string(32, 'x')), hooks);
        client.push(nlohmann::json{{"event", "step"}, {"rank", 2}}.dump());
        QVERIFY(seen.waitFor([&] { return !seen.refused.empty(); }));
        {
            std::lock_guard<std::mutex> lock(seen.mutex);
            QCOMPARE(seen.refused[0],
                     std::string("a launcher claiming node 1 on host node-b: its hello is not "
                                 "signed with this run's secret"));
            QVERIFY(seen.connected.empty() && seen.events.empty());
        }
        QVERIFY(seen.waitFor([&] {
            std::lock_guard<std::mutex> lock(saidMutex);
            return !said.empty() && said.back().find("refused this one") != std::string::npos;
        }));
        QVERIFY(!client.connected());
    }

    void aForgedFrameAfterAnHonestHelloEndsTheLink() {
        LinkSeen seen;
        auto server = startServer(seen);
        Raw raw(server->port());
        QVERIFY(raw.frames && !raw.frames->nonce().empty());
        QVERIFY(raw.hello());
        QVERIFY(raw.frames->receiveSigned(net::Clock::now() + net::Millis(2000))); // welcome
        // Events injected with a made-up MAC (what a process that saw the traffic but not the secret can
        // send).
        const std::string payload = R"({"type":"events","dropped":0,"events":[{"event":"step","rank":2}]})";
        const std::string bytes = nl::frameBytes(std::string(nl::kMacHexChars, 'a') + payload);
        QVERIFY(raw.io->sendAll(bytes.data(), bytes.size(), net::Clock::now() + net::Millis(2000)));
        QVERIFY(raw.closedWithin(3000));
        QVERIFY(seen.waitFor([&] { return !seen.disconnected.empty(); }));
        std::lock_guard<std::mutex> lock(seen.mutex);
        QVERIFY2(seen.disconnected[0].find("MAC is wrong") != std::string::npos,
                 seen.disconnected[0].c_str());
        QVERIFY(seen.events.empty());
    }

    // One message must not end a run: claims of the wrong type, before the MAC is checked (anyone who reaches
    // the port) and after it (a launcher of this run with a bug), are refused and named; node 0 goes on and
    // still lets the real node in. A newline in a claimed host never makes a log line of its own.
    void aHelloOfTheWrongTypesIsRefusedAndNodeZeroGoesOn() {
        LinkSeen seen;
        auto server = startServer(seen);
        {
            Raw raw(server->port());
            QVERIFY(raw.frames);
            const std::string body = std::string(64, '0') + R"({"type":"hello","node_rank":1,"host":5})";
            const std::string bytes = nl::frameBytes(body);
            QVERIFY(raw.io->sendAll(bytes.data(), bytes.size(), net::Clock::now() + net::Millis(2000)));
            QVERIFY(raw.refusedThenClosed());
        }
        {
            Raw raw(server->port());
            QVERIFY(raw.frames);
            const std::string body =
                std::string(64, '0') + R"({"type":"hello","node_rank":[1],"host":"evil\nnode link: forged"})";
            const std::string bytes = nl::frameBytes(body);
            QVERIFY(raw.io->sendAll(bytes.data(), bytes.size(), net::Clock::now() + net::Millis(2000)));
            QVERIFY(raw.refusedThenClosed());
        }
        {
            Raw raw(server->port()); // signed, so its fields are checked: a host that is not a string
            QVERIFY(raw.frames);
            QVERIFY(raw.frames->send(
                {{"type", "hello"}, {"v", 1}, {"node_rank", 1}, {"host", 5}, {"world_size", 4}, {"nproc", 2}},
                net::Clock::now() + net::Millis(2000)));
            QVERIFY(raw.refusedThenClosed());
        }
        QVERIFY(seen.waitFor([&] { return seen.refused.size() >= 3; }));
        {
            std::lock_guard<std::mutex> lock(seen.mutex);
            QCOMPARE(seen.refused[0],
                     std::string("a launcher claiming node 1 on host ?: its hello is not signed "
                                 "with this run's secret"));
            QVERIFY2(seen.refused[1].find('\n') == std::string::npos &&
                         seen.refused[1].find("evil?node link: forged") != std::string::npos,
                     seen.refused[1].c_str());
            QVERIFY2(seen.refused[2].find("field 'host' is an integer, not a string") != std::string::npos,
                     seen.refused[2].c_str());
            QVERIFY(seen.connected.empty());
        }
        NodeLinkClient client(clientConfig(server->port(), kSecret), {});
        client.push(nlohmann::json{{"event", "step"}, {"rank", 2}, {"step", 1}}.dump());
        QVERIFY2(seen.waitFor([&] { return !seen.events.empty(); }), seen.all().c_str());
        std::lock_guard<std::mutex> lock(seen.mutex);
        QCOMPARE(seen.connected, std::vector<std::string>({"1@node-b"}));
    }

    // A fake node 0 (anyone may listen where a node looks for it) whose challenge and requests have fields of
    // the wrong type: the node says so and keeps its run.
    void aFakeNodeZeroOfTheWrongTypesDoesNotEndTheNode() {
        auto listen = net::listenTcp("127.0.0.1", 0);
        QVERIFY(listen.listener);
        LinkSeen node;
        NodeLinkClient client(clientConfig(listen.listener->port(), kSecret), node.nodeHooks());
        for (const char* challenge :
             {R"({"type":"challenge","v":1,"nonce":5})", R"({"type":7})", R"([1,2])"}) {
            auto held = listen.listener->accept(net::Millis(5000));
            QVERIFY(held);
            FrameIo frames(*held, kSecret, nl::Direction::Down);
            std::size_t before = 0;
            {
                std::lock_guard<std::mutex> lock(node.mutex);
                before = node.status.size();
            }
            QVERIFY(frames.sendText(challenge, net::Clock::now() + net::Millis(2000), false));
            QVERIFY2(node.waitFor([&] { return node.status.size() > before; }), node.all().c_str());
        }
        // A fake node 0 that knows the secret and refuses with a reason of the wrong type.
        {
            auto held = listen.listener->accept(net::Millis(5000));
            QVERIFY(held);
            FrameIo frames(*held, kSecret, nl::Direction::Down);
            frames.setNonce("0123456789abcdef");
            QVERIFY(frames.send({{"type", "challenge"}, {"v", 1}, {"nonce", frames.nonce()}},
                                net::Clock::now() + net::Millis(2000), false));
            QVERIFY(frames.receiveBody(net::Clock::now() + net::Millis(3000)));
            QVERIFY(frames.send({{"type", "refused"}, {"why", {{"a", 1}}}},
                                net::Clock::now() + net::Millis(2000), false));
        }
        QVERIFY2(node.waitFor([&] {
            return !node.status.empty() && node.status.back().find("no reason given") != std::string::npos;
        }),
                 node.all().c_str());
        QVERIFY(!client.connected());
    }

    void aLyingLengthPrefixIsRefusedWithoutReadingIt() {
        LinkSeen seen;
        auto server = startServer(seen);
        Raw raw(server->port());
        QVERIFY(raw.frames);
        const unsigned char huge[4] = {0xff, 0xff, 0xff, 0xff};
        QVERIFY(raw.io->sendAll(huge, 4, net::Clock::now() + net::Millis(2000)));
        QVERIFY(raw.closedWithin(3000));
        QVERIFY(seen.waitFor([&] { return !seen.refused.empty(); }));
        std::lock_guard<std::mutex> lock(seen.mutex);
        QVERIFY2(seen.refused[0].find("announced 4294967295 bytes") != std::string::npos,
                 seen.refused[0].c_str());
    }

    void aConnectionThatSaysNothingIsDroppedAtTheHandshakeDeadline() {
        LinkSeen seen;
        auto server = startServer(seen);
        Raw raw(server->port());
        QVERIFY(raw.frames);
        QElapsedTimer t;
        t.start();
        QVERIFY(raw.closedWithin(9000));
        QVERIFY(t.elapsed() >= 3000); // the deadline, not at once
        QVERIFY(seen.waitFor([&] { return !seen.refused.empty(); }));
    }

    // Node 0 accepts but never reads or answers (stopped, or hostile): pushing never waits, the queue keeps
    // its bound by dropping the oldest events, and says how many.
    void aNodeZeroThatNeverReadsDoesNotHoldTheNodeUp() {
        auto listen = net::listenTcp("127.0.0.1", 0);
        QVERIFY(listen.listener);
        NodeLinkClientConfig c = clientConfig(listen.listener->port(), kSecret);
        c.maxQueuedBytes = 1 << 20;
        NodeLinkClient client(c, {});
        auto held = listen.listener->accept(net::Millis(5000));
        QVERIFY(held);
        const std::string event =
            nlohmann::json{{"event", "log"}, {"rank", 2}, {"text", std::string(1000, 'x')}}.dump();
        for (int i = 0; i < 20000; ++i)
            client.push(event);
        QVERIFY(!client.connected());
        QVERIFY2(client.dropped() >= 20000 - (1 << 20) / event.size(),
                 qPrintable(QString::number(client.dropped())));
    }
};

QTEST_GUILESS_MAIN(NodeLinkTest)
#include "test_node_link.moc"
