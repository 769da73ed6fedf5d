#pragma once

// The telemetry protocol: the one contract between a worker (or any rank process) and the launcher.
// JSON Lines on stdout, one object per line. Every event carries
//   "v": protocol version, "event": type, "rank": global rank (-1 when not known yet), "t": unix time in
//   seconds.
// The README's "Telemetry protocol" section documents every event's fields; this file parses them in one
// place.

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace ddpdesk::protocol {

constexpr int kVersion = 1;

// Event type names; keep in sync with the README.
namespace ev {
constexpr const char* Hello = "hello"; // rank, world_size, local_rank, device, pid, host, versions
constexpr const char* Rendezvous =
    "rendezvous";                      // phase: store_connect|store_ready|pg_create|pg_ready|broadcast|done
constexpr const char* Step = "step";   // epoch, step, loss, samples, step_ms, compute_ms, comm_wait_ms,
                                       // bytes_allreduced, allreduce_calls, loss_nonfinite
constexpr const char* Epoch = "epoch"; // epoch, train_loss, test_accuracy (null when none)
constexpr const char* Checkpoint = "checkpoint"; // path, step, epoch
constexpr const char* Error = "error";           // code (stable), message, waiting_for (optional object)
constexpr const char* Done = "done";             // steps, wall_s, final_loss, samples_per_s
constexpr const char* Gpu = "gpu";               // launcher-side GPU sample (see core/monitor)
constexpr const char* Proc = "proc";             // launcher-side per-process CPU/RAM sample
constexpr const char* Log = "log";               // launcher-side: a line a rank printed that is not telemetry
// The TCPStore server this process hosts (core/net) refused or dropped a client: code (STORE_*, from
// net/tcp_store_session.h), text. From a worker hosting rank 0's loopback store, or the launcher (source
// launcher).
constexpr const char* StoreNotice = "store_notice";
} // namespace ev

// A step whose loss was NaN or infinite: "loss" is null (JSON has no NaN) and this key says which, "nan",
// "inf" or
// "-inf" (written by the script instrumentation and the script-output parser; the launcher diagnoses
// NAN_LOSS).
constexpr const char* kLossNonFinite = "loss_nonfinite";

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

} // namespace ddpdesk::protocol
