// The table behind finding_texts.h. Every English text here is also a key in the GUI's translation catalogue
// (resources/translations/ddpdesk_ja.ts, context ddpdesk::ui::DoctorTexts): changing a byte of one makes its
// translation stale until lupdate and the translator catch up.

#include "doctor/finding_texts.h"

#include "protocol/finding_codes.h"

#include <utility>

// Marks a text for lupdate without needing Qt here (the doctor builds without it).
#ifndef QT_TRANSLATE_NOOP
#define QT_TRANSLATE_NOOP(scope, text) text
#endif

namespace ddpdesk::doctor {

namespace {

// Keyed by Finding::code and Finding::variant; docs/doctor.md lists the codes.
const FindingText kTexts[] = {
    {protocol::finding::WorldSizeMismatch, "invalid",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "World size %1 is not valid."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Use the total number of ranks over all nodes (1 or more).")},
    {protocol::finding::WorldSizeMismatch, "given",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "The ranks in this store were started with a different world size than the one "
                       "given."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Start every rank with the same --world-size (the total number of ranks).")},
    {protocol::finding::WorldSizeMismatch, "each_other",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "The ranks in this store were started with a different world size than "
                       "each other."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Start every rank with the same --world-size (the total number of ranks).")},
    {protocol::finding::WorldSizeMismatch, "ranks",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "The job in this store runs with a world size of at least %1, not %2."),
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "Start every rank with the same --world-size (the total number of ranks over all nodes).")},
    {protocol::finding::RankOutOfRange, "request",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Rank %1 is outside 0..%2 for world size %3."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Ranks run from 0 to world_size-1; check --rank and --world-size on every node.")},
    {protocol::finding::RankOutOfRange, "census",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Rank(s) %1 arrived, but with world size %2 ranks must be 0..%3."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Use ranks 0..world_size-1 and the same world size on every node.")},
    {protocol::finding::NodeRankInvalid, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Node rank %1 is not valid."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Node ranks start at 0 (the master node).")},
    {protocol::finding::StoreInvalid, "", QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Store address: %1."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Use file:PATH (one machine or a shared folder) or tcp://HOST:PORT.")},
    {protocol::finding::RanksNone, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "No rank has arrived in this store yet."), nullptr},
    {protocol::finding::RankDuplicate, "census",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Rank(s) %1 joined this store more than once: two launches (or a stale store from "
                       "an earlier run) share it."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Stop the other launch, or delete the stale store file and start once.")},
    {protocol::finding::RankDuplicate, "request",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Rank %1 has already joined this store; starting it again makes two processes "
                       "claim the same rank."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Give each process its own rank 0..world_size-1, or use a fresh store.")},
    {protocol::finding::RanksExcess, "",
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "More processes joined this store (%1) than the world size (%2): a stale store or a double "
         "launch; torch's store-based barrier then waits forever."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Stop the other launch that uses this store, or delete "
                                                   "the stale store file / pick a fresh port, then start "
                                                   "all ranks once.")},
    {protocol::finding::RanksMissing, "listed",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "%1 of %2 ranks arrived; rank(s) %3 never joined, so the others wait in rendezvous."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Start the missing rank(s) with the same store and world "
                                                   "size, or check why they failed (their log, their "
                                                   "node's reachability of the store).")},
    {protocol::finding::RanksMissing, "counted_barrier",
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "%1 of %2 ranks arrived (by the barrier counter); which ones is not recorded. The others "
         "wait in rendezvous."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Start the missing rank(s) with the same store and world "
                                                   "size, or check why they failed (their log, their "
                                                   "node's reachability of the store).")},
    {protocol::finding::RanksMissing, "counted_clients",
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "%1 of %2 ranks arrived (by the TCPStore's client counter); which ones is not recorded. "
         "The others wait in rendezvous."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Start the missing rank(s) with the same store and world "
                                                   "size, or check why they failed (their log, their "
                                                   "node's reachability of the store).")},
    {protocol::finding::RanksComplete, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "All %1 ranks arrived."), nullptr},
    {protocol::finding::RanksArrived, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "%1 rank(s) arrived; pass the world size to learn which are missing."),
     nullptr},
    {protocol::finding::RankExited, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Rank %1 (pid %2) arrived but has exited since."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Read that rank's log for its error; restart the job.")},
    {protocol::finding::NodeConnected, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Node %1 (%2): its launcher is connected to node 0, and its ranks %3 have reached "
                       "the store."),
     nullptr},
    {protocol::finding::NodeConnected, "reports",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Node %1 (%2): its launcher is connected to node 0 and reports: %3."),
     nullptr},
    {protocol::finding::NodeRanksNotArrived, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Node %1 (%2): its launcher is connected, but its ranks %3 have not reached the "
                       "store; its launcher reports: %4."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Read those ranks' logs on the Run page (node %1 forwards them): a rank that failed, "
                       "or one still loading its data or model, holds every other rank up.")},
    {protocol::finding::NodeSilent, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Node %1 (%2): no word from its launcher for %3 s, though it was connected."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Check that node %1 still runs (not suspended, not swapping, not out of memory) and "
                       "still reaches node 0's port %4.")},
    {protocol::finding::NodeSilent, "folder",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Node %1 (%2): no word from its launcher for %3 s, though it was connected."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Check that node %1 still runs (not suspended, not swapping, not out of memory) and "
                       "still reaches the shared folder %4 the store and the node link are in.")},
    {protocol::finding::NodeLost, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Node %1 (%2): its launcher lost its link to node 0 (%3); its ranks %4 can no longer "
                       "be seen from here."),
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "Check node %1: is its launcher still running, is the machine up, and does the network "
         "between the nodes work? Then start the job again on every node.")},
    {protocol::finding::NodeNotConnected, "store",
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "Node %1: its ranks %2 reached the store, but no DDP Desk launcher connected to node 0 "
         "for them: another launcher started them (torchrun, mpirun, a script), or theirs "
         "cannot reach node 0's port %3. What is known of them here comes from the store "
         "only."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "To watch them here, start node %1 with ddpdesk-cli (the command node 0 printed), or "
                       "allow TCP port %3 on node 0 from that node.")},
    {protocol::finding::NodeNotConnected, "nothing",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Node %1: neither its launcher nor its ranks %2 have reached node 0."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Start node %1 with the command node 0 printed, and check that it reaches node 0 on "
                       "the store's port %4 and the node link's port %3.")},
    {protocol::finding::NodeNotConnected, "store_folder",
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "Node %1: its ranks %2 reached the store, but no DDP Desk launcher of that node writes "
         "to the node link's folder in %3: another launcher started them (torchrun, mpirun, a "
         "script). What is known of them here comes from the store only."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "To watch them here, start node %1 with ddpdesk-cli (the command node 0 printed).")},
    {protocol::finding::NodeNotConnected, "nothing_folder",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Node %1: neither its launcher nor its ranks %2 have reached node 0."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Start node %1 with the command node 0 printed, and check that it sees the shared "
                       "folder %3 the store is in (the same share, reachable from that node).")},
    {protocol::finding::NodeEnded, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Node %1 (%2): its run ended (%3)."), nullptr},
    {protocol::finding::FileStoreDirMissing, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "The folder for the store file does not exist: %1 (c10d would wait on it until the "
                       "timeout instead of failing)."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Create the folder, or choose a store path in an existing folder.")},
    {protocol::finding::FileStoreNotAFile, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "%1 is a folder; the store needs a file path."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Use a file inside that folder, e.g. %2.")},
    {protocol::finding::FileStoreNotWritable, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "The store file cannot be written: %1."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Choose a folder every rank can write to (check permissions, read-only mounts and "
                       "network-share access).")},
    {protocol::finding::FileStoreGone, "",
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "The job is said to be running but its store file does not exist: it was deleted under the "
         "job (an early destroy_process_group, a cleanup, or a second launch on the same store: c10d's "
         "FileStore deletes the file once as many ranks as the world size have exited) or the path "
         "differs."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Check that every rank uses exactly this path and that no second launch shares it; "
                       "restart the job.")},
    {protocol::finding::FileStoreReady, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "The folder is writable and no old store file is in the way."),
     nullptr},
    {protocol::finding::FileStoreNotAStore, "", QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "%1."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Pick another store path; this file belongs to something else.")},
    {protocol::finding::FileStoreEmpty, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "An empty store file exists; c10d can reuse it."),
     nullptr},
    {protocol::finding::FileStoreAbandoned, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "No live process uses this store any more: the job has exited or was killed."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Restart the job; rename the store file aside first (it holds the old run's keys).")},
    {protocol::finding::FileStoreStale, "expired",
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "A store file from an earlier run is in the way (%1 keys, last written %4 s ago, longer "
         "than ranks wait in rendezvous (%5)); new ranks would mix with its keys and hang or "
         "miscount."),
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "Rename %3 aside (no live process uses it; it becomes NAME.stale-DATE-TIME), or choose a "
         "new path.")},
    {protocol::finding::FileStoreStale, "complete",
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "A store file from an earlier run is in the way (%1 keys, %4 of %5 ranks arrived and none "
         "is running here); new ranks would mix with its keys and hang or miscount."),
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "Rename %3 aside (no live process uses it; it becomes NAME.stale-DATE-TIME), or choose a "
         "new path.")},
    {protocol::finding::FileStoreMaybeLive, "other_node",
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "No process here is seen using the store file, but it is not stale: this is node %1: ranks "
         "on another node that shares this folder may still be waiting on the store, and this node "
         "cannot see them; only node 0 (or --force) calls it stale."),
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "Run the doctor on node 0, or pass --force once no node uses %2; or choose a new store "
         "path.")},
    {protocol::finding::FileStoreMaybeLive, "waiting",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "No process here is seen using the store file, but it is not stale: %1 of %2 ranks "
                       "arrived, last write %3 s ago; ranks may wait up to %4: not stale yet."),
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "If this run is wanted, start its missing ranks; if not, choose a new store path (or, once "
         "no rank waits, pass a shorter --rendezvous-timeout).")},
    {protocol::finding::FileStoreMaybeLive, "world_unknown",
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "No process here is seen using the store file, but it is not stale: %1 rank(s) arrived, "
         "last write %2 s ago, and the world size is unknown; ranks may wait up to %3: not stale "
         "yet."),
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "If this run is wanted, start its missing ranks; if not, choose a new store path (or, once "
         "no rank waits, pass a shorter --rendezvous-timeout).")},
    {protocol::finding::FileStoreLocked, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Another live process holds the store file: %1."),
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "End that process (or let its run finish), or pick another store path. If it is the job you want to "
         "diagnose, run the doctor with --running.")},
    {protocol::finding::FileStoreInUse, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "A live run is using this store file: %1."),
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "End that process (or let its run finish), or pick another store path. If it is the job you want to "
         "diagnose, run the doctor with --running.")},
    {protocol::finding::FileStoreLive, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "The job's store is live: %1."), nullptr},
    {protocol::finding::PortInUse, "store",
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "Port %1 is already taken by %2: a TCPStore of another job is listening there (%3 keys). "
         "The TCPStore on node 0 could not listen there (errno 98, address in use)."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Use a free port, e.g. %4, or end %2.")},
    {protocol::finding::PortInUse, "other",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Port %1 is already taken by %2: something that is not a TCPStore listens there (%3). "
                       "The TCPStore on node 0 could not listen there (errno 98, address in use)."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Use a free port, e.g. %4, or end %2.")},
    {protocol::finding::PortInUse, "bound",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Port %1 is already taken by %2: a socket is bound to it (not listening yet). The "
                       "TCPStore on node 0 could not listen there (errno 98, address in use)."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Use a free port, e.g. %4, or end %2.")},
    {protocol::finding::HostnameLoopback, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "This node's hostname '%1' resolves only to loopback (%2), so Gloo would advertise an "
                       "address other nodes cannot reach (they fail with 'connect [127.0.1.1]: Connection "
                       "refused'). Harmless while every rank runs on this machine."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "For multi-node runs set GLOO_SOCKET_IFNAME to this "
                                                   "node's network interface (e.g. eth0), or map the "
                                                   "hostname to the real address in /etc/hosts.")},
    {protocol::finding::PortInvalid, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "'%1' is not a usable TCP port (expected a number 1..65535)."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Use a port such as %2 (29500 is PyTorch's default).")},
    {protocol::finding::HostUnresolved, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "The store host '%1' does not resolve: %2."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Use the master node's IP address, or fix its name in DNS or the hosts file.")},
    {protocol::finding::MasterLoopback, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Node %1 would connect to %2, which is this machine itself, not the master node."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Use the master node's network address in the store address.")},
    {protocol::finding::StoreReachable, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "A TCPStore answers at %1:%2 (%3 keys)."), nullptr},
    {protocol::finding::DeadlineReached, "",
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "The diagnosis stopped at its deadline of %1 s while %2; the other findings are what it "
         "learned until then."),
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "Look at what was slow (%2), or run the doctor again with a longer deadline (ddpdesk-cli "
         "doctor --deadline SEC).")},
    {protocol::finding::StoreExposed, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "The store on port %1 listens on %2: anyone who can reach this machine can join as a "
                       "rank, read the store's keys or change them, and so stall or take over the run."),
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "Allow port %1 in the firewall only from the training nodes. Single-node runs need no "
         "network: use a FileStore (it never listens), or a loopback store (tcp://127.0.0.1:%1) "
         "with a LibTorch that hosts it on loopback only (2.3 or newer, not on Windows); PyTorch "
         "1.x's TCPStore listens on every interface whatever host it is given.")},
    // Sentences appended to a finding's message (Finding::notes): no fix of their own.
    {protocol::finding::Note, "rank0_hosts_store",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Rank 0 is counted without keys of its own: it hosts the TCPStore and waits in the "
                       "store's constructor until every rank has connected."),
     nullptr},
    {protocol::finding::Note, "not_all_ranks_probed",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Not all ranks probed: only ranks %1 were looked up one by one."),
     nullptr},
    {protocol::finding::StoreValueTooLarge, "",
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "The TCPStore at %1 announced %2 bytes for key '%3'; the doctor reads at most %4 bytes "
         "per value and stopped reading it. Rank records are small: something other than the job "
         "writes to this store. Not all ranks probed."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Check which program uses this store and port; give the job a store of its own.")},
    {protocol::finding::FileStoreNotAnswering, "",
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "The store path %1 does not answer: looking it up took longer than %2 ms, as on a network "
         "share whose server is down or unreachable. Ranks would hang on it."),
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "Check the share (its server, the network, the mount); or use a store path on a disk that "
         "answers.")},
    {protocol::finding::NotAStore, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Something listens at %1:%2 but does not answer like a c10d TCPStore: %3."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Check the port: another service owns it. Point every "
                                                   "rank at the port the master's TCPStore really uses.")},
    {protocol::finding::PortExcluded, "",
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "The OS refuses to let this node listen on port %1 (%2): on Windows it lies in an excluded "
         "port range (see 'netsh interface ipv4 show excludedportrange protocol=tcp'); on Linux "
         "ports below 1024 need privileges."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Pick a port outside those ranges, e.g. %3.")},
    {protocol::finding::PortFree, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Port %1 is free for the TCPStore."), nullptr},
    {protocol::finding::MasterRefused, "",
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "Nothing listens at %1:%2: the master (node 0, rank 0) has not started yet or has crashed."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Start node 0 first (it hosts the TCPStore), check it is "
                                                   "still running, and that every node uses the same "
                                                   "host and port.")},
    {protocol::finding::MasterTimeout, "",
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "No answer from %1:%2 within %3 ms: packets are dropped, typically by a firewall. Note that "
         "Gloo also opens further pairwise connections between all nodes on other (ephemeral) "
         "ports, so opening only the store port is not enough."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Allow the program (ddpdesk-worker / python) through the "
                                                   "firewall on every node rather than a single port, "
                                                   "and check that the master address is right.")},
    {protocol::finding::MasterUnreachable, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Cannot reach %1:%2: %3."),
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Check the network route to the master node and its "
                                                   "address.")},
};

// Outcomes of doctor::renameStaleStore, keyed by FixResult::code (its code and variant).
const FindingText kFixResults[] = {
    {protocol::fix_outcome::Renamed, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts",
                       "Renamed the stale store file %1 to %2 (nothing was deleted)."),
     nullptr},
    {protocol::fix_outcome::NotAFile, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Nothing to rename: %1 is not an existing file."),
     nullptr},
    {protocol::fix_outcome::Symlink, "",
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "Refused: %1 is a symbolic link; the fix never follows links, so neither the link nor its "
         "target is changed."),
     nullptr},
    {protocol::fix_outcome::NotAStore, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Refused: %1, so it is left as it is."), nullptr},
    {protocol::fix_outcome::InUse, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Refused: the store is in use (%1). End that run first."),
     nullptr},
    {protocol::fix_outcome::NotStale, "other_node",
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "Refused: this is node %1: ranks on another node that shares this folder may still be "
         "waiting on the store, and this node cannot see them; only node 0 (or --force) calls it "
         "stale."),
     nullptr},
    {protocol::fix_outcome::NotStale, "waiting",
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "Refused: %1 of %2 ranks arrived, last write %3 s ago; ranks may wait up to %4: not stale "
         "yet."),
     nullptr},
    {protocol::fix_outcome::NotStale, "world_unknown",
     QT_TRANSLATE_NOOP(
         "ddpdesk::ui::DoctorTexts",
         "Refused: %1 rank(s) arrived, last write %2 s ago, and the world size is unknown; ranks may "
         "wait up to %3: not stale yet."),
     nullptr},
    {protocol::fix_outcome::RenameFailed, "",
     QT_TRANSLATE_NOOP("ddpdesk::ui::DoctorTexts", "Could not rename %1: %2"), nullptr},
};

template <std::size_t N>
const FindingText* find(const FindingText (&table)[N], const std::string& code, const std::string& variant) {
    for (const FindingText& t : table)
        if (code == t.code && variant == t.variant) return &t;
    return nullptr;
}

// "CODE/variant" (or "CODE") split into code and variant.
std::pair<std::string, std::string> splitKey(const std::string& key) {
    const std::size_t slash = key.find('/');
    if (slash == std::string::npos) return {key, std::string()};
    return {key.substr(0, slash), key.substr(slash + 1)};
}

} // namespace

const FindingText* findingText(const std::string& code, const std::string& variant) {
    return find(kTexts, code, variant);
}

const FindingText* findingText(const std::string& key) {
    const auto [code, variant] = splitKey(key);
    return findingText(code, variant);
}

const FindingText* fixResultText(const std::string& code, const std::string& variant) {
    return find(kFixResults, code, variant);
}

const FindingText* fixResultText(const std::string& code) {
    const auto [outcome, variant] = splitKey(code);
    return fixResultText(outcome, variant);
}

std::string findingTextKey(const std::string& code, const std::string& variant) {
    return variant.empty() ? code : code + "/" + variant;
}

std::string fill(const char* pattern, const std::vector<std::string>& args) {
    std::string out;
    if (!pattern) return out;
    for (const char* p = pattern; *p; ++p) {
        if (p[0] == '%' && p[1] >= '1' && p[1] <= '9' && static_cast<std::size_t>(p[1] - '1') < args.size()) {
            out += args[static_cast<std::size_t>(p[1] - '1')];
            ++p;
        } else {
            out += *p;
        }
    }
    return out;
}

} // namespace ddpdesk::doctor
