// The loopback store of a single-node script run, and the MASTER_PORT of its ranks.
#include "launch/run/script_store_host.h"

#include "launch/run/script_instrument.h"
#include "net/net_socket.h"
#include "net/tcp_store_server.h"
#include "protocol/store_spec.h"

namespace ddpdesk::launch {

ScriptStoreHost::ScriptStoreHost(QObject& owner, NoticeFn notice)
    : m_owner(owner), m_notice(std::move(notice)) {}

ScriptStoreHost::~ScriptStoreHost() = default;

// A single-node script run joins a store DDP Desk hosts on loopback, as torchrun's agent hosts one: otherwise
// the script's rank 0 would host it through Python's TCPStore, which listens on every interface. It needs the
// instrumentation module, which keeps PyTorch 2.4+'s client stores off libuv (builds without it refuse them).
bool ScriptStoreHost::hosts(const RunConfig& config) {
    return config.isScript() && config.nnodes == 1 && instrumentsScript(config);
}

bool ScriptStoreHost::prepare(const RunConfig& config, QString* why) {
    // A fresh store per attempt, as torchrun's agent makes one: PyTorch 2.x's env:// adds no attempt prefix,
    // so the last attempt's arrivals would count in the next.
    m_server.reset();
    if (!hosts(config)) {
        m_scriptPort = (config.isScript() && !config.storeIsTcp()) ? net::pickFreePort() : 0;
        return true;
    }
    const int port = config.storeIsTcp() ? config.storePort() : 0;
    // Called from the server's threads: handled on the owner's thread. The server is destroyed before this
    // host (close(), or with it), and the owner's queued calls go with the owner, so `this` is valid whenever
    // the queued call runs.
    auto started = net::TcpStoreServer::start("127.0.0.1", port, [this](const net::StoreNotice& n) {
        const QString code = QString::fromStdString(n.code), text = QString::fromStdString(n.text);
        QMetaObject::invokeMethod(
            &m_owner, [this, code, text] { m_notice(code, text); }, Qt::QueuedConnection);
    });
    if (!started.server) {
        *why = tr("cannot host the script's store on 127.0.0.1:%1: %2")
                   .arg(port > 0 ? QString::number(port) : QStringLiteral("any port"),
                        QString::fromStdString(started.error));
        return false;
    }
    m_server = std::move(started.server);
    m_scriptPort = m_server->port();
    return true;
}

void ScriptStoreHost::close() {
    m_server.reset();
}

int ScriptStoreHost::hostedPort() const {
    return m_server ? m_server->port() : 0;
}

QString ScriptStoreHost::diagnosisStore(const RunConfig& config) const {
    if (m_server) return QString::fromStdString(protocol::tcpStoreSpec("127.0.0.1", m_server->port()));
    return config.effectiveStore();
}

} // namespace ddpdesk::launch
