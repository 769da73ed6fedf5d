// FILESTORE_* findings: the folder, write access, and whether an existing file is a live store or a stale
// one.

#include "doctor/checks.h"
#include "doctor/file_store_liveness.h"
#include "os/utf8_path.h"
#include "protocol/file_store_reader.h"
#include "protocol/finding_codes.h"

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
            error = "cannot create a file in " + ddpdesk::os::utf8(dir);
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
    const nlohmann::json where = {{"path", ddpdesk::os::utf8(path)}, {"folder", ddpdesk::os::utf8(dir)}};

    if (!fs::is_directory(dir, ec)) {
        out.push_back(textFinding(protocol::finding::FileStoreDirMissing, Severity::Error,
                                  {ddpdesk::os::utf8(dir)}, where));
        return;
    }
    if (fs::is_directory(path, ec)) {
        out.push_back(textFinding(protocol::finding::FileStoreNotAFile, Severity::Error,
                                  {ddpdesk::os::utf8(path), ddpdesk::os::utf8(path / "ddp-store")}, where));
        return;
    }
    std::string writeError;
    const bool exists = fs::exists(path, ec);
    bool writable = canCreateIn(dir, writeError);
    if (writable && exists && !fs::is_regular_file(fs::status(path, ec))) { // a FIFO: opening it would block
        writable = false;
        writeError = ddpdesk::os::utf8(path) + " is not a regular file (a FIFO or a device)";
    } else if (writable && exists) {
        std::ofstream probe(path, std::ios::binary | std::ios::app); // opens without changing a byte
        writable = static_cast<bool>(probe);
        if (!writable) writeError = "cannot open " + ddpdesk::os::utf8(path) + " for writing";
    }
    if (!writable) {
        auto e = where;
        e["error"] = writeError;
        out.push_back(textFinding(protocol::finding::FileStoreNotWritable, Severity::Error, {writeError}, e));
        return;
    }
    if (!exists && request.jobRunning) {
        out.push_back(textFinding(protocol::finding::FileStoreGone, Severity::Error, {}, where));
        return;
    }
    if (!exists) {
        out.push_back(textFinding(protocol::finding::FileStoreReady, Severity::Info, {}, where));
        return;
    }

    protocol::FileStoreContents contents = protocol::readFileStore(path);
    if (!contents.ok) {
        auto e = where;
        e["size"] = contents.size;
        out.push_back(
            textFinding(protocol::finding::FileStoreNotAStore, Severity::Error, {contents.error}, e));
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
            out.push_back(textFinding(protocol::finding::FileStoreEmpty, Severity::Info, {}, e));
            return;
        }
        // Parses, yet not as c10d writes: never call someone else's file a stale store.
        if (!contents.proven()) {
            out.push_back(
                textFinding(protocol::finding::FileStoreNotAStore, Severity::Error, {contents.notProven}, e));
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
            std::vector<std::string> args = verdict.args;
            args.push_back(ddpdesk::os::utf8(path));
            // For a new launch on node 0 the file is in the way whether or not a rank waits on it; a joining
            // node or a diagnosis of the running job expects it.
            const Severity severity =
                request.jobRunning || request.nodeRank > 0 ? Severity::Warning : Severity::Error;
            out.push_back(
                textFinding(protocol::finding::FileStoreMaybeLive, verdict.variant, severity, args, e));
            reportCensus(request, census, !request.jobRunning, out);
            return;
        }
        if (request.jobRunning) {
            e["why_stale"] = verdict.reason;
            out.push_back(textFinding(protocol::finding::FileStoreAbandoned, Severity::Error, {}, e));
            reportCensus(request, census, false, out);
            return;
        }
        std::vector<std::string> args = {std::to_string(contents.keys.size()),
                                         std::to_string(static_cast<long long>(live.ageSeconds)),
                                         ddpdesk::os::utf8(path)};
        args.insert(args.end(), verdict.args.begin(), verdict.args.end());
        out.push_back(
            textFinding(protocol::finding::FileStoreStale, verdict.variant, Severity::Error, args, e));
        return;
    }

    e["processes"] = live.processesJson();
    if (!request.jobRunning) {
        const bool hard = !live.holders.empty();
        std::string who = live.describe();
        out.push_back(
            textFinding(hard ? protocol::finding::FileStoreLocked : protocol::finding::FileStoreInUse,
                        Severity::Error, {who}, e));
        if (hard) {
            const auto& first = live.holders.front();
            out.back().evidence["pid"] = first.pid;
            out.back().evidence["process"] = first.name;
        }
    } else {
        out.push_back(textFinding(protocol::finding::FileStoreLive, Severity::Info, {live.describe()}, e));
    }
    reportCensus(request, census, false, out);
}

} // namespace ddpdesk::doctor::detail
