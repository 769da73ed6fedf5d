#include "train/base/telemetry_emitter.h"

#include "os/platform.h"
#include "protocol/telemetry.h"

#include <cstdio>

namespace ddpdesk::train {

TelemetryEmitter& TelemetryEmitter::instance() {
    static TelemetryEmitter emitter;
    return emitter;
}

void TelemetryEmitter::setRank(int rank) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_rank = rank;
}

nlohmann::json TelemetryEmitter::event(std::string_view type) const {
    return protocol::makeEvent(type, m_rank);
}

void TelemetryEmitter::emit(const nlohmann::json& event) {
    std::string line = protocol::encodeLine(event);
    line.push_back('\n');
    std::lock_guard<std::mutex> lock(m_mutex);
    // One fwrite per line: under mpirun several ranks share one stdout pipe, and whole-line writes keep lines
    // intact.
    std::fwrite(line.data(), 1, line.size(), stdout);
    std::fflush(stdout);
}

bool TelemetryEmitter::emitIfRoom(const nlohmann::json& event) {
    if (!os::standardOutputHasRoom()) return false;
    emit(event);
    return true;
}

void TelemetryEmitter::emitError(const TrainError& error) {
    nlohmann::json e = event(protocol::ev::Error);
    e[protocol::field::Code] = error.code();
    e[protocol::field::Message] = error.what();
    e[protocol::field::ExitCode] = error.exitCode();
    if (!error.waitingFor().is_null()) e[protocol::field::WaitingFor] = error.waitingFor();
    emit(e);
    log(std::string("error ") + error.code() + ": " + error.what());
}

void TelemetryEmitter::log(const std::string& line) {
    std::string text = "[ddpdesk-worker rank " + std::to_string(m_rank) + "] " + line + "\n";
    std::lock_guard<std::mutex> lock(m_mutex);
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
}

bool TelemetryEmitter::stepDue(int intervalMs) {
    auto now = std::chrono::steady_clock::now();
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_anyStep && now - m_lastStep < std::chrono::milliseconds(intervalMs)) return false;
    m_anyStep = true;
    m_lastStep = now;
    return true;
}

} // namespace ddpdesk::train
