#pragma once

#include "protocol/worker_codes.h"

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

namespace ddpdesk::train {

// Exit codes of ddpdesk-worker (the launcher maps them to run outcomes) and the stable `error` event codes
// live with the other contracts between processes (protocol/worker_codes.h).
namespace exit_code = ::ddpdesk::protocol::exit_code;
namespace error_code = ::ddpdesk::protocol::error_code;

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
