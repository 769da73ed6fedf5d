// FILESTORE_* findings: the folder, write access, and whether an existing file is a live store or a stale
// one.

#include "doctor/checks.h"
#include "doctor/file_store_liveness.h"
#include "protocol/file_store_reader.h"

#include <chrono>
#include <fstream>
#include <random>

namespace ddpdesk::doctor::detail {

namespace fs = std::filesystem;

namespace {

// Creating a file is the only honest write test: permission bits lie under ACLs, read-only mounts and root.
bool canCreateIn(const fs::path& dir, std::string& error) {
    std::random_device rd;
    fs::path probe = dir / (".ddpdesk-doctor-" + std::to_string(rd()) + ".tmp");
    {
        std::ofstream f(probe, std::ios::binary);
        if (!f) {
            error = "cannot create a file in " + dir.u8string();
            return false;
        }
    }
    std::error_code ec;
    fs::remove(probe, ec);
    return true;
}

nlohmann::json keyList(const protocol::FileStoreContents& c) {
    nlohmann::json keys = nlohmann::json::array();
    for (const auto& [k, v] : c.keys) {
        if (keys.size() >= 40) break;
        keys.push_back(k);
    }
    return keys;
}

} // namespace

void checkFileStore(const DoctorRequest& request, const fs::path& path, std::vector<Finding>& out) {
    std::error_code ec;
    fs::path dir = path.parent_path().empty() ? fs::current_path(ec) : path.parent_path();
    const nlohmann::json where = {{"path", path.u8string()}, {"folder", dir.u8string()}};

    if (!fs::is_directory(dir, ec)) {
        out.push_back(
            withArgs(makeFinding("FILESTORE_DIR_MISSING", Severity::Error,
                                 "The folder for the store file does not exist: " + dir.u8string() +
                                     " (c10d would wait on it until the timeout instead of failing).",
                                 where, "Create the folder, or choose a store path in an existing folder."),
                     "", {dir.u8string()}));
        return;
    }
    if (fs::is_directory(path, ec)) {
        out.push_back(withArgs(
            makeFinding("FILESTORE_NOT_A_FILE", Severity::Error,
                        path.u8string() + " is a folder; the store needs a file path.", where,
                        "Use a file inside that folder, e.g. " + (path / "ddp-store").u8string() + "."),
            "", {path.u8string(), (path / "ddp-store").u8string()}));
        return;
    }
    std::string writeError;
    const bool exists = fs::exists(path, ec);
    bool writable = canCreateIn(dir, writeError);
    if (writable && exists) {
        std::ofstream probe(path, std::ios::binary | std::ios::app); // opens without changing a byte
        writable = static_cast<bool>(probe);
        if (!writable) writeError = "cannot open " + path.u8string() + " for writing";
    }
    if (!writable) {
        auto e = where;
        e["error"] = writeError;
        out.push_back(
            withArgs(makeFinding("FILESTORE_NOT_WRITABLE", Severity::Error,
                                 "The store file cannot be written: " + writeError + ".", e,
                                 "Choose a folder every rank can write to (check permissions, read-only "
                                 "mounts and network-share access)."),
                     "", {writeError}));
        return;
    }
    if (!exists && request.jobRunning) {
        out.push_back(
            makeFinding("FILESTORE_GONE", Severity::Error,
                        "The job is said to be running but its store file does not exist: it was deleted "
                        "under the job (an early destroy_process_group or a cleanup) or the path differs.",
                        where, "Check that every rank uses exactly this path; restart the job."));
        return;
    }
    if (!exists) {
        out.push_back(makeFinding("FILESTORE_READY", Severity::Info,
                                  "The folder is writable and no old store file is in the way.", where));
        return;
    }

    protocol::FileStoreContents contents = protocol::readFileStore(path);
    if (!contents.ok) {
        auto e = where;
        e["size"] = contents.size;
        out.push_back(withArgs(makeFinding("FILESTORE_NOT_A_STORE", Severity::Error, contents.error + ".", e,
                                           "Pick another store path; this file belongs to something else."),
                               "", {contents.error}));
        return;
    }
    std::vector<std::pair<std::string, std::string>> records;
    for (const auto& r : contents.records)
        records.emplace_back(r.key, r.value);
    const RankCensus census = censusFromRecords(records);
    const StoreLiveness live = fileStoreLiveness(path, census);

    auto e = where;
    e["size"] = contents.size;
    e["age_s"] = live.ageSeconds;
    e["keys"] = keyList(contents);
    e["key_count"] = contents.keys.size();
    e["records"] = contents.records.size();
    if (contents.truncated) e["truncated"] = true;

    if (!live.live()) {
        if (contents.records.empty()) {
            out.push_back(makeFinding("FILESTORE_EMPTY", Severity::Info,
                                      "An empty store file exists; c10d can reuse it.", e));
            return;
        }
        // Parses, yet not as c10d writes: never call someone else's file a stale store.
        if (!contents.proven()) {
            out.push_back(
                withArgs(makeFinding("FILESTORE_NOT_A_STORE", Severity::Error, contents.notProven + ".", e,
                                     "Pick another store path; this file belongs to something else."),
                         "", {contents.notProven}));
            return;
        }
        e["ranks"] = census.toJson();
        e["arrived_count"] = census.arrivedCount();
        e["rendezvous_timeout_s"] = request.rendezvousTimeoutSec;
        e["node_rank"] = request.nodeRank;
        if (fs::is_symlink(fs::symlink_status(path, ec)))
            e["symlink"] = true; // the fix never renames through a link
        const StaleVerdict verdict = judgeStale(request, census, live.ageSeconds);
        if (!verdict.stale) {
            e["why_not_stale"] = verdict.variant;
            const bool otherNode = verdict.variant == "other_node";
            std::vector<std::string> args = verdict.args;
            args.push_back(path.u8string());
            // For a new launch on node 0 the file is in the way whether or not a rank waits on it; a joining
            // node or a diagnosis of the running job expects it.
            const Severity severity =
                request.jobRunning || request.nodeRank > 0 ? Severity::Warning : Severity::Error;
            out.push_back(withArgs(
                makeFinding(
                    "FILESTORE_MAYBE_LIVE", severity,
                    "No process here is seen using the store file, but it is not stale: " + verdict.reason +
                        ".",
                    e,
                    otherNode ? "Run the doctor on node 0, or pass --force once no node uses " +
                                    path.u8string() + "; or choose a new store path."
                              : "If this run is wanted, start its missing ranks; if not, choose a new store "
                                "path (or, once no rank waits, pass a shorter --rendezvous-timeout)."),
                verdict.variant, args));
            reportCensus(request, census, !request.jobRunning, out);
            return;
        }
        if (request.jobRunning) {
            e["why_stale"] = verdict.reason;
            out.push_back(
                makeFinding("FILESTORE_ABANDONED", Severity::Error,
                            "No live process uses this store any more: the job has exited or was killed.", e,
                            "Restart the job; rename the store file aside first (it holds the old "
                            "run's keys)."));
            reportCensus(request, census, false, out);
            return;
        }
        std::vector<std::string> args = {std::to_string(contents.keys.size()),
                                         std::to_string(static_cast<long long>(live.ageSeconds)),
                                         path.u8string()};
        args.insert(args.end(), verdict.args.begin(), verdict.args.end());
        out.push_back(
            withArgs(makeFinding("FILESTORE_STALE", Severity::Error,
                                 "A store file from an earlier run is in the way (" +
                                     std::to_string(contents.keys.size()) + " keys, " + verdict.reason +
                                     "); new ranks would mix with its keys and hang or miscount.",
                                 e,
                                 "Rename " + path.u8string() +
                                     " aside (no live process uses it; it becomes NAME.stale-DATE-TIME), or "
                                     "choose a new path."),
                     verdict.variant, args));
        return;
    }

    e["processes"] = live.processesJson();
    if (!request.jobRunning) {
        const bool hard = !live.holders.empty();
        std::string who = live.describe();
        out.push_back(withArgs(
            makeFinding(hard ? "FILESTORE_LOCKED" : "FILESTORE_IN_USE", Severity::Error,
                        hard ? "Another live process holds the store file: " + who + "."
                             : "A live run is using this store file: " + who + ".",
                        e,
                        "End that process (or let its run finish), or pick another store path. If it "
                        "is the job you want to diagnose, run the doctor with --running."),
            "", {who}));
        if (hard) {
            const auto& first = live.holders.front();
            out.back().evidence["pid"] = first.pid;
            out.back().evidence["process"] = first.name;
        }
    } else {
        out.push_back(withArgs(makeFinding("FILESTORE_LIVE", Severity::Info,
                                           "The job's store is live: " + live.describe() + ".", e),
                               "", {live.describe()}));
    }
    reportCensus(request, census, false, out);
}

} // namespace ddpdesk::doctor::detail
