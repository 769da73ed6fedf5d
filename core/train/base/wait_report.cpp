#include "train/base/wait_report.h"
#include "os/caught.h"

#include "os/utf8_path.h"
#include "protocol/collective_history.h"
#include "protocol/stacks_request.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

namespace ddpdesk::train {

namespace {

using Clock = std::chrono::steady_clock;

struct Active {
    WaitPoint point;
    Clock::time_point since;
};

// Written by the training thread, read by the watcher: a mutex, taken for a few copies per wait.
struct State {
    std::mutex mutex;
    std::vector<Active> stack;
    std::int64_t step = 0;
    int epoch = 0;
    std::unique_ptr<std::ofstream> collectives; // the live collective record, rewritten in place
    protocol::CollectiveRecord record;
    protocol::CollectiveEntry entry; // the latest collective's history entry (protocol/collective_history.h)
};

bool countsAsCollective(const WaitPoint& p) {
    return p.collective == "allreduce" || p.collective == "broadcast" || p.collective == "barrier";
}

void writeAt(State& s, std::size_t offset, const std::string& bytes) {
    if (!s.collectives) return;
    s.collectives->seekp(static_cast<std::streamoff>(offset));
    s.collectives->write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    s.collectives->flush();
    if (!*s.collectives) s.collectives.reset(); // a full disk: the launcher learns less, training goes on
}

void writeRecord(State& s) {
    writeAt(s, 0, protocol::formatCollectiveRecord(s.record));
}

// The latest collective's slot in the ring, written when it starts and again when it ends.
void writeEntry(State& s) {
    writeAt(s, protocol::collectiveEntryOffset(s.entry.seq), protocol::formatCollectiveEntry(s.entry));
}

double unixNow() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

State& state() {
    static State s;
    return s;
}

std::string number(double v) {
    std::ostringstream out;
    out.precision(1);
    out << std::fixed << v;
    return out.str();
}

} // namespace

WaitScope::WaitScope(WaitPoint point) {
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    m_depth = static_cast<int>(s.stack.size());
    if (m_depth == 0 && countsAsCollective(point)) {
        protocol::CollectiveRecord& r = s.record;
        ++r.entered;
        r.kind = point.collective;
        r.bytes = point.bytes;
        r.detail = point.bucket >= 0
                       ? "bucket " + std::to_string(point.bucket + 1) + " of " + std::to_string(point.buckets)
                       : point.what;
        r.t = unixNow();
        writeRecord(s);
        // The worker's call site is its own place in the step: the bucket, or what the collective is for.
        s.entry = protocol::CollectiveEntry();
        s.entry.seq = r.entered;
        s.entry.op = r.kind;
        s.entry.bytes = r.bytes;
        s.entry.dtype = point.dtype;
        s.entry.group = "default";
        s.entry.start = r.t;
        s.entry.detail = r.detail;
        s.entry.site = point.bucket >= 0 ? "ddpdesk-worker " + r.detail + " (" + point.what + ")"
                                         : "ddpdesk-worker: " + point.what;
        writeEntry(s);
    }
    s.stack.push_back({std::move(point), Clock::now()});
}

WaitScope::~WaitScope() {
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (m_depth == 0 && !s.stack.empty() && countsAsCollective(s.stack.front().point)) {
        ++s.record.completed;
        writeRecord(s);
        s.entry.completed = true;
        s.entry.end = unixNow();
        writeEntry(s);
    }
    s.stack.resize(static_cast<std::size_t>(m_depth));
}

void noteProgress(std::int64_t step, int epoch) {
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.step = step;
    s.epoch = epoch;
}

nlohmann::json waitReport() {
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    nlohmann::json j{{"waiting", !s.stack.empty()}, {"step", s.step}, {"epoch", s.epoch}};
    if (s.stack.empty()) return j;
    const Active& a = s.stack.back();
    j["what"] = a.point.what;
    j["phase"] = a.point.phase;
    j["collective"] = a.point.collective;
    if (a.point.bucket >= 0) {
        j["bucket"] = a.point.bucket;
        j["buckets"] = a.point.buckets;
    }
    j["waiting_s"] = std::chrono::duration<double>(Clock::now() - a.since).count();
    return j;
}

std::string waitReportText(const nlohmann::json& r) {
    std::string progress = r.value("step", 0LL) > 0 ? "step " + std::to_string(r.value("step", 0LL)) +
                                                          ", epoch " + std::to_string(r.value("epoch", 0))
                                                    : "before the first step";
    if (!r.value("waiting", false)) return "computing (not waiting for another rank); " + progress;
    std::string text =
        "waiting " + number(r.value("waiting_s", 0.0)) + " s in " + r.value("what", std::string());
    if (r.contains("bucket"))
        text += " (bucket " + std::to_string(r["bucket"].get<int>() + 1) + " of " +
                std::to_string(r.value("buckets", 0)) + ")";
    return text + "; phase " + r.value("phase", std::string()) + ", " + progress;
}

void startWaitReporter(int rank, std::int64_t pid) {
    if (const char* path = std::getenv(protocol::kCollectivesFileEnv); path && *path) {
        State& s = state();
        std::lock_guard<std::mutex> lock(s.mutex);
        s.collectives = std::make_unique<std::ofstream>(os::pathFromUtf8(path),
                                                        std::ios::out | std::ios::binary | std::ios::trunc);
        if (!*s.collectives) s.collectives.reset();
        s.record.pid = pid;
        writeRecord(s);
    }
    const char* file = std::getenv(protocol::kStacksFileEnv);
    const char* request = std::getenv(protocol::kStacksRequestEnv);
    if (!file || !*file || !request || !*request) return;
    const std::filesystem::path filePath = os::pathFromUtf8(file);
    const std::filesystem::path requestPath = os::pathFromUtf8(request);
    // Appended to, never truncated: a restarted attempt adds its announcement after the last one.
    auto out = std::make_shared<std::ofstream>(filePath, std::ios::app | std::ios::binary);
    if (!*out) return;
    *out << protocol::kStacksReadyPrefix << " pid " << pid << " rank " << rank << " "
         << protocol::kStacksByRequestFile << "\n"
         << std::flush;
    // Detached: the worker ends with std::_Exit, which takes the thread with it.
    std::thread([out, requestPath, rank, pid] {
        os::runCaught("the wait reporter", [&] {
            for (;;) {
                std::this_thread::sleep_for(std::chrono::milliseconds(200));
                std::error_code ec;
                if (!std::filesystem::remove(requestPath, ec)) continue;
                const nlohmann::json report = waitReport();
                *out << "ddpdesk-worker rank " << rank << " (pid " << pid << "): " << waitReportText(report)
                     << "\n"
                     << report.dump() << "\n"
                     << std::flush;
            }
        });
    }).detach();
}

} // namespace ddpdesk::train
