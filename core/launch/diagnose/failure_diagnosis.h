#pragma once

// Known failures explained: a table of error texts that PyTorch, Gloo, NCCL and CUDA print when a DDP run
// fails for a well-known reason, each with a stable code, a plain explanation and a fix. The supervisor runs
// it over the failed ranks' last output lines, so the failure banner, the CLI's end report and summary.json
// can say what went wrong instead of leaving the user with a traceback.
//
// Plain C++ on purpose: the table is data, testable without Qt. The GUI translates `message` and `fix`
// through QCoreApplication::translate with context kFailureTranslationContext (the table's texts are marked
// for lupdate).

#include "protocol/finding_codes.h"

#include <optional>
#include <string>
#include <vector>

namespace ddpdesk::launch {

inline constexpr const char* kFailureTranslationContext = "ddpdesk::launch::FailureDiagnosis";

// Under the traceback of a script that used a part of torch its PyTorch lacks, DDP Desk's instrumentation
// module (resources/python/ddpdesk_instrument.py, _show_traceback) prints this followed by "1.13.0
// (/usr/bin/python3)"; TORCH_TOO_OLD's matched line then names the release.
inline constexpr const char* kInterpreterTorchNote = "ddpdesk_instrument: this interpreter's PyTorch: ";

// The kinds' codes are protocol::diagnosis names (protocol/finding_codes.h).

// One recognised kind of failure.
struct FailureKind {
    const char* code;    // stable, a protocol::diagnosis name (summary.json, docs, scripts rely on it)
    const char* message; // what happened, in plain English
    const char* fix;     // what to do about it
    // A symptom of some other rank's failure (a timeout, a reset connection): the rank that failed first is
    // the one to look at, and a root cause found in any rank's output wins over it.
    bool consequence;
};

// The whole table, in priority order (root causes first), for docs and tests.
const std::vector<FailureKind>& failureKinds();
const FailureKind* findFailureKind(const std::string& code);

// The first kind of the table (highest priority) that one rank's output matches, with the line it matched.
struct LineMatch {
    const FailureKind* kind = nullptr;
    std::string line; // trimmed, at most kMaxMatchedChars characters
};
inline constexpr std::size_t kMaxMatchedChars = 400;
std::optional<LineMatch> diagnoseLines(const std::vector<std::string>& lines);

// What one rank left behind: its last output lines (oldest first) and how it ended.
struct RankOutput {
    int rank = -1;
    std::vector<std::string> lines;
    std::string exitText; // "exit code 3", "killed by signal 9 (SIGKILL)"; may be empty
    int exitCode = -1;    // 0: it finished well; -1: unknown, still running or ended by a signal
};

struct Diagnosis {
    std::string code;
    std::string message; // the kind's message, plus which rank failed first for a consequence seen elsewhere
    std::string fix;
    std::string matched; // the line of output that was recognised
    int rank = -1;       // the rank whose output it is
    // For a consequence: the rank that failed first when it is another one (-1 otherwise), and how it ended.
    int firstFailedRank = -1;
    std::string firstFailedExit;
};

// Looks at the rank that failed first (firstFailedRank, -1 when unknown) before the others. A root cause in
// any rank's output is preferred to a consequence; a consequence points at the rank that failed first.
std::optional<Diagnosis> diagnoseRun(const std::vector<RankOutput>& ranks, int firstFailedRank);

} // namespace ddpdesk::launch
