#pragma once

// Owns a script run's rendezvous endpoint: the loopback store DDP Desk hosts for a single-node script run
// (fresh for each attempt, as torchrun's agent makes one) and the MASTER_PORT its ranks are given.

#include "launch/config/run_config.h"

#include <QCoreApplication>
#include <QString>

#include <functional>
#include <memory>

namespace ddpdesk::net {
class TcpStoreServer;
}

namespace ddpdesk::launch {

class ScriptStoreHost {
    Q_DECLARE_TR_FUNCTIONS(ddpdesk::launch::Supervisor) // its texts keep the Supervisor's translations

public:
    using NoticeFn = std::function<void(const QString& code, const QString& text)>;

    // owner: the thread the store server's notices are delivered on, and their context (gone with it).
    ScriptStoreHost(QObject& owner, NoticeFn notice);
    ~ScriptStoreHost();

    // Whether a run's ranks join a store DDP Desk hosts: a single-node, instrumented script run.
    static bool hosts(const RunConfig& config);

    // For the next attempt: a fresh hosted store (the last one closed), or a free MASTER_PORT for a script
    // run without one. False with *why when the store's port is taken.
    bool prepare(const RunConfig& config, QString* why);
    void close(); // nothing is listening any more (the MASTER_PORT stays)
    bool isHosted() const { return bool(m_server); }
    int hostedPort() const;                         // the hosted store's port; only while isHosted()
    int scriptPort() const { return m_scriptPort; } // MASTER_PORT of a script run; 0 for a worker run
    // The store the stall doctor reads: the hosted one where there is one.
    QString diagnosisStore(const RunConfig& config) const;

private:
    QObject& m_owner;
    NoticeFn m_notice;
    int m_scriptPort = 0;
    std::unique_ptr<net::TcpStoreServer> m_server;
};

} // namespace ddpdesk::launch
