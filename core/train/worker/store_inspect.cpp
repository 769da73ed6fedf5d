#include "train/worker/store_inspect.h"

#include "protocol/file_store_reader.h"

#include "os/bounded_call.h"
#include "os/utf8_path.h"
#include "protocol/telemetry.h"
#include "train/base/errors.h"
#include "train/base/telemetry_emitter.h"
#include "train/rendezvous/c10d_compat.h"
#include "train/worker/resolve_identity.h"

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace ddpdesk::train {

namespace fs = std::filesystem;

namespace {

struct InspectResult {
    bool reachable = false;
    std::string error;
    nlohmann::json keys = nlohmann::json::object();
    nlohmann::json extra = nlohmann::json::object();
};

InspectResult inspectFile(const protocol::StoreSpec& a, const std::vector<std::string>& wanted) {
    InspectResult r;
    std::error_code ec;
    if (!fs::exists(a.path, ec)) {
        r.error = "store file " + os::utf8(a.path) +
                  " does not exist (no rank has opened it yet, or the last rank of a "
                  "finished run removed it)";
        return r;
    }
    const protocol::FileStoreContents store = protocol::readFileStore(a.path);
    if (!store.ok) {
        r.error = store.error;
        return r;
    }
    r.reachable = true;
    // c10d's "/" prefix is not part of the key a rank asked for.
    for (const std::string& k : wanted) {
        auto it = store.keys.find("/" + k);
        r.keys[k] = it == store.keys.end() ? nlohmann::json(nullptr) : nlohmann::json(it->second);
    }
    nlohmann::json all = nlohmann::json::array();
    for (const auto& [k, v] : store.keys)
        all.push_back(k.rfind('/', 0) == 0 ? k.substr(1) : k);
    r.extra[protocol::field::AllKeys] = all;
    r.extra[protocol::field::NumKeys] = store.keys.size();
    // c10d counts ranks whose FileStore was destroyed (a finished or cleanly failed rank) under "cleanup/".
    std::int64_t finished = 0;
    if (auto cleanup = store.internal.find("cleanup/"); cleanup != store.internal.end()) {
        try {
            finished = std::stoll(cleanup->second);
        } catch (const std::exception&) {
        }
    }
    r.extra[protocol::field::FinishedRanks] = finished;
    r.extra[protocol::field::FileSize] = store.size;
    return r;
}

InspectResult inspectTcp(const protocol::StoreSpec& a, const std::vector<std::string>& wanted,
                         std::chrono::milliseconds timeout) {
    auto result = std::make_shared<InspectResult>();
    KvStoreOptions spec;
    spec.isFile = false;
    spec.host = a.host;
    spec.port = static_cast<std::uint16_t>(a.port);
    spec.hostServer = false; // a client only: nothing is created on the other side
    spec.timeout = timeout;
    std::string failure;
    bool finished = false;
    try {
        finished = os::runBounded(
            [result, spec, wanted] {
                auto store = KvStore::open(spec);
                for (const std::string& k : wanted)
                    result->keys[k] =
                        store->check(k) ? nlohmann::json(store->get(k)) : nlohmann::json(nullptr);
                result->extra[protocol::field::NumKeys] = store->numKeys();
            },
            timeout + std::chrono::milliseconds(1000));
    } catch (const std::exception& e) {
        failure = e.what();
        failure = failure.substr(0, failure.find('\n'));
        finished = true;
    }
    if (!finished) {
        InspectResult r;
        r.error = "no answer from " + protocol::storeSpecText(a) + " within " +
                  std::to_string(timeout.count() / 1000.0).substr(0, 5) + " s (is it a c10d TCPStore?)";
        return r;
    }
    if (!failure.empty()) {
        InspectResult r;
        r.error = "cannot reach the TCPStore at " + protocol::storeSpecText(a) + ": " + failure;
        return r;
    }
    result->reachable = true;
    return *result;
}

} // namespace

int inspectStore(const WorkerOptions& o) {
    auto& tm = TelemetryEmitter::instance();
    const std::optional<protocol::StoreSpec> store = resolveStore(o);
    if (!store) throw badInput("--inspect-store needs --store file:PATH or tcp://HOST:PORT");
    const protocol::StoreSpec& a = *store;
    auto timeout = std::chrono::milliseconds(static_cast<std::int64_t>(o.timeoutSec * 1000.0));
    InspectResult r =
        a.kind == protocol::StoreSpec::Kind::File ? inspectFile(a, o.keys) : inspectTcp(a, o.keys, timeout);
    nlohmann::json e = tm.event(protocol::ev::StoreInspect);
    e[protocol::field::Store] = protocol::storeSpecText(a);
    e[protocol::field::Reachable] = r.reachable;
    e[protocol::field::Error] = r.error.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.error);
    e[protocol::field::Keys] = r.keys;
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
