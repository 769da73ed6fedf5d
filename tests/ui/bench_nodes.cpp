#include "bench_nodes.h"

#include "launch/link/node_link_client.h"
#include "launch/nodes/remote_ranks.h"
#include "protocol/node_link.h"
#include "protocol/run_auth.h"
#include "protocol/telemetry.h"

#include <QElapsedTimer>
#include <QThread>

#include <cmath>
#include <cstdio>

namespace ddpdesk::bench {

namespace {

constexpr int kStorePort = 29591; // the link listens on the store's port + 1; nothing listens on this one
const char* const kSecretHex = "5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed";

} // namespace

QByteArray stepLine(int rank, qint64 step, qint64 sent) {
    auto e = protocol::makeEvent(protocol::ev::Step, rank);
    e["epoch"] = 0;
    e["step"] = step;
    e["loss"] = 1.0 / std::sqrt(double(step)) + 0.01 * (sent % 7);
    e["samples"] = 64;
    e["step_ms"] = 1.0;
    e["compute_ms"] = 0.8;
    e["comm_wait_ms"] = 0.2;
    e["bytes_allreduced"] = 1 << 20;
    return QByteArray::fromStdString(protocol::encodeLine(e));
}

int runNodeChild(const QStringList& a) {
    if (a.size() < 6) return 2;
    const int node = a[0].toInt(), port = a[1].toInt(), rate = a[2].toInt(), perNode = a[3].toInt(),
              nodes = a[4].toInt();
    const double seconds = a[5].toDouble();
    launch::link::NodeLinkClientConfig c;
    c.host = "127.0.0.1";
    c.port = port;
    std::string why;
    if (!protocol::decodeRunSecret(kSecretHex, &c.secret, &why)) return 1;
    c.nodeRank = node;
    c.worldSize = nodes * perNode;
    c.nproc = perNode;
    c.hostName = "bench-node" + std::to_string(node);
    launch::link::NodeLinkClient client(c, {});
    std::vector<qint64> step(size_t(perNode), 0);
    qint64 sent = 0;
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < seconds * 1000) {
        const qint64 due = qint64(clock.elapsed() / 1000.0 * rate);
        for (; sent < due; ++sent) {
            const int local = int(sent % perNode);
            client.push(stepLine(node * perNode + local, ++step[size_t(local)], sent).toStdString());
        }
        QThread::msleep(10); // as a launcher's pipe reads arrive
    }
    std::fprintf(stderr, "node %d: %lld events pushed, %llu dropped\n", node, (long long)sent,
                 (unsigned long long)client.dropped());
    return 0;
}

NodeHub::NodeHub(QObject& owner, launch::RunModel& model, int nodes, int ranksPerNode)
    : m_model(model), m_nodes(nodes), m_ranksPerNode(ranksPerNode) {
    launch::NodeLinkFeed::Hooks hooks;
    hooks.message = [](const QString& text) { std::fprintf(stderr, "%s\n", qPrintable(text)); };
    hooks.event = [this](int, nlohmann::json& e) {
        launch::applyRemoteEvent(m_model, m_ranksPerNode, e);
        ++m_applied;
    };
    hooks.contact = [this](const launch::NodeContact& c, const QString& state) {
        m_model.setNodeContact(c.node, c.host, state, c.lastT);
    };
    m_feed = std::make_unique<launch::NodeLinkFeed>(owner, std::move(hooks));
}

NodeHub::~NodeHub() {
    for (auto& c : m_children)
        if (!c->waitForFinished(5000)) c->kill(), c->waitForFinished(2000);
    m_feed->close();
}

bool NodeHub::start(const QString& self, int rate, double seconds, QString* why) {
    launch::RunConfig config;
    config.nproc = m_ranksPerNode;
    config.nnodes = m_nodes;
    config.nodeRank = 0;
    config.store = QStringLiteral("tcp://127.0.0.1:%1").arg(kStorePort);
    config.outDir = QStringLiteral("unused");
    m_feed->start(config, QString::fromLatin1(kSecretHex));
    if (!m_feed->isHub()) {
        *why = QStringLiteral("the node link did not start (see above)");
        return false;
    }
    const int perNodeRate = rate / m_nodes;
    for (int node = 1; node < m_nodes; ++node) {
        auto child = std::make_unique<QProcess>();
        child->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        child->start(self, {QStringLiteral("--node-child"), QString::number(node),
                            QString::number(kStorePort + protocol::node_link::kPortOffset),
                            QString::number(perNodeRate), QString::number(m_ranksPerNode),
                            QString::number(m_nodes), QString::number(seconds)});
        if (!child->waitForStarted(10000)) {
            *why = QStringLiteral("could not start node %1's child: %2").arg(node).arg(child->errorString());
            return false;
        }
        m_children.push_back(std::move(child));
    }
    return true;
}

int NodeHub::connectedNodes() const {
    int n = 0;
    for (const launch::NodeContact& c : m_feed->contacts())
        n += c.connected;
    return n;
}

} // namespace ddpdesk::bench
