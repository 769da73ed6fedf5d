#include "launch/nodes/node_link_feed.h"

#include "net/net_socket.h"
#include "os/utf8_path.h"
#include "protocol/json_fields.h"
#include "protocol/node_link.h"
#include "protocol/run_auth.h"
#include "protocol/store_spec.h"
#include "protocol/telemetry.h"
#include "protocol/utf8.h"

#include <QDir>
#include <QElapsedTimer>
#include <QMetaObject>

#include <algorithm>
#include <iterator>

namespace ddpdesk::launch {

namespace nl = protocol::node_link;

namespace {

bool isRunEnd(const nlohmann::json& e) {
    const protocol::JsonFields f(e);
    return f.text(protocol::field::Event) == protocol::ev::RunEnd &&
           f.text(protocol::field::Source) == "launcher";
}

QString runEndStatus(const nlohmann::json& e) {
    const nlohmann::json* summary = protocol::JsonFields(e).object(protocol::field::Summary);
    if (!summary) return QStringLiteral("?");
    return QString::fromStdString(
        protocol::printableLine(protocol::JsonFields(*summary).text("status", "?"), 16));
}

} // namespace

NodeLinkFeed::NodeLinkFeed(QObject& owner, Hooks hooks) : m_owner(owner), m_hooks(std::move(hooks)) {
    m_drain.setObjectName(QStringLiteral("node link inbox"));
    m_more.setObjectName(QStringLiteral("node link inbox, rest"));
    m_drain.setInterval(50);
    QObject::connect(&m_drain, &QTimer::timeout, &m_owner, [this] { drain(); });
    m_more.setSingleShot(true);
    m_more.setInterval(0);
    QObject::connect(&m_more, &QTimer::timeout, &m_owner, [this] { drain(); });
    m_watch.setInterval(500);
    QObject::connect(&m_watch, &QTimer::timeout, &m_owner, [this] { watchContacts(); });
}

NodeLinkFeed::~NodeLinkFeed() {
    close();
}

link::NodeLinkServerHooks NodeLinkFeed::hubHooks() {
    link::NodeLinkServerHooks h;
    h.connected = [this](int node, const std::string& host) {
        post({Inbound::Connected, node, host, {}, {}});
    };
    h.events = [this](int node, std::vector<nlohmann::json>& events, std::uint64_t) {
        for (nlohmann::json& e : events)
            post({Inbound::Event, node, {}, {}, std::move(e)});
    };
    h.disconnected = [this](int node, const std::string& why) { post({Inbound::Lost, node, {}, why, {}}); };
    h.refused = [this](const std::string& who, const std::string& why) {
        post({Inbound::Refused, -1, who, why, {}});
    };
    return h;
}

link::NodeLinkClientHooks NodeLinkFeed::nodeHooks() {
    link::NodeLinkClientHooks h;
    h.status = [this](const std::string& text) { post({Inbound::Refused, -2, {}, text, {}}); };
    h.control = [this](const nlohmann::json& request) { post({Inbound::Event, 0, {}, {}, request}); };
    return h;
}

void NodeLinkFeed::start(const RunConfig& config, const QString& secretHex) {
    close();
    m_contacts.clear();
    m_nodeRank = config.nodeRank;
    if (config.nnodes < 2) return;
    if (!config.nodeLink) {
        m_hooks.message(tr("node link: off (--no-node-link); each node shows its own ranks"));
        return;
    }
    const protocol::StoreSpec spec = protocol::parseStoreSpec(config.effectiveStore().toStdString());
    std::string secret, why;
    if (!protocol::decodeRunSecret(secretHex.toStdString(), &secret, &why)) {
        m_hooks.message(
            tr("node link: off, the run has no usable secret (%1)").arg(QString::fromStdString(why)));
        return;
    }
    const bool started = spec.kind == protocol::StoreSpec::Kind::File ? startFolder(config, spec, secret)
                                                                      : startTcp(config, spec, secret);
    if (!started) return;
    if (config.nodeRank == 0)
        for (int node = 1; node < config.nnodes; ++node)
            m_contacts.push_back({node, QString(), false, 0, false, false, QString()});
    m_drain.start();
    m_watch.start();
}

bool NodeLinkFeed::startFolder(const RunConfig& config, const protocol::StoreSpec& spec,
                               const std::string& secret) {
    link::FolderLinkConfig c;
    c.folder = spec.path.parent_path() / nl::folderName(secret, spec.path.filename().string());
    c.secret = secret;
    c.nodeRank = config.nodeRank;
    c.run = {config.nnodes, config.worldSize(), config.nproc};
    c.hostName = net::localHostName();
    const QString folder = QDir::toNativeSeparators(QString::fromStdString(os::utf8(c.folder)));
    m_folder = std::make_unique<link::FolderLink>(c, hubHooks(), nodeHooks());
    if (config.nodeRank == 0)
        m_hooks.message(
            tr("node link: through the folder %1 beside the FileStore (the other nodes' launchers "
               "write their ranks' events there; only what is signed with the run's secret is "
               "read)")
                .arg(folder));
    else
        m_hooks.message(tr("node link: this node's events go to node 0 through the folder %1 beside the "
                           "FileStore")
                            .arg(folder));
    return true;
}

bool NodeLinkFeed::startTcp(const RunConfig& config, const protocol::StoreSpec& spec,
                            const std::string& secret) {
    if (spec.kind != protocol::StoreSpec::Kind::Tcp || spec.port < 0) return false;
    const int port = spec.port + nl::kPortOffset;
    if (config.nodeRank == 0) {
        const net::Resolved where = net::resolveHost(spec.host, std::chrono::seconds(2));
        std::string address;
        for (const std::string& a : where.addresses)
            if (net::isLocalAddress(a)) address = a;
        if (address.empty()) {
            m_hooks.message(tr("node link: off, the store's host %1 is not an address of this machine")
                                .arg(QString::fromStdString(spec.host)));
            return false;
        }
        link::NodeLinkServerConfig c;
        c.address = address;
        c.port = port;
        c.secret = secret;
        c.worldSize = config.worldSize();
        c.nproc = config.nproc;
        c.nnodes = config.nnodes;
        auto started = link::NodeLinkServer::start(c, hubHooks());
        if (!started.server) {
            m_hooks.message(tr("node link: cannot listen on %1:%2 (%3); each node shows its own ranks")
                                .arg(QString::fromStdString(address))
                                .arg(port)
                                .arg(QString::fromStdString(started.error)));
            return false;
        }
        m_server = std::move(started.server);
        m_hooks.message(
            tr("node link: listening on %1:%2 for the other nodes' launchers (multi-node run; only "
               "those that prove the run's secret are let in)")
                .arg(QString::fromStdString(address))
                .arg(port));
    } else {
        link::NodeLinkClientConfig c;
        c.host = spec.host;
        c.port = port;
        c.secret = secret;
        c.nodeRank = config.nodeRank;
        c.worldSize = config.worldSize();
        c.nproc = config.nproc;
        c.hostName = net::localHostName();
        m_client = std::make_unique<link::NodeLinkClient>(c, nodeHooks());
    }
    return true;
}

void NodeLinkFeed::close() {
    if (!m_client && !m_server && !m_folder) return;
    m_client.reset(); // its destructor gives the queue a second
    m_server.reset();
    m_folder.reset(); // a node's: its last events and node 0's reading of them, at most 2 s
    m_drain.stop();
    m_more.stop();
    m_watch.stop();
    drain(true);
}

void NodeLinkFeed::forward(const nlohmann::json& event) {
    if (!m_client && !(m_folder && m_nodeRank > 0)) return;
    std::string text = event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (m_client)
        m_client->push(std::move(text));
    else
        m_folder->push(std::move(text));
}

QVector<int> NodeLinkFeed::broadcast(const nlohmann::json& request) {
    QVector<int> reached;
    if (!isHub()) return reached;
    for (int node : m_server ? m_server->sendToAll(request) : m_folder->sendToAll(request))
        reached.push_back(node);
    return reached;
}

int NodeLinkFeed::stopLeadMs() const {
    if (!isHub()) return 0;
    return m_folder ? int(3 * protocol::node_link::kFolderPoll.count()) : 200;
}

void NodeLinkFeed::post(Inbound in) {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_inbox.size() >= kInboxEvents && in.kind == Inbound::Event) {
        ++m_inboxDropped;
        return;
    }
    m_inbox.push_back(std::move(in));
}

NodeContact& NodeLinkFeed::contact(int node) {
    for (NodeContact& c : m_contacts)
        if (c.node == node) return c;
    m_contacts.push_back({node, QString(), false, 0, false, false, QString()});
    return m_contacts.back();
}

// A few milliseconds of the inbox at a time, then back to the event loop (the rest right after it): at
// 100,000 events/s a whole 50 ms inbox would keep the window from repainting for tens of milliseconds.
void NodeLinkFeed::drain(bool all) {
    QElapsedTimer slice;
    slice.start();
    bool more = true;
    while (more && (all || slice.elapsed() < kDrainSliceMs)) {
        std::deque<Inbound> batch;
        std::uint64_t dropped = 0;
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            const std::size_t n = std::min(m_inbox.size(), kDrainChunk);
            batch.insert(batch.end(), std::make_move_iterator(m_inbox.begin()),
                         std::make_move_iterator(m_inbox.begin() + std::ptrdiff_t(n)));
            m_inbox.erase(m_inbox.begin(), m_inbox.begin() + std::ptrdiff_t(n));
            more = !m_inbox.empty();
            std::swap(dropped, m_inboxDropped);
        }
        if (dropped > 0)
            m_hooks.message(
                tr("node link: %1 event(s) of other nodes dropped: this launcher fell behind").arg(dropped));
        handle(batch);
    }
    if (more && !all) m_more.start();
}

void NodeLinkFeed::refusedMessage(double now, const QString& text) {
    constexpr int kRefusalsShown = 5;
    constexpr double kRefusalWindowS = 10.0;
    if (now - m_refusalWindowT >= kRefusalWindowS) {
        if (m_refusalsHidden > 0)
            m_hooks.message(
                tr("node link: %1 more refused connection(s) not shown one by one").arg(m_refusalsHidden));
        m_refusalWindowT = now;
        m_refusalsInWindow = m_refusalsHidden = 0;
    }
    if (++m_refusalsInWindow <= kRefusalsShown)
        m_hooks.message(text);
    else
        ++m_refusalsHidden;
}

void NodeLinkFeed::handle(std::deque<Inbound>& batch) {
    const double now = protocol::nowSeconds();
    for (Inbound& in : batch) {
        if (m_nodeRank > 0) { // node > 0: the link's word, or node 0's request
            if (in.kind == Inbound::Refused) {
                m_hooks.message(tr("node link: %1").arg(QString::fromStdString(in.text)));
                continue;
            }
            const protocol::JsonFields request(in.event);
            const std::string type = request.text(nl::field::Type);
            const QString reason =
                QString::fromStdString(protocol::printableLine(request.text(nl::field::Reason), 300));
            if (type == nl::type::Stop && m_hooks.stop) m_hooks.stop(reason);
            if (type == nl::type::Stacks && m_hooks.stacks) m_hooks.stacks(reason);
            continue;
        }
        if (in.kind == Inbound::Refused && in.node == -2) { // the folder link's own word
            m_hooks.message(tr("node link: %1").arg(QString::fromStdString(in.text)));
            continue;
        }
        if (in.kind == Inbound::Refused) {
            refusedMessage(now, tr("node link: refused %1: %2")
                                    .arg(QString::fromStdString(in.host), QString::fromStdString(in.text)));
            continue;
        }
        NodeContact& c = contact(in.node);
        if (in.kind == Inbound::Connected) {
            c.connected = true;
            c.host = QString::fromStdString(in.host);
            c.lastT = now;
            c.silentSaid = false;
            if (m_hooks.contact) m_hooks.contact(c, QString::fromLatin1(kConnected));
        } else if (in.kind == Inbound::Lost) {
            c.connected = false;
            // After its run_end the link closing is the node's end, already said.
            if (m_hooks.contact && !c.ended)
                m_hooks.contact(
                    c, QStringLiteral("%1: %2").arg(QLatin1String(kLost), QString::fromStdString(in.text)));
        } else {
            c.lastT = now;
            if (c.silentSaid && m_hooks.contact) m_hooks.contact(c, QString::fromLatin1(kConnected));
            c.silentSaid = false;
            if (m_hooks.event) m_hooks.event(in.node, in.event);
            if (isRunEnd(in.event)) {
                c.ended = true;
                c.endStatus = runEndStatus(in.event);
                if (m_hooks.contact)
                    m_hooks.contact(c, QStringLiteral("%1: %2").arg(QLatin1String(kEnded), c.endStatus));
            }
        }
    }
}

void NodeLinkFeed::watchContacts() {
    const double now = protocol::nowSeconds();
    for (NodeContact& c : m_contacts) {
        if (c.lastT <= 0 || c.ended || c.silentSaid || now - c.lastT < kNoContactS) continue;
        c.silentSaid = true;
        if (m_hooks.contact) m_hooks.contact(c, QString::fromLatin1(kNoContact));
    }
}

} // namespace ddpdesk::launch
