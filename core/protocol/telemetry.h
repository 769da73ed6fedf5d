#pragma once

// The telemetry protocol: the one contract between a worker (or any rank process) and the launcher.
// JSON Lines on stdout, one object per line. Every event carries
//   "v": protocol version, "event": type, "rank": global rank (-1 when not known yet), "t": unix time in
//   seconds.
// The README's "Telemetry protocol" section documents every event's fields; this file parses them in one
// place.

#include "protocol/telemetry_fields.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace ddpdesk::protocol {

constexpr int kVersion = 1;

// Event type names; keep in sync with the README. Each event's fields: telemetry_fields.h (namespace field).
namespace ev {
constexpr const char* Hello = "hello";
constexpr const char* Rendezvous = "rendezvous"; // phase: store_connect|store_ready|pg_create|pg_ready|done
constexpr const char* Step = "step";
constexpr const char* Epoch = "epoch";
constexpr const char* Checkpoint = "checkpoint";
// A validation pass (forwards in eval() or under no_grad, no training between them): state begin|running|end.
// Its time is not training time and its samples are not training samples (docs/launcher.md).
constexpr const char* Eval = "eval";
constexpr const char* Error = "error";
constexpr const char* Done = "done";
constexpr const char* Gpu = "gpu";   // launcher-side GPU sample (see core/monitor)
constexpr const char* Proc = "proc"; // launcher-side per-process CPU/RAM sample
constexpr const char* Log = "log";   // launcher-side: a line a rank printed that is not telemetry
// The TCPStore server this process hosts (core/net) refused or dropped a client: code (STORE_*, from
// net/tcp_store_session.h), text. From a worker hosting rank 0's loopback store, or the launcher (source
// launcher).
constexpr const char* StoreNotice = "store_notice";
// The worker's --inspect-store answer (train/worker/store_inspect.h).
constexpr const char* StoreInspect = "store_inspect";
// Launcher events in metrics.jsonl (source launcher; docs/launcher.md).
constexpr const char* Launch = "launch";
constexpr const char* RankStart = "rank_start";
constexpr const char* RankExit = "rank_exit";
constexpr const char* Restart = "restart";
constexpr const char* Stall = "stall";
constexpr const char* Stacks = "stacks";
constexpr const char* Diagnosis = "diagnosis"; // the hold-up watch named who holds the run up
constexpr const char* RunEnd = "run_end";
// Node 0 of a multi-node run: another node's launcher connected, went silent, ended its run or lost its link
// (node, host, state: one of node_state below, `lost` and `ended` followed by ": " and why / its run's
// status); protocol/node_link.h.
constexpr const char* Node = "node";
} // namespace ev

// The `node` event's states.
namespace node_state {
constexpr const char* Connected = "connected";
constexpr const char* NoContact = "no_contact";
constexpr const char* Lost = "lost";   // "lost: WHY"
constexpr const char* Ended = "ended"; // "ended: ok|failed|stopped"
// No DDP Desk launcher connected for the node, but the store shows its ranks: "store_only: 2, 3"
constexpr const char* StoreOnly = "store_only";
} // namespace node_state

// The `eval` event's states.
namespace eval_state {
constexpr const char* Begin = "begin";
constexpr const char* Running = "running";
constexpr const char* End = "end";
} // namespace eval_state

// A step whose loss was NaN or infinite: "loss" is null (JSON has no NaN) and this key says which, "nan",
// "inf" or "-inf" (written by the script instrumentation and the script-output parser; the launcher diagnoses
// NAN_LOSS).
constexpr const char* kLossNonFinite = field::LossNonFinite;

struct Event {
    std::string type;
    int rank = -1;
    double t = 0.0;
    nlohmann::json body; // the whole object, including the envelope fields
};

// Seconds since the Unix epoch, with sub-millisecond resolution.
double nowSeconds();

// Builds an event object with the envelope filled in; add fields with ev["key"] = value.
nlohmann::json makeEvent(std::string_view type, int rank);

// One line of JSON, no trailing newline; never throws (invalid UTF-8 is replaced).
std::string encodeLine(const nlohmann::json& event);

// Limits on one line: no event comes near them, and a longer or deeper line would cost unbounded memory or,
// nested 100,000 deep, overflow the stack of the recursive code that walks parsed values (dump, conversion to
// Qt).
constexpr std::size_t kMaxLineBytes = 64 * 1024;
constexpr int kMaxDepth = 64;

enum class LineCheck { Ok, TooLong, TooDeep };
// A cheap scan before parsing: the bracket depth outside JSON strings (checked first), then the length.
LineCheck checkLine(std::string_view line);

// Parses one output line. Returns nothing for anything that is not a telemetry event of a known major version
// (plain log text, truncated JSON, JSON without "event", a line checkLine refuses): such lines are log text,
// never an error.
std::optional<Event> parseLine(std::string_view line);
// The same for an object already parsed (another node's event, from the node link).
std::optional<Event> eventFromJson(nlohmann::json object);

} // namespace ddpdesk::protocol
