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
    std::string code;         // stable, e.g. "FILESTORE_STALE"; see the README's doctor section
    Severity severity = Severity::Info;
    std::string message;      // plain words
    nlohmann::json evidence = nlohmann::json::object();
    std::string fix;          // what to do; empty when nothing
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

} // namespace ddpdesk::doctor
