#include "train/base/errors.h"

namespace ddpdesk::train {

TrainError::TrainError(std::string code, const std::string& message, int exitCode, nlohmann::json waitingFor)
    : std::runtime_error(message), m_code(std::move(code)), m_exitCode(exitCode),
      m_waitingFor(std::move(waitingFor)) {}

TrainError badInput(const std::string& message) {
    return TrainError(error_code::BadInput, message, exit_code::BadInput);
}

} // namespace ddpdesk::train
