#pragma once

// Reads a c10d FileStore file without opening it through c10d (whose constructor and destructor bump a
// "cleanup/" counter and may delete the file). The file is an append-only log of records, each a uint32
// little-endian length plus key bytes, then a uint32 length plus value bytes; a key starting with '-' deletes
// the key after it; the last record for a key wins. User keys carry c10d's "/" prefix
// ("/default_pg/0/0/rank_1"). The file format is a contract with c10d: the doctor and the worker's
// --inspect-store both read it here.

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace ddpdesk::protocol {

struct FileStoreRecord {
    std::string key;
    std::string value;
};

struct FileStoreContents {
    bool ok = false;
    std::string error; // why the file could not be read
    std::uintmax_t size = 0;
    std::vector<FileStoreRecord> records;    // in file order, including overwrites and deletions
    std::map<std::string, std::string> keys; // current state of the job's keys
    // c10d's counters, kept apart from the job's keys: "cleanup/" (ranks finished), "refcount/" (2.x:
    // FileStore objects alive; a count above zero with no process holding the file means ranks were killed)
    std::map<std::string, std::string> internal;
    bool truncated = false; // the last record was cut short (a writer mid-append, or a crash)
    // Empty when every byte parses as c10d wrote it; otherwise why this file cannot be proven a FileStore.
    // Only a proven store may be changed by a fix: zero bytes, random bytes or foreign keys are someone
    // else's.
    std::string notProven;

    bool proven() const { return ok && notProven.empty(); }
};

FileStoreContents readFileStore(const std::filesystem::path& path);

} // namespace ddpdesk::protocol
