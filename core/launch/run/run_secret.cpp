// The run secret: which one a run uses, and how node 0 hands it to the other nodes.
#include "launch/run/run_secret.h"

#include "launch/config/launcher_flags.h"
#include "net/net_socket.h"
#include "protocol/run_auth.h"
#include "protocol/sha256.h"

#include <QDir>
#include <QStringList>

namespace ddpdesk::launch {

// The run secret: the one given (--run-secret / --run-secret-file, or $DDPDESK_RUN_SECRET), else a fresh one
// on node 0. A node above 0 cannot invent one: its ranks would be refused by node 0's as FOREIGN_RANK.
QString RunSecret::choose(const RunConfig& config, QVector<ConfigProblem>* problems) {
    QString given = config.runSecret;
    QString origin = QLatin1String(protocol::kRunSecretFlag);
    if (given.isEmpty()) {
        given = qEnvironmentVariable(protocol::kRunSecretEnv);
        origin = QStringLiteral("$") + QLatin1String(protocol::kRunSecretEnv);
    }
    if (!given.isEmpty()) {
        std::string raw, error;
        if (!protocol::decodeRunSecret(given.toStdString(), &raw, &error)) {
            problems->push_back({QStringLiteral("run-secret"),
                                 origin + QStringLiteral(": ") + QString::fromStdString(error)});
            return {};
        }
        return QString::fromStdString(protocol::toHex(raw));
    }
    if (const auto missing = config.missingRunSecret(); !missing.isEmpty()) {
        *problems += missing;
        return {};
    }
    return QString::fromStdString(protocol::newRunSecretHex());
}

// Multi-node: say once that the store is open to the network, and (node 0) how the other nodes join.
void RunSecret::announce(const RunConfig& config, const QString& outDir, const QString& secret,
                         const std::function<void(const QString&)>& message) {
    if (config.nnodes <= 1) return;
    const QString store = config.effectiveStore();
    const QString where = config.storeIsTcp()
                              ? QStringLiteral("%1:%2").arg(config.storeHost()).arg(config.storePort())
                              : config.storeFilePath();
    // A loopback store (every "node" on this machine: a demo, a test) is not on the network; saying so would
    // send the user to a firewall that has nothing to do with this run.
    const QString host = config.storeIsTcp() ? config.storeHost() : QString();
    const bool loopback = host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0 ||
                          net::isLoopbackAddress(host.toStdString());
    if (loopback)
        message(
            tr("note: multi-node run: the store %1 is unauthenticated, and on loopback (%2): only processes "
               "on this machine reach it, so every node of this run must run here too.")
                .arg(store, where));
    else
        message(
            tr("warning: multi-node run: the store %1 is unauthenticated and reachable from the network "
               "(%2); anyone who reaches it can read what the ranks write there. Allow its port and Gloo's "
               "ports only from the other nodes (README, Security model).")
                .arg(store, where));
    if (config.nodeRank != 0 || config.isScript()) return;
    // The secret goes to the other nodes in a file only its owner can read, never on a command line: there
    // every user of that machine would see it in the process list.
    QString why;
    if (!m_file.write(outDir, secret, &why)) {
        message(tr("warning: the run secret could not be saved for the other nodes (%1); start node 0 "
                   "with %2 FILE and give the other nodes the same file")
                    .arg(why, QLatin1String(protocol::kRunSecretFileFlag)));
        return;
    }
    message(tr("other nodes join with (N = 1..%1; first copy %2 to each node, readable only by you "
               "there too: chmod 600):\n  %3")
                .arg(config.nnodes - 1)
                .arg(QDir::toNativeSeparators(m_file.path()), joinCommandLine(config, m_file.path())));
}

} // namespace ddpdesk::launch
