// The two "apply fix" actions the GUI offers. deleteStaleStore re-checks liveness itself: the button may be pressed
// long after the diagnosis, and deleting a store a live job uses breaks that job (pytorch#67566).

#include "doctor/doctor.h"
#include "doctor/file_store_liveness.h"
#include "doctor/file_store_reader.h"
#include "doctor/net_socket.h"
#include "doctor/os_probes.h"
#include "doctor/store_address.h"

namespace ddpdesk::doctor {

namespace fs = std::filesystem;

FixResult deleteStaleStore(const std::string& pathOrStore) {
    FixResult r;
    fs::path path = fs::u8path(pathOrStore);
    if (pathOrStore.rfind("file:", 0) == 0)
        path = parseStoreAddress(pathOrStore).path;
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) {
        r.message = "Nothing to delete: " + path.u8string() + " is not an existing file.";
        r.code = "NOT_A_FILE";
        r.args = {path.u8string()};
        return r;
    }
    FileStoreContents contents = readFileStore(path);
    if (!contents.ok) {
        r.message = "Refused: " + contents.error + ", so it is not deleted.";
        r.code = "NOT_A_STORE";
        r.args = {contents.error};
        return r;
    }
    std::vector<std::pair<std::string, std::string>> records;
    for (const auto& rec : contents.records)
        records.emplace_back(rec.key, rec.value);
    StoreLiveness live = fileStoreLiveness(path, censusFromRecords(records));
    if (live.live()) {
        r.message = "Refused: the store is in use (" + live.describe() + "). End that run first.";
        r.code = "IN_USE";
        r.args = {live.describe()};
        return r;
    }
    if (!fs::remove(path, ec)) {
        r.message = "Could not delete " + path.u8string() + ": " + ec.message();
        r.code = "DELETE_FAILED";
        r.args = {path.u8string(), ec.message()};
        return r;
    }
    r.ok = true;
    r.message = "Deleted the stale store file " + path.u8string() + ".";
    r.code = "DELETED";
    r.args = {path.u8string()};
    return r;
}

int suggestFreePort(int preferred) {
    if (preferred < 1024 || preferred > 65000)
        preferred = 29500;
    for (int port = preferred + 1; port <= preferred + 100 && port <= 65535; ++port)
        if (net::tryBind(port).status == net::BindStatus::Free && os::portHolders(port).empty())
            return port;
    return net::pickFreePort();
}

} // namespace ddpdesk::doctor
