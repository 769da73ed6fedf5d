#pragma once

// The rendezvous doctor's public face: one call that diagnoses a store/launch configuration and returns findings
// with stable codes. Plain C++ (no Qt, no LibTorch), so the CLI, the GUI and the launcher's stall watch share it.

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ddpdesk::doctor {

enum class Severity { Info, Warning, Error };

struct Finding {
    std::string code;         // stable, e.g. "FILESTORE_STALE"; see docs/doctor.md
    Severity severity = Severity::Info;
    std::string message;      // plain words
    nlohmann::json evidence = nlohmann::json::object();
    std::string fix;          // what to do; empty when nothing
    // For a translated view (the GUI): `code` plus `variant` name the wording of message and fix, `args` are the
    // values embedded in them, in order (%1, %2, ...). Not part of toJson()/toText(), which stay as they are.
    std::string variant;
    std::vector<std::string> args;
};

struct DoctorRequest {
    std::string store;        // "file:PATH" or "tcp://HOST:PORT"
    int worldSize = 0;        // 0: unknown
    int nodeRank = 0;         // node 0 hosts the TCPStore; others connect to it
    int rank = -1;            // optional: a rank to check against worldSize
    double probeTimeoutSec = 2.0; // bound for each network probe
    bool jobRunning = false;  // true when diagnosing a live/hung job (a store file in use is then expected)
};

std::vector<Finding> diagnose(const DoctorRequest& request);

bool hasError(const std::vector<Finding>& findings);
const char* severityName(Severity s);
nlohmann::json toJson(const std::vector<Finding>& findings); // {"findings":[{code,severity,message,evidence,fix}]}
std::string toText(const std::vector<Finding>& findings);    // human-readable report

// ---- fixes the GUI offers as buttons (the only calls here that change anything) ----

struct FixResult {
    bool ok = false;
    std::string message; // what was done, or why it was refused
    // For a translated view, like Finding::variant/args: which outcome, and the values `message` embeds.
    std::string code;    // "DELETED", "NOT_A_FILE", "NOT_A_STORE", "IN_USE", "DELETE_FAILED"
    std::vector<std::string> args;
};

// Deletes a FileStore file left by an earlier run. Refuses (ok=false) when the path is not a store file or when a
// live process holds, locks or names it, or it changed in the last few seconds.
FixResult deleteStaleStore(const std::string& path);

// A TCP port that is free for a TCPStore now: the first free one after `preferred`, else one the OS picks.
int suggestFreePort(int preferred = 29500);

} // namespace ddpdesk::doctor
