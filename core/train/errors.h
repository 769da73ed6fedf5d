#pragma once

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

namespace ddpdesk::train {

// Exit codes of ddpdesk-worker (the launcher maps them to run outcomes).
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

// Every failure the worker reports: a stable code, a message for people, the exit code, and (for waits) what
// it was waiting for, so the launcher and the doctor can explain it without parsing prose.
class TrainError : public std::runtime_error {
public:
    TrainError(std::string code, const std::string& message, int exitCode,
               nlohmann::json waitingFor = nlohmann::json());

    const std::string& code() const { return m_code; }
    int exitCode() const { return m_exitCode; }
    const nlohmann::json& waitingFor() const { return m_waitingFor; }

private:
    std::string m_code;
    int m_exitCode;
    nlohmann::json m_waitingFor;
};

TrainError badInput(const std::string& message);

} // namespace ddpdesk::train
