#pragma once

// Codes of what DDP Desk concludes, each spelled once: readers and writers use these names, not literals.
//   finding: the rendezvous doctor's findings (Finding::code: `ddpdesk-cli doctor --json`, the Doctor
//     page, the launcher's `stall` event); documented in docs/doctor.md. core/doctor raises and words them
//     (finding_texts.cpp, by code and variant); ui/ and app/ read them.
//   fix_outcome: what the doctor's rename-stale-store fix did (FixResult::code, "NOT_STALE/<why>" with its
//     variant); worded in finding_texts.cpp, translated by the GUI.
//   diagnosis: summary.json's diagnosis.code, the `diagnosis` event, the CLI's and the Run page's report;
//     documented in docs/launcher.md. core/launch/diagnose and the launcher's watches make them.

#include "protocol/worker_codes.h"

namespace ddpdesk::protocol {

// The doctor's findings (core/doctor; docs/doctor.md, "Findings").
namespace finding {
// The request itself
constexpr const char* StoreInvalid = "STORE_INVALID";
constexpr const char* WorldSizeMismatch = "WORLD_SIZE_MISMATCH";
constexpr const char* RankOutOfRange = "RANK_OUT_OF_RANGE";
constexpr const char* NodeRankInvalid = "NODE_RANK_INVALID";
// A FileStore
constexpr const char* FileStoreDirMissing = "FILESTORE_DIR_MISSING";
constexpr const char* FileStoreNotAFile = "FILESTORE_NOT_A_FILE";
constexpr const char* FileStoreNotWritable = "FILESTORE_NOT_WRITABLE";
constexpr const char* FileStoreNotAStore = "FILESTORE_NOT_A_STORE";
constexpr const char* FileStoreNotAnswering = "FILESTORE_NOT_ANSWERING";
constexpr const char* FileStoreGone = "FILESTORE_GONE";
constexpr const char* FileStoreReady = "FILESTORE_READY";
constexpr const char* FileStoreEmpty = "FILESTORE_EMPTY";
constexpr const char* FileStoreStale = "FILESTORE_STALE";
constexpr const char* FileStoreAbandoned = "FILESTORE_ABANDONED";
constexpr const char* FileStoreMaybeLive = "FILESTORE_MAYBE_LIVE";
constexpr const char* FileStoreLocked = "FILESTORE_LOCKED";
constexpr const char* FileStoreInUse = "FILESTORE_IN_USE";
constexpr const char* FileStoreLive = "FILESTORE_LIVE";
// A TCPStore: node 0's port, the master as other nodes see it
constexpr const char* PortInvalid = "PORT_INVALID";
// A finding of its own: the worker's error_code::PortInUse is another contract
constexpr const char* PortInUse = "PORT_IN_USE";
constexpr const char* PortExcluded = "PORT_EXCLUDED";
constexpr const char* PortFree = "PORT_FREE";
constexpr const char* HostUnresolved = "HOST_UNRESOLVED";
constexpr const char* HostnameLoopback = "HOSTNAME_LOOPBACK";
constexpr const char* MasterLoopback = "MASTER_LOOPBACK";
constexpr const char* MasterRefused = "MASTER_REFUSED";
constexpr const char* MasterTimeout = "MASTER_TIMEOUT";
constexpr const char* MasterUnreachable = "MASTER_UNREACHABLE";
constexpr const char* NotAStore = "NOT_A_STORE";
constexpr const char* StoreReachable = "STORE_REACHABLE";
constexpr const char* StoreExposed = "STORE_EXPOSED";
constexpr const char* StoreValueTooLarge = "STORE_VALUE_TOO_LARGE";
// The ranks a store shows
constexpr const char* RanksNone = "RANKS_NONE";
constexpr const char* RanksMissing = "RANKS_MISSING";
constexpr const char* RanksExcess = "RANKS_EXCESS";
constexpr const char* RanksComplete = "RANKS_COMPLETE";
constexpr const char* RanksArrived = "RANKS_ARRIVED";
constexpr const char* RankDuplicate = "RANK_DUPLICATE";
constexpr const char* RankExited = "RANK_EXITED";
// The other nodes as their launchers told node 0's (the node link)
constexpr const char* NodeConnected = "NODE_CONNECTED";
constexpr const char* NodeRanksNotArrived = "NODE_RANKS_NOT_ARRIVED";
constexpr const char* NodeSilent = "NODE_SILENT";
constexpr const char* NodeLost = "NODE_LOST";
constexpr const char* NodeNotConnected = "NODE_NOT_CONNECTED";
constexpr const char* NodeEnded = "NODE_ENDED";
// The diagnosis itself
constexpr const char* DeadlineReached = "DEADLINE_REACHED";
constexpr const char* DoctorFailed = "DOCTOR_FAILED"; // the GUI's: diagnose() threw
// Not a finding: the code of the sentences appended to one (Finding::notes, "NOTE/<variant>")
constexpr const char* Note = "NOTE";
} // namespace finding

// Outcomes of the doctor's fix doctor::renameStaleStore (FixResult::code).
namespace fix_outcome {
constexpr const char* Renamed = "RENAMED";
constexpr const char* NotAFile = "NOT_A_FILE";
constexpr const char* Symlink = "SYMLINK";
constexpr const char* NotAStore = "NOT_A_STORE";
constexpr const char* InUse = "IN_USE";
constexpr const char* NotStale = "NOT_STALE"; // with the variant why: "NOT_STALE/waiting"
constexpr const char* RenameFailed = "RENAME_FAILED";
} // namespace fix_outcome

// Run diagnoses the launcher makes while a run goes or when it ends (docs/launcher.md).
namespace diagnosis {
constexpr const char* RankBehind = "RANK_BEHIND"; // ranks wait in a collective others never entered
constexpr const char* CollectiveWaitAll = "COLLECTIVE_WAIT_ALL"; // every rank here waits in the same one
constexpr const char* NoTrainingSteps = "NO_TRAINING_STEPS";     // a run that ended ok without one step
constexpr const char* Straggler = "STRAGGLER"; // a rank's own work stays slower than the fastest rank's
// Why a run does not scale (launch/diagnose/scaling.h; summary.json `scaling`, sweep.csv), beside STRAGGLER
constexpr const char* CommBound = "COMM_BOUND"; // every rank waits on the gradient exchange
constexpr const char* DataBound = "DATA_BOUND"; // steps spend their time outside forward/backward
constexpr const char* CpuOversubscribed = "CPU_OVERSUBSCRIBED"; // threads x ranks > cores
constexpr const char* GpuShared = "GPU_SHARED";                 // two ranks on one GPU
constexpr const char* WrongInterface = "WRONG_INTERFACE"; // Gloo on loopback, a virtual or a slower adapter
constexpr const char* EachRankAlone = "EACH_RANK_ALONE";  // a script whose ranks never ran a DDP model
// Validation passes or checkpoint saves some ranks make and the others wait for (rank 0 evaluating alone)
constexpr const char* UnsharedWork = "UNSHARED_WORK";
// Known failure texts (core/launch/diagnose/failure_diagnosis.cpp, in its table's order): root causes
constexpr const char* NcclUnavailable = "NCCL_UNAVAILABLE";
constexpr const char* LibuvUnavailable = "LIBUV_UNAVAILABLE";
constexpr const char* GlooDeviceUnsupported = "GLOO_DEVICE_UNSUPPORTED";
constexpr const char* GlooAddressUnresolved = "GLOO_ADDRESS_UNRESOLVED";
constexpr const char* GlooVersionMismatch = "GLOO_VERSION_MISMATCH";
constexpr const char* CudaOutOfMemory = "CUDA_OUT_OF_MEMORY";
constexpr const char* CudaInvalidDevice = "CUDA_INVALID_DEVICE";
constexpr const char* CudaUnavailable = "CUDA_UNAVAILABLE";
constexpr const char* TorchTooOld = "TORCH_TOO_OLD";        // the script wants a newer PyTorch
constexpr const char* BackendRequired = "BACKEND_REQUIRED"; // init_process_group() without a backend on 1.x
constexpr const char* DdpUnusedParameters = "DDP_UNUSED_PARAMETERS";
constexpr const char* CollectiveMismatch = "COLLECTIVE_MISMATCH";
constexpr const char* NanLoss = error_code::NanLoss; // the worker's error code, and a script's diverged loss
constexpr const char* RanksDiverged = "RANKS_DIVERGED"; // not a text: the ranks' params_sha256 differ
constexpr const char* AddressInUse = "ADDRESS_IN_USE";
constexpr const char* AddressNotAvailable = "ADDRESS_NOT_AVAILABLE";
constexpr const char* PortAccessDenied = "PORT_ACCESS_DENIED";
// ... and consequences of another rank's failure
constexpr const char* RendezvousTimeout = error_code::RendezvousTimeout; // the worker's error code too
constexpr const char* PeerTimeout = "PEER_TIMEOUT";
constexpr const char* ConnectionLost = "CONNECTION_LOST";
constexpr const char* CppTerminate = "CPP_TERMINATE";
} // namespace diagnosis

} // namespace ddpdesk::protocol
