#pragma once

// What a ddpdesk-worker tells its launcher when it fails: the process exit code and the stable `error` event
// code (documented in docs/engine.md). Read by the worker (core/train/base/errors.h) and the launcher (the
// supervisor tells a rank that lost its peer from the rank that failed first).

namespace ddpdesk::protocol {

namespace exit_code {
constexpr int Ok = 0;
constexpr int BadInput = 2;        // usage, data, model, device, output folder, checkpoint mismatch
constexpr int Timeout = 3;         // rendezvous or collective did not complete in time; store unreachable
constexpr int TrainingFailure = 4; // NaN loss, corrupt checkpoint, any other failure while training
constexpr int PeerFailure = 5;     // a collective failed because another rank went away
constexpr int ForeignRank = 6;     // a rank in the store could not prove it belongs to this run
} // namespace exit_code

// Stable `error` event codes; documented in docs/engine.md.
namespace error_code {
constexpr const char* BadInput = "BAD_INPUT";
constexpr const char* DataMissing = "DATA_MISSING";
constexpr const char* DataCorrupt = "DATA_CORRUPT";
constexpr const char* ModelInvalid = "MODEL_INVALID";
constexpr const char* DeviceUnavailable = "DEVICE_UNAVAILABLE";
constexpr const char* OutputUnwritable = "OUTPUT_UNWRITABLE";
constexpr const char* CheckpointMismatch = "CHECKPOINT_MISMATCH";
constexpr const char* StoreUnreachable = "STORE_UNREACHABLE";
constexpr const char* PortInUse = "PORT_IN_USE";
constexpr const char* RendezvousTimeout = "RENDEZVOUS_TIMEOUT";
constexpr const char* RendezvousFailed = "RENDEZVOUS_FAILED";
constexpr const char* CollectiveTimeout = "COLLECTIVE_TIMEOUT";
constexpr const char* NanLoss = "NAN_LOSS";
constexpr const char* CheckpointCorrupt = "CHECKPOINT_CORRUPT";
constexpr const char* CheckpointWriteFailed = "CHECKPOINT_WRITE_FAILED";
constexpr const char* TrainingFailed = "TRAINING_FAILED";
constexpr const char* PeerLost = "PEER_LOST";
constexpr const char* ForeignRank = "FOREIGN_RANK";
} // namespace error_code

} // namespace ddpdesk::protocol
