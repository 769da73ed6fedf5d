#pragma once

// Supervisor's parts (supervisor.cpp builds them, supervisor_nodes.cpp holds the multi-node side): each owns
// its own state; what is the run's own is here too. Private to those two files.

#include "launch/run/supervisor.h"

#include "launch/diagnose/failure_diagnosis.h"
#include "launch/model/json_bridge.h"
#include "launch/nodes/node_link_feed.h"
#include "launch/nodes/node_reports.h"
#include "launch/nodes/remote_ranks.h"
#include "launch/nodes/store_census_watch.h"
#include "launch/record/metrics_log.h"
#include "launch/run/monitor_feed.h"
#include "launch/run/rank_line_reader.h"
#include "launch/run/rank_processes.h"
#include "launch/run/rank_stacks.h"
#include "launch/run/run_ending.h"
#include "launch/run/run_folder.h"
#include "launch/run/run_secret.h"
#include "launch/run/run_store.h"
#include "launch/run/scaling_facts.h"
#include "launch/run/script_instrument.h"
#include "launch/run/script_store_host.h"
#include "launch/run/tensorboard_feed.h"
#include "launch/watch/collective_watch.h"
#include "launch/watch/stall_watch.h"
#include "launch/watch/straggler_watch.h"
#include "net/net_socket.h"
#include "protocol/node_link.h"
#include "protocol/telemetry.h"
#include "protocol/worker_codes.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcess>
#include <QSaveFile>
#include <QTimer>

namespace ddpdesk::launch {

using Failure = RunEnding::Failure;

// The parts, each owning its own state, and what is the run's own.
struct Supervisor::Impl {
    Impl(Supervisor& s, const RankLauncher::Factory& launcher);
    static RankLauncher::Events rankEvents(Supervisor& s, RankLineReader& lines);

    std::unique_ptr<RankLauncher> ranks; // RankProcesses unless a test gave another
    RankLineReader lines;
    RankStacks stacks;
    StallWatch stall;
    CollectiveWatch collectives;
    StragglerWatch stragglers;
    StoreCensusWatch storeCensus; // node 0: ranks of a node without our launcher, from the store
    MonitorFeed monitor;
    TensorBoardFeed tensorboard; // kept across restarts: one file per run
    ScriptStoreHost scriptStore;
    NodeLinkFeed nodes; // a multi-node run's link between the launchers

    MetricsLog log;
    RunStore store;      // the FileStore file this run created (start, resetStore, finishRun)
    RunFolder folder;    // the folders this run made
    RunSecret runSecret; // node 0 of a multi-node run: the file the other nodes' --run-secret-file names
    RunEnding ending;    // the failures, the culprit, the stop and a pending restart
};

} // namespace ddpdesk::launch
