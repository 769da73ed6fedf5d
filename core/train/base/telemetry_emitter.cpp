#include "train/base/telemetry_emitter.h"

#include "os/platform.h"
#include "protocol/telemetry.h"

#include <cstdio>

namespace ddpdesk::train {

namespace {
thread_local TelemetryEmitter* t_threadEmitter = nullptr; // set by a ThreadSink on its thread
} // namespace

TelemetryEmitter& TelemetryEmitter::instance() {
    if (t_threadEmitter) return *t_threadEmitter;
    static TelemetryEmitter emitter;
    return emitter;
}

TelemetryEmitter::ThreadSink::ThreadSink(Sink sink)
    : m_emitter(new TelemetryEmitter(std::move(sink))), m_previous(t_threadEmitter) {
    t_threadEmitter = m_emitter;
}

TelemetryEmitter::ThreadSink::~ThreadSink() {
    t_threadEmitter = m_previous;
    delete m_emitter;
}

bool TelemetryEmitter::hasRoom() const {
    return m_sink || os::standardOutputHasRoom();
}

void TelemetryEmitter::setRank(int rank) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_rank = rank;
}

nlohmann::json TelemetryEmitter::event(std::string_view type) const {
    return protocol::makeEvent(type, m_rank);
}

void TelemetryEmitter::writeLine(const std::string& line) {
    if (m_sink) return m_sink(line, false);
    // One fwrite per line: under mpirun several ranks share one stdout pipe, and whole-line writes keep lines
    // intact.
    std::fwrite(line.data(), 1, line.size(), stdout);
    std::fflush(stdout);
}

bool TelemetryEmitter::drainQueue(bool wait) {
    while (!m_queue.empty() && (wait || hasRoom())) {
        writeLine(m_queue.front());
        m_queueBytes -= m_queue.front().size();
        m_queue.pop_front();
    }
    return m_queue.empty();
}

void TelemetryEmitter::emit(const nlohmann::json& event) {
    std::string line = protocol::encodeLine(event);
    line.push_back('\n');
    std::lock_guard<std::mutex> lock(m_mutex);
    drainQueue(true);
    writeLine(line);
}

bool TelemetryEmitter::emitIfRoom(const nlohmann::json& event) {
    std::string line = protocol::encodeLine(event);
    line.push_back('\n');
    std::lock_guard<std::mutex> lock(m_mutex);
    if (!drainQueue(false) || !hasRoom()) return false;
    writeLine(line);
    return true;
}

void TelemetryEmitter::emitQueued(const nlohmann::json& event) {
    std::string line = protocol::encodeLine(event);
    line.push_back('\n');
    std::lock_guard<std::mutex> lock(m_mutex);
    // Past the queue's budget everything queued is written out, waiting for the reader, and so is this one.
    const bool full = m_queueBytes + line.size() > kQueueBytes;
    if (drainQueue(full) && (full || hasRoom())) {
        writeLine(line);
        return;
    }
    m_queueBytes += line.size();
    m_queue.push_back(std::move(line));
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
    if (m_sink) return m_sink(text, true);
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
