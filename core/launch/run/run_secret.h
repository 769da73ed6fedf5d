#pragma once

// Owns the file that carries node 0's run secret to the other nodes of a multi-node run (secret_file.h), and
// chooses a run's secret: the one given, else a fresh one on node 0 (protocol/run_auth.h).

#include "launch/config/run_config.h"
#include "launch/run/secret_file.h"

#include <QCoreApplication>
#include <QString>
#include <QVector>

#include <functional>

namespace ddpdesk::launch {

class RunSecret {
    Q_DECLARE_TR_FUNCTIONS(ddpdesk::launch::Supervisor) // its texts keep the Supervisor's translations

public:
    // The run's secret (hex), or empty with the problems when it has none it can use.
    static QString choose(const RunConfig& config, QVector<ConfigProblem>* problems);
    // Multi-node: says once how far the store can be reached (the network, or loopback only), and (node 0)
    // how the other nodes join, with the secret saved for them in outDir. config: as the user wrote the
    // paths.
    void announce(const RunConfig& config, const QString& outDir, const QString& secret,
                  const std::function<void(const QString&)>& message);
    void release() { m_file.release(); } // the run is over: the secret file goes

private:
    SecretFile m_file;
};

} // namespace ddpdesk::launch
