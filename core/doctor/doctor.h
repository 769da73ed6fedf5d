#pragma once

// The rendezvous doctor's public face: one call that diagnoses a store/launch configuration and returns
// findings with stable codes. Plain C++ (no Qt, no LibTorch), so the CLI, the GUI and the launcher's stall
// watch share it.

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ddpdesk::doctor {

enum class Severity { Info, Warning, Error };

struct Finding {
    std::string code; // stable, e.g. "FILESTORE_STALE"; see docs/doctor.md
    Severity severity = Severity::Info;
    std::string message; // plain words
    nlohmann::json evidence = nlohmann::json::object();
    std::string fix; // what to do; empty when nothing
    // For a translated view (the GUI): `code` plus `variant` name the wording of message and fix, `args` are
    // the values embedded in them, in order (%1, %2, ...). Not part of toJson()/toText(), which stay as they
    // are.
    std::string variant;
    std::vector<std::string> args;
    // Sentences appended to `message`, each a finding_texts key ("NOTE/...") and its values, so a translated
    // view can append the same sentences translated.
    struct Note {
        std::string key;
        std::vector<std::string> args;
    };
    std::vector<Note> notes;
};

// Node 0 of a multi-node run with the node link: what another node's launcher told node 0's (the launcher
// fills these; the doctor sets them beside what the store says).
struct NodeReport {
    int node = 0;
    std::string host;  // as its launcher named it; empty until it connected
    std::string state; // "waiting" (its launcher never connected), "connected", "no_contact", "lost", "ended"
    std::string detail;     // lost: why; ended: its run's status
    double silentForS = -1; // seconds since its launcher's last frame (-1: never heard from)
    std::vector<int> ranks; // its global ranks
    std::vector<std::string>
        rankStates; // each one's state as its launcher reports it ("starting", "failed: ...")
};

struct DoctorRequest {
    std::string store;            // "file:PATH" or "tcp://HOST:PORT"
    int worldSize = 0;            // 0: unknown
    int nodeRank = 0;             // node 0 hosts the TCPStore; others connect to it
    int rank = -1;                // optional: a rank to check against worldSize
    double probeTimeoutSec = 2.0; // bound for each network probe
    bool jobRunning = false; // true when diagnosing a live/hung job (a store file in use is then expected)
    double rendezvousTimeoutSec =
        1800.0;                // ranks may wait this long in rendezvous: a younger store may still be live
    bool force = false;        // allow calling a store stale from a node whose node rank is above 0
    double deadlineSec = 10.0; // the whole diagnosis ends by then (DEADLINE_REACHED with what was learned)
    std::vector<NodeReport> nodes; // node 0 of a multi-node run: the other nodes as their launchers report
};

std::vector<Finding> diagnose(const DoctorRequest& request);

bool hasError(const std::vector<Finding>& findings);
const char* severityName(Severity s);
nlohmann::json
toJson(const std::vector<Finding>& findings); // {"findings":[{code,severity,message,evidence,fix}]}
std::string toText(const std::vector<Finding>& findings); // human-readable report

// ---- fixes the GUI offers as buttons (the only calls here that change anything) ----

struct FixResult {
    bool ok = false;
    std::string message; // what was done, or why it was refused
    // For a translated view, like Finding::variant/args: which outcome, and the values `message` embeds.
    std::string code; // "RENAMED", "NOT_A_FILE", "SYMLINK", "NOT_A_STORE", "IN_USE", "NOT_STALE/<why>",
                      // "RENAME_FAILED"
    std::vector<std::string> args;
    std::string newPath; // RENAMED: where the store file is now
};

// Renames a FileStore file left by an earlier run aside, to NAME.stale-YYYYmmdd-HHMMSS in its folder (a -2,
// -3 ... suffix rather than overwriting anything): nothing is deleted. Refuses (ok=false) when the path is a
// symlink or not a file, when its bytes do not prove a c10d FileStore (an empty file included), when a live
// process holds, locks or names it, or when a rank may still wait on it (see judgeStale: `context` gives the
// world size, the rendezvous timeout, the node rank and --force).
FixResult renameStaleStore(const std::string& pathOrStore, const DoctorRequest& context = {});

// The name renameStaleStore would give the file now (for a confirmation question); empty for a bad path.
std::string staleAsidePath(const std::string& pathOrStore);

// A TCP port that is free for a TCPStore now: the first free one after `preferred`, else one the OS picks.
int suggestFreePort(int preferred = 29500);

} // namespace ddpdesk::doctor
