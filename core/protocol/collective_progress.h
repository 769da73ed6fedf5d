#pragma once

// Live collective progress, written once for both sides: each rank keeps a one-record file that says how many
// collectives it has entered and completed and what the latest one is; the launcher reads every rank's
// record about once a second and names the rank the others wait for (launch/watch/collective_watch.h). A file
// rather than telemetry lines: a rank that blocks in a collective can write nothing more, so the record is
// rewritten in place on entering and on leaving each collective, and a script's own stdout is never
// interleaved with it. The record is one JSON object padded with spaces to kRecordBytes - 1 and a newline,
// always written at offset 0; a reader that catches it half-written skips that read. The ring of last
// collectives follows it in the same file (protocol/collective_history.h); a script rank writes only the
// ring's entry per collective (one write at each start and end, not two) and its record at start and for the
// Flight Recorder's counts, so the launcher reads the counts with currentCollectiveRecord (the record brought
// up to date by the newest entry). Writers: resources/python/ddpdesk_instrument.py (_Collectives: DDP's
// gradient allreduce per backward, and the torch.distributed collectives a script calls itself),
// ddpdesk-worker (core/train/worker, per broadcast and per gradient bucket). Where the rank's PyTorch keeps a
// Flight Recorder for Gloo (2.x since about 2.8), the script rank adds what it says of the default process
// group (fr_*): it counts every collective, those a script or library reaches past torch.distributed's
// functions too (ProcessGroup.allreduce, DDP's own broadcasts), so the launcher can compare ranks by it where
// the counts above see nothing wrong.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ddpdesk::protocol {

constexpr const char* kCollectivesFileEnv = "DDPDESK_COLLECTIVES_FILE";
constexpr std::size_t kCollectiveRecordBytes = 512;

namespace collective_field {
constexpr const char* Pid = "pid";
constexpr const char* Entered = "entered";     // collectives entered so far (the latest one's number)
constexpr const char* Completed = "completed"; // collectives completed so far
constexpr const char* Kind = "kind";           // the latest one's: "allreduce", "broadcast", "barrier", ...
constexpr const char* Bytes = "bytes";         // its payload on this rank
constexpr const char* Detail = "detail";       // e.g. "DDP gradients", "bucket 2 of 3"
constexpr const char* T = "t";                 // unix seconds it was entered at
// PyTorch's Flight Recorder's view (absent where it has none): its sequence numbers on the default process
// group, the latest collective's kind ("allreduce") and payload, and when the rank first saw it pending.
constexpr const char* FlightEntered = "fr_entered";
constexpr const char* FlightCompleted = "fr_completed";
constexpr const char* FlightKind = "fr_kind";
constexpr const char* FlightBytes = "fr_bytes";
constexpr const char* FlightT = "fr_t";
} // namespace collective_field

struct CollectiveRecord {
    std::int64_t pid = 0;
    std::int64_t entered = 0;
    std::int64_t completed = 0;
    std::string kind;
    std::int64_t bytes = 0;
    std::string detail;
    double t = 0;
    bool inside() const { return completed < entered; } // waiting in collective #entered

    struct Flight {
        std::int64_t entered = 0, completed = 0, bytes = 0;
        std::string kind;
        double t = 0;
    };
    std::optional<Flight> flight; // the Flight Recorder's counts, where the rank's PyTorch has one
    // The record as the Flight Recorder counts (detail says so); nullopt without one.
    std::optional<CollectiveRecord> flightView() const;
};

// The record as written (kCollectiveRecordBytes bytes, newline last); kind and detail are cut to fit.
std::string formatCollectiveRecord(const CollectiveRecord& r);
// A record read back; nullopt for a half-written or foreign one.
std::optional<CollectiveRecord> parseCollectiveRecord(std::string_view bytes);

} // namespace ddpdesk::protocol
