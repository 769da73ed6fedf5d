#include "train/store_inspect.h"

#include "train/bounded_call.h"
#include "train/c10d_compat.h"
#include "train/errors.h"
#include "train/identity.h"
#include "train/telemetry_emitter.h"

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace ddpdesk::train {

namespace fs = std::filesystem;

std::optional<FileStoreSnapshot> readFileStore(const std::string& path, std::string* error) {
    std::ifstream in(fs::path(path), std::ios::binary);
    if (!in) {
        if (error) *error = "cannot open " + path + " for reading";
        return std::nullopt;
    }
    std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // c10d FileStore appends records: [uint32 length][key bytes][uint32 length][value bytes], native byte
    // order (little-endian on every platform LibTorch supports). set() keys carry a "/" prefix, deleteKey()
    // appends a
    // "-"-prefixed tombstone, and add() on the cleanup counter uses the bare "cleanup/" key.
    FileStoreSnapshot snap;
    size_t pos = 0;
    auto readString = [&](std::string& out) {
        std::uint32_t len = 0;
        if (raw.size() - pos < sizeof(len)) return false;
        std::memcpy(&len, raw.data() + pos, sizeof(len));
        if (raw.size() - pos - sizeof(len) < len) return false;
        out.assign(raw.data() + pos + sizeof(len), static_cast<size_t>(len));
        pos += sizeof(len) + static_cast<size_t>(len);
        return true;
    };
    while (pos < raw.size()) {
        size_t recordStart = pos;
        std::string key, value;
        if (!readString(key) || !readString(value)) {
            pos = recordStart; // a record still being written: ignore it
            break;
        }
        if (!key.empty() && key[0] == '/')
            snap.keys[key.substr(1)] = value;
        else if (!key.empty() && key[0] == '-')
            snap.keys.erase(key.substr(2)); // tombstones name the stored key ("-" + "/" + key)
        else
            snap.internal[key] = value;
    }
    return snap;
}

namespace {

struct InspectResult {
    bool reachable = false;
    std::string error;
    nlohmann::json keys = nlohmann::json::object();
    nlohmann::json extra = nlohmann::json::object();
};

InspectResult inspectFile(const StoreAddress& a, const std::vector<std::string>& wanted) {
    InspectResult r;
    std::error_code ec;
    if (!fs::exists(fs::path(a.path), ec)) {
        r.error = "store file " + a.path +
                  " does not exist (no rank has opened it yet, or the last rank of a "
                  "finished run removed it)";
        return r;
    }
    std::string error;
    auto snap = readFileStore(a.path, &error);
    if (!snap) {
        r.error = error;
        return r;
    }
    r.reachable = true;
    for (const std::string& k : wanted) {
        auto it = snap->keys.find(k);
        r.keys[k] = it == snap->keys.end() ? nlohmann::json(nullptr) : nlohmann::json(it->second);
    }
    nlohmann::json all = nlohmann::json::array();
    for (const auto& [k, v] : snap->keys)
        all.push_back(k);
    r.extra["all_keys"] = all;
    r.extra["num_keys"] = snap->keys.size();
    auto cleanup = snap->internal.find("cleanup/");
    // c10d counts ranks whose FileStore was destroyed (a finished or cleanly failed rank) under "cleanup/".
    std::int64_t finished = 0;
    if (cleanup != snap->internal.end()) {
        try {
            finished = std::stoll(cleanup->second);
        } catch (const std::exception&) {
        }
    }
    r.extra["finished_ranks"] = finished;
    r.extra["file_size"] = fs::file_size(fs::path(a.path), ec);
    return r;
}

InspectResult inspectTcp(const StoreAddress& a, const std::vector<std::string>& wanted,
                         std::chrono::milliseconds timeout) {
    auto result = std::make_shared<InspectResult>();
    KvStoreOptions spec;
    spec.isFile = false;
    spec.host = a.host;
    spec.port = a.port;
    spec.hostServer = false; // a client only: nothing is created on the other side
    spec.timeout = timeout;
    std::string failure;
    bool finished = false;
    try {
        finished = runBounded(
            [result, spec, wanted] {
                auto store = KvStore::open(spec);
                for (const std::string& k : wanted)
                    result->keys[k] =
                        store->check(k) ? nlohmann::json(store->get(k)) : nlohmann::json(nullptr);
                result->extra["num_keys"] = store->numKeys();
            },
            timeout + std::chrono::milliseconds(1000));
    } catch (const std::exception& e) {
        failure = e.what();
        failure = failure.substr(0, failure.find('\n'));
        finished = true;
    }
    if (!finished) {
        InspectResult r;
        r.error = "no answer from " + a.display + " within " +
                  std::to_string(timeout.count() / 1000.0).substr(0, 5) + " s (is it a c10d TCPStore?)";
        return r;
    }
    if (!failure.empty()) {
        InspectResult r;
        r.error = "cannot reach the TCPStore at " + a.display + ": " + failure;
        return r;
    }
    result->reachable = true;
    return *result;
}

} // namespace

int inspectStore(const WorkerOptions& o) {
    auto& tm = TelemetryEmitter::instance();
    StoreAddress a = resolveStore(o);
    if (a.kind == StoreAddress::Kind::None)
        throw badInput("--inspect-store needs --store file:PATH or tcp://HOST:PORT");
    auto timeout = std::chrono::milliseconds(static_cast<std::int64_t>(o.timeoutSec * 1000.0));
    InspectResult r =
        a.kind == StoreAddress::Kind::File ? inspectFile(a, o.keys) : inspectTcp(a, o.keys, timeout);
    nlohmann::json e = tm.event("store_inspect");
    e["store"] = a.display;
    e["reachable"] = r.reachable;
    e["error"] = r.error.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.error);
    e["keys"] = r.keys;
    e.update(r.extra);
    tm.emit(e);
    if (!r.reachable) {
        // A detached TCP call may still be blocked: leave without joining it.
        std::fflush(stdout);
        std::fflush(stderr);
        std::_Exit(exit_code::Timeout);
    }
    return exit_code::Ok;
}

} // namespace ddpdesk::train
