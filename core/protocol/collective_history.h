#pragma once

// Each rank's last collectives, the way PyTorch's Flight Recorder keeps them, but live and for both kinds of
// rank: after the live record (protocol/collective_progress.h) the same file holds a ring of
// kCollectiveHistoryEntries fixed-size entries. Collective number `seq` (the record's `entered` when it
// began) is written at collectiveEntryOffset(seq) when it starts and again when it ends, so a rank stuck
// inside a collective has already said which, where and since when. A reader takes the whole file (at most
// kCollectivesFileBytes) and keeps the entries that parse; one caught half-written, or one a script scribbled
// over, is skipped. Writers: resources/python/ddpdesk_instrument.py (_Collectives; the call site is the
// script's own frame, file:line) and ddpdesk-worker (train/base/wait_report.cpp; the call site is the bucket
// or the broadcast). Readers: the launcher at the end of a run (summary.json ranks[].collectives), for a
// COLLECTIVE_MISMATCH (each rank's collective and call site), and `ddpdesk-cli stacks`.

#include "protocol/collective_progress.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ddpdesk::protocol {

constexpr std::size_t kCollectiveHistoryEntries = 64;
constexpr std::size_t kCollectiveEntryBytes = 384;
constexpr std::size_t kCollectivesFileBytes =
    kCollectiveRecordBytes + kCollectiveHistoryEntries * kCollectiveEntryBytes;

// Where entry `seq` (1-based) lives: the ring after the record. 0 for a number that has none.
constexpr std::size_t collectiveEntryOffset(std::int64_t seq) {
    return seq < 1 ? 0
                   : kCollectiveRecordBytes +
                         static_cast<std::size_t>((seq - 1) % std::int64_t(kCollectiveHistoryEntries)) *
                             kCollectiveEntryBytes;
}

namespace collective_entry_field {
constexpr const char* Seq = "seq";     // the collective's number on this rank (the record's `entered`)
constexpr const char* Op = "op";       // "allreduce", "broadcast", "barrier", "all_gather", ...
constexpr const char* Bytes = "bytes"; // its payload on this rank
constexpr const char* Dtype = "dtype"; // "float32", ... ("" when unknown)
constexpr const char* Shape = "shape"; // the first tensor's sizes, "1024" or "64x3x3" ("" when unknown)
constexpr const char* Group = "group"; // the process group: "default", or the group's name
constexpr const char* State = "state"; // started | completed
constexpr const char* Start = "t0";    // unix seconds it started
constexpr const char* End = "t1";      // unix seconds it ended (absent while started)
constexpr const char* Site = "site";   // where: a script's file:line, or the worker's bucket
constexpr const char* Detail =
    "detail"; // what it is for: "DDP gradients", "bucket 2 of 3" (the record's detail)
} // namespace collective_entry_field

struct CollectiveEntry {
    std::int64_t seq = 0;
    std::string op;
    std::int64_t bytes = 0;
    std::string dtype;
    std::string shape;
    std::string group;
    bool completed = false;
    double start = 0;
    double end = 0; // 0 while started
    std::string site;
    std::string detail;
};

// The entry as written (kCollectiveEntryBytes bytes, newline last): text fields are cut to fit, the call
// site keeping its end (the line number).
std::string formatCollectiveEntry(const CollectiveEntry& e);
// One entry; nullopt for a half-written, empty or foreign slot.
std::optional<CollectiveEntry> parseCollectiveEntry(std::string_view bytes);
// Every entry of a collectives file that parses, oldest first (by seq), at most kCollectiveHistoryEntries.
std::vector<CollectiveEntry> parseCollectiveHistory(std::string_view file);

// The entries as summary.json and `diagnosis` events carry them: an array of objects with the fields above
// (t1 null while started).
nlohmann::json collectiveHistoryJson(const std::vector<CollectiveEntry>& entries);

// The rank's live counts from its whole file: the record, brought up to date by the newest entry of the ring
// when that one is newer (a script rank writes only the entry per collective, one write instead of two:
// entered = its number, completed = its number once it completed, else the one before; kind, bytes, detail
// and t from it). nullopt when the record does not parse.
std::optional<CollectiveRecord> currentCollectiveRecord(std::string_view file);

// The phrases of describeCollectiveEntry, %1 standing for the value: English here, the GUI's language there
// (ui/run_rank_table.cpp), one describer either way.
struct CollectiveWords {
    std::string bytes = "%1 bytes";
    std::string group = "%1 group";
    std::string at = " at %1";
    std::string completedIn = ", completed in %1 ms";
    std::string startedAgo = ", started %1 s ago, not completed";
    std::string notCompleted = ", not completed";
};

// "allreduce #12 (4.0 MiB float32 [1048576], default group) at train.py:57, completed in 3.1 ms" or
// "..., started 12.0 s ago" given `now`: one line for people.
std::string describeCollectiveEntry(const CollectiveEntry& e, double now,
                                    const CollectiveWords& words = CollectiveWords());

} // namespace ddpdesk::protocol
