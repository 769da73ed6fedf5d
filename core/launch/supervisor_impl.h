#pragma once

// Supervisor's private state, shared by supervisor.cpp and supervisor_stall.cpp.

#include "launch/metrics_log.h"
#include "launch/process_control.h"
#include "launch/run_folder.h"
#include "launch/run_store.h"
#include "launch/script_output.h"
#include "launch/secret_file.h"
#include "launch/supervisor.h"
#include "launch/tensorboard_log.h"
#include "monitor/monitor_sampler.h"
#include "net/tcp_store_server.h"

#include <QByteArray>
#include <QProcess>
#include <QTimer>

#include <atomic>
#include <memory>
#include <thread>

namespace ddpdesk::launch {

struct StallDoctorLink;
// Called by ~Supervisor: a diagnosis still running is abandoned; its answer is dropped.
void abandonStallDoctor(const std::shared_ptr<StallDoctorLink>& link);

struct Supervisor::Worker {
    QProcess* process = nullptr;                   // owned by the Supervisor (QObject parent)
    QByteArray outBuf, errBuf;                     // partial lines
    bool outSkipping = false, errSkipping = false; // inside an over-long line
    bool exited = false;
    int signalled = 0; // 0 none, 1 terminate sent, 2 kill sent
    std::unique_ptr<ScriptOutputParser> parser;
    bool instrumented =
        false; // the instrumentation module's steps arrived: loss lines are then only log text
};

struct Failure {
    int index = -1;
    int exitCode = -1;
    bool peerLost = false; // failed because another rank died: a consequence, not the cause
    QString text;
};

struct Supervisor::Impl {
    ProcessGuard guard;
    MetricsLog log;
    TensorBoardLog tensorboard; // kept across restarts: one file per run
    QString tensorboardFile;    // stays after the run ends, for the end report
    std::vector<Worker> workers;
    int exited = 0;
    QString program;
    int scriptPort = 0;                               // MASTER_PORT of a script run
    std::unique_ptr<net::TcpStoreServer> scriptStore; // the loopback store a single-node script run joins
    QString instrumentDir; // holds ddpdesk_instrument.py for script ranks; empty: not instrumented
    QString stacksDir;     // the ranks' stacks files (stack_dump.h); empty: no rank can be asked
    QString runSecret;     // hex, handed to workers through the environment only (protocol/run_auth.h)
    RunStore store;   // the FileStore file this run created (supervisor.cpp: start, resetStore, finishRun)
    RunFolder folder; // the folders this run made
    SecretFile secretFile; // node 0 of a multi-node run: the secret for the other nodes' --run-secret-file
    QVector<Failure> failures;
    bool stopping = false;
    bool userStop = false;
    bool restartPending = false;
    QString stopReason;
    QTimer stallTimer, killTimer;
    bool stallReported = false;
    // The stall watch's doctor runs on a detached thread; this link is how its answer finds the Supervisor,
    // and the destructor cuts it instead of waiting for the diagnosis (supervisor_stall.cpp).
    std::shared_ptr<StallDoctorLink> doctorLink;
    std::atomic<bool> doctorBusy{false};
    std::unique_ptr<monitor::MonitorSampler> sampler; // supervisor_monitor.cpp

    // The rank to blame: the first failure that is not a mere consequence (PEER_LOST), else the first.
    const Failure& pickCulprit() const {
        for (const Failure& f : failures)
            if (!f.peerLost) return f;
        return failures.front();
    }
};

} // namespace ddpdesk::launch
