// The two "apply fix" actions the GUI offers. renameStaleStore re-checks everything itself: the button may be
// pressed long after the diagnosis, and removing a store a live job uses breaks that job (pytorch#67566). It
// renames rather than deletes, so even a wrong call loses nothing.

#include "doctor/doctor.h"
#include "doctor/file_store_liveness.h"
#include "doctor/finding_texts.h"
#include "doctor/os_probes.h"
#include "net/net_socket.h"
#include "os/rename_aside.h"
#include "os/utf8_path.h"
#include "protocol/file_store_reader.h"
#include "protocol/finding_codes.h"
#include "protocol/store_spec.h"

#include <ctime>
#include <mutex>

namespace ddpdesk::doctor {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxSuffix = 1000;

fs::path storePath(const std::string& pathOrStore) {
    if (pathOrStore.rfind("file:", 0) == 0) return protocol::parseStoreSpec(pathOrStore).path;
    return ddpdesk::os::pathFromUtf8(pathOrStore);
}

std::string stampNow() {
    static std::mutex localtimeLock; // std::localtime shares one buffer
    std::lock_guard<std::mutex> hold(localtimeLock);
    const std::time_t now = std::time(nullptr);
    char text[32] = {};
    if (const std::tm* tm = std::localtime(&now)) std::strftime(text, sizeof text, "%Y%m%d-%H%M%S", tm);
    return text;
}

fs::path candidate(const fs::path& path, const std::string& stamp, int n) {
    std::string name = ddpdesk::os::utf8(path.filename()) + ".stale-" + stamp;
    if (n > 1) name += "-" + std::to_string(n);
    return path.parent_path() / ddpdesk::os::pathFromUtf8(name);
}

bool taken(const fs::path& p) {
    std::error_code ec;
    return fs::exists(fs::symlink_status(p, ec)); // a dangling symlink is taken too
}

// An outcome worded from finding_texts.cpp: its template for `code` (and `variant`) filled with `args`.
FixResult outcome(const std::string& code, const std::string& variant, std::vector<std::string> args) {
    FixResult r;
    const FindingText* text = fixResultText(code, variant);
    r.code = findingTextKey(code, variant);
    r.message = text ? fill(text->message, args) : r.code;
    r.args = std::move(args);
    return r;
}

FixResult outcome(const std::string& code, std::vector<std::string> args) {
    return outcome(code, std::string(), std::move(args));
}

} // namespace

std::string staleAsidePath(const std::string& pathOrStore) {
    const fs::path path = storePath(pathOrStore);
    if (path.filename().empty()) return {};
    const std::string stamp = stampNow();
    for (int n = 1; n <= kMaxSuffix; ++n)
        if (!taken(candidate(path, stamp, n))) return ddpdesk::os::utf8(candidate(path, stamp, n));
    return {};
}

FixResult renameStaleStore(const std::string& pathOrStore, const DoctorRequest& context) {
    const fs::path path = storePath(pathOrStore);
    const std::string name = ddpdesk::os::utf8(path);
    std::error_code ec;
    const auto status = fs::symlink_status(path, ec);
    if (fs::is_symlink(status)) return outcome(protocol::fix_outcome::Symlink, {name});
    if (!fs::is_regular_file(status)) return outcome(protocol::fix_outcome::NotAFile, {name});
    const protocol::FileStoreContents contents = protocol::readFileStore(path);
    if (!contents.proven()) return outcome(protocol::fix_outcome::NotAStore, {contents.notProven});
    std::vector<std::pair<std::string, std::string>> records;
    for (const auto& rec : contents.records)
        records.emplace_back(rec.key, rec.value);
    const RankCensus census = censusFromRecords(records);
    const StoreLiveness live = fileStoreLiveness(path, census);
    if (live.live()) return outcome(protocol::fix_outcome::InUse, {live.describe()});
    const StaleVerdict verdict = judgeStale(context, census, live.ageSeconds);
    if (!verdict.stale) return outcome(protocol::fix_outcome::NotStale, verdict.variant, verdict.args);

    const std::string stamp = stampNow();
    for (int n = 1; n <= kMaxSuffix; ++n) {
        const fs::path to = candidate(path, stamp, n);
        if (taken(to)) continue;
        std::string error;
        switch (os::renameNoReplace(path, to, error)) {
        case os::RenameStatus::TargetExists:
            continue; // appeared since the look: take the next suffix
        case os::RenameStatus::Failed:
            return outcome(protocol::fix_outcome::RenameFailed, {name, error});
        case os::RenameStatus::Done: {
            FixResult r = outcome(protocol::fix_outcome::Renamed, {name, ddpdesk::os::utf8(to)});
            r.ok = true;
            r.newPath = ddpdesk::os::utf8(to);
            return r;
        }
        }
    }
    return outcome(protocol::fix_outcome::RenameFailed, {name, "every .stale- name for it is taken"});
}

int suggestFreePort(int preferred) {
    if (preferred < 1024 || preferred > 65000) preferred = 29500;
    for (int port = preferred + 1; port <= preferred + 100 && port <= 65535; ++port)
        if (net::tryBind(port).status == net::BindStatus::Free && os::portHolders(port).empty()) return port;
    return net::pickFreePort();
}

} // namespace ddpdesk::doctor
