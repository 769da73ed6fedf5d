#pragma once

// The Qt-free counterpart of worker_harness.h for the engine tests that build without Qt
// (DDPDESK_WITH_QT=OFF): real ddpdesk-worker processes, one testsupport::Subprocess per rank, stdout parsed
// with the telemetry protocol, every wait bounded. Paths come from CMake: DDPDESK_WORKER_PATH,
// DDPDESK_PYTHON, DDPDESK_FASHION_DIR.

#include "protocol/telemetry.h"

#include "mini_test.h"
#include "model_compare.h"
#include "subprocess.h"
#include "temp_dir.h"
#include "thread_ranks.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace ddpdesk::traintest {

using Args = std::vector<std::string>;
using testsupport::EnvChanges;

inline std::string envOr(const char* name, const char* fallback) {
    const char* value = std::getenv(name);
    return value && *value ? std::string(value) : std::string(fallback);
}

// $DDPDESK_TEST_WORKER / $DDPDESK_TEST_PYTHON replace the build's worker and Python: the torch2 leg runs
// these tests with a worker built against LibTorch 2.x and Python 2.x ranks (tests/CMakeLists.txt,
// ddpdesk_torch2_test).
inline std::string workerPath() {
    return envOr("DDPDESK_TEST_WORKER", DDPDESK_WORKER_PATH);
}
inline std::string pythonPath() {
    return envOr("DDPDESK_TEST_PYTHON", DDPDESK_PYTHON);
}
inline std::string fashionDir() {
    return DDPDESK_FASHION_DIR;
}

inline Args operator+(Args a, const Args& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}
inline bool contains(const Args& args, const std::string& arg) {
    return std::find(args.begin(), args.end(), arg) != args.end();
}

inline std::vector<std::string> splitLines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

inline std::string trimmed(const std::string& s) {
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

// The LibTorch version the worker under test was built with (its --version), as major * 100 + minor; 0 if
// unknown. Behaviour that depends on LibTorch is judged by the worker's own version, since the torch2 leg
// runs a worker built against another LibTorch than this test.
inline int workerTorchVersion() {
    const testsupport::ProgramResult r =
        testsupport::runProgram(workerPath(), {"--version"}, std::chrono::seconds(60));
    for (const std::string& line : splitLines(r.out))
        if (line.rfind("LibTorch: ", 0) == 0) {
            int major = 0, minor = 0;
            if (std::sscanf(line.c_str() + 10, "%d.%d", &major, &minor) == 2) return major * 100 + minor;
        }
    return 0;
}

// A port nobody listens on right now (bind to 0, read it, release it).
inline std::uint16_t freePort() {
    return testsupport::freeLoopbackPort();
}

struct RankResult {
    int exitCode = -1;
    bool finished = false;
    std::vector<protocol::Event> events;
    std::string stderrText;
    std::string stdoutText;

    std::vector<protocol::Event> ofType(const char* type) const {
        std::vector<protocol::Event> out;
        for (const auto& e : events)
            if (e.type == type) out.push_back(e);
        return out;
    }
    const protocol::Event* last(const char* type) const {
        for (auto it = events.rbegin(); it != events.rend(); ++it)
            if (it->type == type) return &*it;
        return nullptr;
    }
    // The code and message of the last `error` event, or "(no error event)" and "".
    std::string errorCode() const {
        const protocol::Event* e = last("error");
        return e ? e->body.value("code", std::string()) : std::string("(no error event)");
    }
    std::string errorMessage() const {
        const protocol::Event* e = last("error");
        return e ? e->body.value("message", std::string()) : std::string();
    }
    // The SHA-256 of the final parameters from the `done` event; "" without one.
    std::string paramsDigest() const {
        const protocol::Event* e = last("done");
        return e ? e->body.value("params_sha256", std::string()) : std::string();
    }
    std::string describe() const {
        auto tail = [](const std::string& s) { return s.size() > 3000 ? s.substr(s.size() - 3000) : s; };
        return "exit " + std::to_string(exitCode) + "; stdout:\n" + tail(stdoutText) + "\nstderr:\n" +
               tail(stderrText);
    }
};

// The variables a launcher would set for a rank: cleared so the tests' own flags decide.
inline EnvChanges withoutRankVariables() {
    EnvChanges env;
    for (const char* name : {"RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT"})
        env.emplace_back(name, std::nullopt);
    return env;
}

// One or more worker processes started together; the destructor kills any still running.
class WorkerSet {
public:
    testsupport::Subprocess* start(const Args& args, const EnvChanges& env = {},
                                   const std::string& program = workerPath()) {
        m_procs.push_back(std::make_unique<testsupport::Subprocess>());
        testsupport::Subprocess* p = m_procs.back().get();
        if (!p->start(program, args, env))
            std::cout << "could not start " << program << ": " << p->startError() << std::endl;
        return p;
    }

    // Starts `count` ranks (default: all `world`) with --rank/--world-size appended to `common`.
    void startRanks(int world, const Args& common, int firstRank = 0, int count = -1) {
        if (count < 0) count = world;
        for (int r = firstRank; r < firstRank + count; ++r)
            start(common + Args{"--rank", std::to_string(r), "--world-size", std::to_string(world)});
    }

    // Waits for every process (one shared deadline) and collects their output; one still running then is
    // killed.
    std::vector<RankResult> waitAll(int timeoutMs) {
        const auto deadline = testsupport::Clock::now() + std::chrono::milliseconds(timeoutMs);
        std::vector<RankResult> results;
        for (auto& p : m_procs) {
            RankResult r;
            // One that never started does not count as finished.
            r.finished = p->started() && p->waitUntil(deadline);
            if (p->started() && !r.finished) p->kill();
            r.exitCode = r.finished ? p->exitCode() : -1;
            r.stdoutText = p->stdoutText();
            r.stderrText = p->started() ? p->stderrText() : p->startError();
            for (const std::string& line : splitLines(r.stdoutText))
                if (auto e = protocol::parseLine(line)) r.events.push_back(*e);
            results.push_back(std::move(r));
        }
        return results;
    }

    testsupport::Subprocess* process(int i) { return m_procs.at(static_cast<size_t>(i)).get(); }

private:
    std::vector<std::unique_ptr<testsupport::Subprocess>> m_procs;
};

// Rank r of a two-rank fashion-mnist job on this machine (local rank r of 2) on a FileStore in `dir`, each
// rank writing into dir/out<r>: the shape of the node-data tests.
inline Args localRankArgs(const testsupport::TempDir& dir, int r, const Args& extra = {},
                          const std::string& steps = "6") {
    const std::string rs = std::to_string(r);
    return Args{"--workload",
                "fashion-mnist",
                "--data",
                fashionDir(),
                "--steps",
                steps,
                "--threads",
                "1",
                "--telemetry-ms",
                "0",
                "--store",
                "file:" + dir.filePath("store"),
                "--out",
                dir.filePath("out" + rs),
                "--rank",
                rs,
                "--world-size",
                "2",
                "--local-rank",
                rs,
                "--local-world-size",
                "2"} +
           extra;
}

// Runs one worker to completion.
inline RankResult runWorker(const Args& args, int timeoutMs = 120000, const EnvChanges& env = {}) {
    WorkerSet set;
    set.start(args, env);
    return set.waitAll(timeoutMs).front();
}

// Runs the test Python with a script; returns stdout. A timeout or a non-zero exit is a test failure
// (recorded, the case goes on; what it then reads from the empty or partial output fails its own checks).
inline std::string runPython(const std::string& script, const Args& args = {}, int timeoutMs = 120000) {
    const testsupport::ProgramResult r = testsupport::runProgram(pythonPath(), Args{"-c", script} + args,
                                                                 std::chrono::milliseconds(timeoutMs));
    TEST_CHECK_MSG(r.started, r.startError);
    TEST_CHECK_MSG(r.finished, "python timed out");
    TEST_CHECK_MSG(!r.finished || r.exitCode == 0, "python failed: " + r.err);
    return r.finished ? r.out : std::string();
}

// A whole file's bytes ("" when it cannot be read).
inline std::string fileBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Writes `bytes` to `path` (replacing it); false when it cannot.
inline bool writeFileBytes(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return static_cast<bool>(out);
}

// Two ranks of `workload` on a fresh FileStore, writing into `out`, and rank 0's model.pt when both succeeded
// (a failed rank's output is printed).
struct TwoRanks {
    std::vector<RankResult> ranks;
    ModelParams params;
    bool ok = false;
};

// A rank thread's output read as a worker process's (thread_ranks.h).
inline RankResult fromThread(ThreadRankOutput&& t) {
    RankResult r;
    r.exitCode = t.exitCode;
    r.finished = true;
    r.stdoutText = std::move(t.events);
    r.stderrText = std::move(t.log);
    for (const std::string& line : splitLines(r.stdoutText))
        if (auto e = protocol::parseLine(line)) r.events.push_back(*e);
    return r;
}

// Ranks 0..world-1 as threads of this process (thread_ranks.h), with --rank/--world-size appended to
// `common`.
inline std::vector<RankResult> runRanksAsThreads(int world, const Args& common) {
    std::vector<RankResult> results;
    for (ThreadRankOutput& t : runRankThreads(world, common))
        results.push_back(fromThread(std::move(t)));
    return results;
}

// One rank alone, as a thread: what the worker refuses before training needs no process.
inline RankResult runWorkerAsThread(const Args& args) {
    return runRanksAsThreads(1, args).front();
}

enum class RanksAs { Processes, Threads };

// Into `keep` when given (resume cases), else into a folder of its own. Processes: real workers on a
// FileStore; Threads: the same flags with the ranks as threads of this process (no store).
inline TwoRanks trainTwoRanks(const std::string& workload, const Args& args,
                              const testsupport::TempDir* keep = nullptr, RanksAs as = RanksAs::Processes) {
    testsupport::TempDir own;
    const testsupport::TempDir& out = keep ? *keep : own;
    const Args common = Args{"--workload", workload, "--out", out.str()} + args;
    TwoRanks run;
    if (as == RanksAs::Threads) {
        run.ranks = runRanksAsThreads(2, common);
    } else {
        testsupport::TempDir stores;
        WorkerSet set;
        set.startRanks(2, common + Args{"--store", "file:" + stores.filePath("store")});
        run.ranks = set.waitAll(240000);
    }
    run.ok = run.ranks.size() == 2;
    for (const RankResult& r : run.ranks)
        if (r.exitCode != 0) {
            std::cout << r.describe() << std::endl;
            run.ok = false;
        }
    if (run.ok) run.params = loadModelFile(workload, out.filePath("model.pt"));
    return run;
}

} // namespace ddpdesk::traintest
