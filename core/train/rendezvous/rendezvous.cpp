#include "train/rendezvous/rendezvous.h"

#include "os/bounded_call.h"
#include "train/base/environment.h"
#include "train/base/errors.h"
#include "train/base/telemetry_emitter.h"
#include "train/base/wait_report.h"

#include "os/utf8_path.h"
#include "protocol/run_auth.h"
#include "protocol/store_keys.h"
#include "protocol/telemetry.h"

#include <filesystem>
#include <fstream>

namespace ddpdesk::train {

namespace fs = std::filesystem;
using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

std::string arrivedKey(int rank) {
    return protocol::arrivedKey(rank);
}

namespace {

bool loopbackHost(const std::string& host) {
    return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

} // namespace

GlooDeviceSpec chooseGlooDevice(const std::string& ifaceFlag, const protocol::StoreSpec& store,
                                const Identity& identity) {
    GlooDeviceSpec d;
    if (!ifaceFlag.empty()) {
        d.iface = ifaceFlag;
    } else if (auto env = envValue("GLOO_SOCKET_IFNAME")) {
        d.iface = *env;
    } else if (store.kind == protocol::StoreSpec::Kind::Tcp && loopbackHost(store.host)) {
        d.hostname = store.host == "::1" ? "::1" : "127.0.0.1";
    } else if (identity.allRanksLocal()) {
        // Nobody beyond this machine needs to reach Gloo's listening sockets.
        d.hostname = "127.0.0.1";
    }
    // Otherwise (a FileStore on a shared folder may span machines) the hostname's address.
    return d;
}

namespace {

double secondsOf(milliseconds ms) {
    return ms.count() / 1000.0;
}

std::string secondsText(milliseconds ms) {
    std::string s = std::to_string(secondsOf(ms));
    s.erase(s.find_last_not_of('0') + 1);
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s + " s";
}

void phase(const char* name, const RendezvousConfig& c, Clock::time_point start, nlohmann::json extra = {}) {
    auto& tm = TelemetryEmitter::instance();
    nlohmann::json e = tm.event(protocol::ev::Rendezvous);
    e[protocol::field::Phase] = name;
    e[protocol::field::Store] = protocol::storeSpecText(c.address);
    e[protocol::field::ElapsedMs] = std::chrono::duration_cast<milliseconds>(Clock::now() - start).count();
    if (extra.is_object()) e.update(extra);
    tm.emit(e);
}

milliseconds remaining(Clock::time_point deadline) {
    auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now());
    return left.count() > 0 ? left : milliseconds(0);
}

// A FileStore on a missing folder retries opening for its whole timeout (pytorch#48475): check first.
void checkFileStorePath(const std::string& path) {
    fs::path p(path);
    fs::path parent = p.parent_path();
    std::error_code ec;
    if (!parent.empty() && !fs::is_directory(parent, ec))
        throw TrainError(error_code::BadInput,
                         "--store file:" + path + ": folder " + parent.string() +
                             " does not exist (create it, or choose a path in an existing shared folder)",
                         exit_code::BadInput);
    if (fs::is_directory(p, ec))
        throw TrainError(error_code::BadInput,
                         "--store file:" + path + " is a folder; give a file path inside it",
                         exit_code::BadInput);
    std::ofstream probe(p, std::ios::binary | std::ios::app);
    if (!probe)
        throw TrainError(error_code::BadInput,
                         "--store file:" + path + ": cannot create or open the file for writing",
                         exit_code::BadInput);
}

std::shared_ptr<KvStore> openStore(const RendezvousConfig& c, Clock::time_point deadline) {
    KvStoreOptions spec;
    spec.isFile = c.address.kind == protocol::StoreSpec::Kind::File;
    spec.path = os::utf8(c.address.path);
    spec.host = c.address.host;
    spec.port = static_cast<std::uint16_t>(c.address.port);
    spec.hostServer = !spec.isFile && c.identity.rank == 0 && !c.externalStore;
    spec.worldSize = c.identity.worldSize;
    spec.timeout = c.timeout;
    if (spec.isFile) checkFileStorePath(spec.path);

    // Abandoned calls outlive this frame: they write only into shared holders they own a share of.
    auto holder = std::make_shared<std::shared_ptr<KvStore>>();
    std::string failure;
    // Grace beyond the store's own timeout so c10d's message (which names the address) normally wins.
    bool finished = false;
    try {
        finished = os::runBounded([holder, spec] { *holder = KvStore::open(spec); },
                                  remaining(deadline) + milliseconds(2000));
    } catch (const std::exception& e) {
        failure = e.what();
        failure = failure.substr(0, failure.find('\n'));
        finished = true;
    }
    nlohmann::json waiting{{protocol::field::What, "store"},
                           {protocol::field::Store, protocol::storeSpecText(c.address)},
                           {protocol::field::TimeoutS, secondsOf(c.timeout)}};
    if (!finished)
        throw TrainError(error_code::StoreUnreachable,
                         "no answer from the store " + protocol::storeSpecText(c.address) + " within " +
                             secondsText(c.timeout) +
                             (spec.hostServer || spec.isFile ? "" : " (is rank 0 running and reachable?)"),
                         exit_code::Timeout, waiting);
    if (!failure.empty()) {
        std::string lowerFailure = failure;
        for (auto& ch : lowerFailure)
            ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        if (spec.hostServer && (lowerFailure.find("address already in use") != std::string::npos ||
                                lowerFailure.find("errno: 98") != std::string::npos ||
                                lowerFailure.find("10048") != std::string::npos))
            throw TrainError(error_code::PortInUse,
                             "rank 0 cannot host the TCPStore on port " + std::to_string(spec.port) +
                                 ": the port is in use by another process (another job on the same port?). "
                                 "Choose a free port. (" +
                                 failure + ")",
                             exit_code::Timeout, waiting);
        throw TrainError(error_code::StoreUnreachable,
                         "cannot " + std::string(spec.hostServer ? "host" : "reach") + " the store " +
                             protocol::storeSpecText(c.address) + ": " + failure,
                         exit_code::Timeout, waiting);
    }
    return *holder;
}

[[noreturn]] void refuseForeign(const RendezvousConfig& c, int rank, const std::string& host,
                                std::int64_t pid, const std::string& why) {
    throw TrainError(error_code::ForeignRank,
                     "refusing to train: rank " + std::to_string(rank) + " at the store " +
                         protocol::storeSpecText(c.address) + " (host " + host + ", pid " +
                         std::to_string(pid) + ") cannot prove it belongs to this run: " + why +
                         ". Another job or someone else who can reach the store joined; check who runs pid " +
                         std::to_string(pid) + " on " + host + ", and firewall the store port.",
                     exit_code::ForeignRank,
                     {{protocol::field::What, "rank_proof"},
                      {protocol::field::Store, protocol::storeSpecText(c.address)},
                      {protocol::field::Rank, rank},
                      {protocol::field::Host, host},
                      {protocol::field::Pid, pid},
                      {protocol::field::Why, why}});
}

// Called once every arrival key exists: a genuine rank writes its proof before its arrival, so a missing
// proof means the arrival came from outside this run.
void verifyRankProofs(const RendezvousConfig& c, KvStore& store) {
    const std::string context = protocol::authContext(c.identity.worldSize);
    for (int r = 0; r < c.identity.worldSize; ++r) {
        if (!store.check(protocol::authKey(r))) {
            std::string host = "?";
            std::int64_t pid = -1;
            const nlohmann::json arrival = nlohmann::json::parse(store.get(arrivedKey(r)), nullptr, false);
            if (arrival.is_object()) {
                if (arrival.contains("host") && arrival["host"].is_string())
                    host = arrival["host"].get<std::string>();
                if (arrival.contains("pid") && arrival["pid"].is_number_integer())
                    pid = arrival["pid"].get<std::int64_t>();
            }
            refuseForeign(c, r, host, pid, "it arrived without a proof (no run secret)");
        }
        const protocol::AuthCheck check =
            protocol::verifyAuthRecord(store.get(protocol::authKey(r)), r, c.secret, context);
        if (!check.ok) refuseForeign(c, r, check.host, check.pid, check.why);
    }
}

nlohmann::json arrivalRecord(const Identity& id) {
    return {{"host", id.host}, {"pid", id.pid}, {"t", protocol::nowSeconds()}, {"local_rank", id.localRank}};
}

void announceAndWait(const RendezvousConfig& c, KvStore& store, Clock::time_point deadline) {
    const Identity& id = c.identity;
    const std::string mine = arrivedKey(id.rank);
    if (store.check(mine)) {
        std::string previous;
        try {
            previous = store.get(mine);
        } catch (const std::exception&) {
        }
        throw TrainError(
            error_code::RendezvousFailed,
            "the store " + protocol::storeSpecText(c.address) + " already holds an arrival for rank " +
                std::to_string(id.rank) + " (" + previous +
                "): a stale store left by an earlier run that did not finish, or two processes started "
                "as rank " +
                std::to_string(id.rank) +
                ". Delete the store file / use a fresh store, and check the launch.",
            exit_code::Timeout,
            {{protocol::field::What, "ranks"},
             {protocol::field::Store, protocol::storeSpecText(c.address)},
             {protocol::field::DuplicateRank, id.rank}});
    }
    if (!c.secret.empty())
        store.set(protocol::authKey(id.rank), protocol::makeAuthRecord(c.secret, id.rank, id.host, id.pid,
                                                                       protocol::authContext(id.worldSize)));
    store.set(mine, arrivalRecord(id).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));

    std::vector<std::string> keys;
    for (int r = 0; r < id.worldSize; ++r)
        keys.push_back(arrivedKey(r));
    if (store.waitFor(keys, remaining(deadline))) {
        if (!c.secret.empty()) verifyRankProofs(c, store);
        return;
    }

    nlohmann::json arrived = nlohmann::json::array(), missing = nlohmann::json::array();
    for (int r = 0; r < id.worldSize; ++r)
        (store.check(arrivedKey(r)) ? arrived : missing).push_back(r);
    throw TrainError(error_code::RendezvousTimeout,
                     "timed out after " + secondsText(c.timeout) + " waiting at the store " +
                         protocol::storeSpecText(c.address) + " for all " + std::to_string(id.worldSize) +
                         " ranks: arrived " + arrived.dump() + ", missing " + missing.dump() +
                         " (did every rank start, with the same store and world size?)",
                     exit_code::Timeout,
                     {{protocol::field::What, "ranks"},
                      {protocol::field::Store, protocol::storeSpecText(c.address)},
                      {protocol::field::WorldSize, id.worldSize},
                      {protocol::field::Arrived, arrived},
                      {protocol::field::Missing, missing},
                      {protocol::field::TimeoutS, secondsOf(c.timeout)}});
}

// A Gloo group of `world` ranks under `prefix`; `who` names them in messages ("ranks", "nodes' leaders").
std::unique_ptr<GlooGroup> createGroup(const RendezvousConfig& c, const std::shared_ptr<KvStore>& store,
                                       const std::string& prefix, int rank, int world, const std::string& who,
                                       Clock::time_point deadline) {
    auto holder = std::make_shared<std::unique_ptr<GlooGroup>>();
    std::string failure;
    // Arrivals are complete here, so connecting should be quick; still, an advertised address that is not
    // reachable (hostname -> 127.0.1.1, firewall) would block for Gloo's own 30-minute default.
    milliseconds limit = std::max(remaining(deadline), milliseconds(5000));
    bool finished = false;
    try {
        finished = os::runBounded(
            [holder, store, prefix, rank, world, device = c.device, collectiveTimeout = c.collectiveTimeout] {
                *holder = GlooGroup::create(store, prefix, rank, world, device, collectiveTimeout);
            },
            limit);
    } catch (const std::exception& e) {
        failure = e.what();
        failure = failure.substr(0, failure.find('\n'));
        finished = true;
    }
    nlohmann::json waiting{{protocol::field::What, "gloo_connect"},
                           {protocol::field::Store, protocol::storeSpecText(c.address)},
                           {protocol::field::Device, c.device.describe()},
                           {protocol::field::WorldSize, world},
                           {protocol::field::TimeoutS, secondsOf(limit)}};
    if (!finished)
        throw TrainError(
            error_code::RendezvousTimeout,
            "all " + who + " arrived at " + protocol::storeSpecText(c.address) +
                ", but the Gloo connections between them did "
                "not complete within " +
                secondsText(limit) + " (Gloo device: " + c.device.describe() +
                "). A rank may advertise an unreachable address (hostname resolving to 127.0.1.1, "
                "firewall): set --iface / GLOO_SOCKET_IFNAME.",
            exit_code::Timeout, waiting);
    if (!failure.empty())
        throw TrainError(error_code::RendezvousFailed,
                         "creating the Gloo process group failed (device: " + c.device.describe() +
                             "): " + failure,
                         exit_code::Timeout, waiting);
    return std::move(*holder);
}

} // namespace

RendezvousResult rendezvous(const RendezvousConfig& c) {
    auto start = Clock::now();
    auto deadline = start + c.timeout;
    RendezvousResult r;
    const bool hosting =
        c.address.kind == protocol::StoreSpec::Kind::Tcp && c.identity.rank == 0 && !c.externalStore;
    phase("store_connect", c, start, {{protocol::field::Hosting, hosting}});
    {
        WaitScope waiting(
            {"connecting to the store " + protocol::storeSpecText(c.address), "rendezvous", "store"});
        r.store = openStore(c, deadline);
    }
    phase("store_ready", c, start);
    try {
        WaitScope waiting({"all " + std::to_string(c.identity.worldSize) + " ranks arriving at " +
                               protocol::storeSpecText(c.address),
                           "rendezvous", "store"});
        announceAndWait(c, *r.store, deadline);
    } catch (const TrainError&) {
        throw;
    } catch (const std::exception& e) {
        throw TrainError(
            error_code::StoreUnreachable,
            "the store " + protocol::storeSpecText(c.address) + " failed while ranks arrived: " + e.what(),
            exit_code::Timeout,
            {{protocol::field::What, "store"}, {protocol::field::Store, protocol::storeSpecText(c.address)}});
    }
    phase("pg_create", c, start, {{protocol::field::Device, c.device.describe()}});
    {
        WaitScope waiting({"the Gloo connections between the ranks", "rendezvous", "connect"});
        r.group =
            createGroup(c, r.store, "ddpdesk/pg", c.identity.rank, c.identity.worldSize, "ranks", deadline);
    }
    phase("pg_ready", c, start);
    return r;
}

std::unique_ptr<GlooGroup> createSubgroup(const RendezvousConfig& config,
                                          const std::shared_ptr<KvStore>& store, const std::string& prefix,
                                          int rank, int size) {
    return createGroup(config, store, prefix, rank, size, "nodes' leaders", Clock::now() + config.timeout);
}

} // namespace ddpdesk::train
