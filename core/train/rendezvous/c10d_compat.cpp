#include "train/rendezvous/c10d_compat.h"

#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/HashStore.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <torch/csrc/distributed/c10d/Types.hpp>
#include <torch/version.h>

#include <ddpdesk/build_info.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
#define DDPDESK_TCPSTORE_HAS_LIBUV_OPTION 1
#else
#define DDPDESK_TCPSTORE_HAS_LIBUV_OPTION 0
#endif
// What a release's Gloo sums when the probe in GlooGroup::glooCannotSum cannot run: bfloat16 from 2.x.
#if TORCH_VERSION_MAJOR >= 2
#define DDPDESK_GLOO_HAS_BFLOAT16 1
#else
#define DDPDESK_GLOO_HAS_BFLOAT16 0
#endif
#include "net/tcp_store_server.h"
#include "protocol/file_store_reader.h"
#include "protocol/telemetry.h"
#include "train/base/telemetry_emitter.h"

namespace ddpdesk::train {

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::vector<std::uint8_t> bytes(const std::string& s) {
    return std::vector<std::uint8_t>(s.begin(), s.end());
}

} // namespace

CommFailure classifyCommFailure(const std::string& message) {
    std::string m = lower(message);
    for (const char* peerGone :
         {"connection closed by peer", "connection reset by peer", "broken pipe", "socket closed",
          "end of file", "connection refused", "read error", "write error"})
        if (m.find(peerGone) != std::string::npos) return CommFailure::PeerLost;
    for (const char* timedOut : {"timed out", "timeout"})
        if (m.find(timedOut) != std::string::npos) return CommFailure::Timeout;
    return CommFailure::Other;
}

// ---- stores
// -------------------------------------------------------------------------------------------------

struct KvStore::Impl {
    // Declared first so it is destroyed last: the client below talks to it until its own end.
    std::unique_ptr<net::TcpStoreServer> server;
    c10::intrusive_ptr<c10d::Store> store;
    std::string filePath; // a FileStore's
    int worldSize = 1;
};

namespace {

// c10d 2.x's FileStore destructor counts finished ranks ("cleanup/") and live FileStore objects ("refcount/")
// in two separately locked steps, and removes the file only where one rank sees both complete: two ranks
// ending at the same moment can each see the other's half, and the file stays (about 1 run in 7 here,
// LibTorch 2.6). Once every rank has finished and no object is alive, the file is nobody's: it goes, as c10d
// meant. Only a file that reads as a FileStore throughout is touched.
void removeFinishedFileStore(const std::string& path, int worldSize) {
    std::error_code ec;
    if (path.empty() || !std::filesystem::exists(path, ec)) return;
    const protocol::FileStoreContents c = protocol::readFileStore(path);
    if (!c.proven()) return;
    auto counter = [&c](const char* key, long long absent) {
        const auto it = c.internal.find(key);
        if (it == c.internal.end()) return absent;
        try {
            return std::stoll(it->second);
        } catch (const std::exception&) {
            return -1LL; // not a number: leave the file alone
        }
    };
    if (counter("cleanup/", 0) >= worldSize && counter("refcount/", 0) == 0)
        std::filesystem::remove(path, ec);
}

} // namespace

KvStore::KvStore() : m_impl(std::make_unique<Impl>()) {}

KvStore::~KvStore() {
    m_impl->store.reset(); // c10d's own clean-up first
    removeFinishedFileStore(m_impl->filePath, m_impl->worldSize);
}

std::shared_ptr<KvStore> KvStore::open(const KvStoreOptions& spec) {
    std::shared_ptr<KvStore> kv(new KvStore());
    if (spec.isFile) {
        // numWorkers lets the last rank to finish delete the file, so a clean run leaves no stale store
        // behind.
        kv->m_impl->store = c10::make_intrusive<c10d::FileStore>(spec.path, spec.worldSize);
        kv->m_impl->store->setTimeout(spec.timeout);
        kv->m_impl->filePath = spec.path;
        kv->m_impl->worldSize = spec.worldSize;
    } else {
        c10d::TCPStoreOptions opts;
        opts.port = spec.port;
        opts.isServer = spec.hostServer;
        // Our own arrival keys replace TCPStore's worker counting, so construction never waits for peers.
        opts.numWorkers = c10::nullopt;
        opts.waitWorkers = false;
        opts.timeout = spec.timeout;
#if DDPDESK_TCPSTORE_HAS_LIBUV_OPTION && defined(_WIN32)
        // Windows LibTorch builds lack libuv; 2.4+ defaults to it (pytorch#139990).
        opts.useLibUV = false;
#endif
        if (spec.hostServer && (spec.host == "127.0.0.1" || spec.host == "::1" || spec.host == "localhost")) {
            // Loopback asked for, loopback listened on: c10d's server binds every interface (1.x has no bind
            // address; 2.3+'s masterListenFd is ignored by the libuv backend before 2.8). DDP Desk's own
            // server (core/net) listens where asked, and this rank joins it as a client like every other.
            const std::string address = spec.host == "::1" ? "::1" : "127.0.0.1";
            auto hosted = net::TcpStoreServer::start(address, spec.port, [](const net::StoreNotice& n) {
                TelemetryEmitter& out = TelemetryEmitter::instance();
                out.log("store server [" + n.code + "]: " + n.text);
                nlohmann::json e = out.event(protocol::ev::StoreNotice);
                e[protocol::field::Code] = n.code;
                e[protocol::field::Text] = n.text;
                out.emit(e);
            });
            if (!hosted.server)
                throw std::runtime_error("cannot listen on " + address + ":" + std::to_string(spec.port) +
                                         ": " + hosted.error);
            kv->m_impl->server = std::move(hosted.server);
            opts.isServer = false;
        }
#if DDPDESK_TCPSTORE_HAS_LIBUV_OPTION
        try {
            kv->m_impl->store = c10::make_intrusive<c10d::TCPStore>(spec.host, opts);
        } catch (const std::exception& e) {
            // 2.4+ asks for libuv by default, and LibTorch builds without it (Windows, Debian) refuse:
            // "use_libuv was requested but PyTorch was build without libuv support". The classic backend
            // serves the same protocol.
            if (!opts.useLibUV || std::string(e.what()).find("libuv") == std::string::npos) throw;
            opts.useLibUV = false;
            kv->m_impl->store = c10::make_intrusive<c10d::TCPStore>(spec.host, opts);
        }
#else
        kv->m_impl->store = c10::make_intrusive<c10d::TCPStore>(spec.host, opts);
#endif
    }
    return kv;
}

void KvStore::set(const std::string& key, const std::string& value) {
    m_impl->store->set(key, bytes(value));
}

std::string KvStore::get(const std::string& key) {
    std::vector<std::uint8_t> v = m_impl->store->get(key);
    return std::string(v.begin(), v.end());
}

bool KvStore::check(const std::string& key) {
    return m_impl->store->check({key});
}

bool KvStore::waitFor(const std::vector<std::string>& keys, std::chrono::milliseconds timeout) {
    // Polling with check() instead of Store::wait: the same bounded behaviour on every store type and
    // version, and no server-side wait left behind when we give up.
    auto deadline = std::chrono::steady_clock::now() + timeout;
    auto pause = std::chrono::milliseconds(5);
    for (;;) {
        if (m_impl->store->check(keys)) return true;
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::milliseconds(100));
    }
}

std::int64_t KvStore::numKeys() {
    return m_impl->store->getNumKeys();
}

// ---- Gloo
// ---------------------------------------------------------------------------------------------------

std::string GlooDeviceSpec::describe() const {
    if (!iface.empty()) return "interface " + iface;
    if (!hostname.empty()) return "address of " + hostname;
    return "this host's name";
}

namespace {

class GlooWork : public PendingCollective {
public:
    explicit GlooWork(c10::intrusive_ptr<c10d::Work> work) : m_work(std::move(work)) {}
    void wait(std::chrono::milliseconds timeout) override {
        if (timeout.count() <= 0) timeout = std::chrono::milliseconds(1); // 0 would mean "forever" to c10d
        try {
            m_work->wait(timeout);
        } catch (const std::exception& e) {
            std::string what = e.what();
            // c10d reports its own wait timeout as "Operation timed out!"
            throw CommError(classifyCommFailure(what), what.substr(0, what.find('\n')));
        }
    }

private:
    c10::intrusive_ptr<c10d::Work> m_work;
};

} // namespace

struct GlooGroup::Impl {
    c10::intrusive_ptr<c10d::ProcessGroupGloo> pg;
};

GlooGroup::~GlooGroup() = default;

namespace {

// Whether a ProcessGroupGloo of this LibTorch sums `type`: a one-rank group on loopback over an in-memory
// store (no peer, no file, no port of anyone's), one tiny allreduce. The type check is the same code path
// a real group takes (ProcessGroupGloo's GENERATE_ALL_TYPES). Empty optional when the probe itself fails.
std::optional<bool> probeGlooSums(c10::ScalarType type) {
    try {
        auto options = c10d::ProcessGroupGloo::Options::create(std::chrono::milliseconds(10000));
        options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
        auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(c10::make_intrusive<c10d::HashStore>(), 0, 1,
                                                              options);
        std::vector<at::Tensor> tensors{at::ones({2}, at::TensorOptions().dtype(type))};
        c10d::AllreduceOptions opts;
        opts.reduceOp = c10d::ReduceOp::SUM;
        pg->allreduce(tensors, opts)->wait(std::chrono::milliseconds(10000));
        return true;
    } catch (const std::exception& e) {
        if (std::string(e.what()).find("Invalid scalar type") != std::string::npos) return false;
        return std::nullopt;
    }
}

} // namespace

std::string GlooGroup::glooCannotSum(c10::ScalarType type) {
    static std::mutex mutex;
    static std::map<c10::ScalarType, bool> known;
    bool sums = true;
    {
        std::lock_guard<std::mutex> lock(mutex);
        auto it = known.find(type);
        if (it == known.end()) {
            const bool fallback = type != c10::kBFloat16 || DDPDESK_GLOO_HAS_BFLOAT16;
            it = known.emplace(type, probeGlooSums(type).value_or(fallback)).first;
        }
        sums = it->second;
    }
    if (sums) return {};
    const std::string what =
        std::string("Gloo in LibTorch " DDPDESK_TORCH_VERSION " cannot sum ") + dtypeName(type);
#if TORCH_VERSION_MAJOR >= 2
    return what + " (this build's Gloo lacks PyTorch's 16-bit types, as Debian's 2.14 does; PyTorch's own "
                  "builds sum them)";
#else
    return what + " (LibTorch 2.x can, where its Gloo has PyTorch's 16-bit types)";
#endif
}

std::unique_ptr<GlooGroup> GlooGroup::create(const std::shared_ptr<KvStore>& store, const std::string& prefix,
                                             int rank, int worldSize, const GlooDeviceSpec& device,
                                             std::chrono::milliseconds collectiveTimeout) {
    auto options = c10d::ProcessGroupGloo::Options::create(collectiveTimeout);
    if (!device.iface.empty())
        options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(device.iface));
    else if (!device.hostname.empty())
        options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname(device.hostname));
    else
        options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    // Two Gloo threads, as Python's default: one bucket's allreduce can run while the next is queued.
    options->threads = 2;
    auto prefixed = c10::make_intrusive<c10d::PrefixStore>(prefix, store->impl().store);
    std::unique_ptr<GlooGroup> group(new GlooGroup());
    group->m_impl = std::make_unique<Impl>();
    // 1.13: ProcessGroupGloo derives from ProcessGroup; 2.x: from Backend. The constructor is the same in
    // both.
    group->m_impl->pg = c10::make_intrusive<c10d::ProcessGroupGloo>(prefixed, rank, worldSize, options);
    group->m_rank = rank;
    group->m_size = worldSize;
    return group;
}

std::shared_ptr<PendingCollective> GlooGroup::allreduceSum(const at::Tensor& tensor) {
    std::vector<at::Tensor> tensors{tensor};
    c10d::AllreduceOptions opts;
    opts.reduceOp = c10d::ReduceOp::SUM;
    return std::make_shared<GlooWork>(m_impl->pg->allreduce(tensors, opts));
}

std::shared_ptr<PendingCollective> GlooGroup::broadcast(const std::vector<at::Tensor>& tensors, int root) {
    // Gloo broadcasts one tensor per call; queue them all, wait on the last (the queue runs in order per
    // group).
    std::vector<c10::intrusive_ptr<c10d::Work>> works;
    for (const at::Tensor& t : tensors) {
        std::vector<at::Tensor> one{t};
        c10d::BroadcastOptions opts;
        opts.rootRank = root;
        works.push_back(m_impl->pg->broadcast(one, opts));
    }
    struct All : PendingCollective {
        std::vector<std::shared_ptr<GlooWork>> parts;
        void wait(std::chrono::milliseconds timeout) override {
            auto deadline = std::chrono::steady_clock::now() + timeout;
            for (auto& p : parts)
                p->wait(std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now()));
        }
    };
    auto all = std::make_shared<All>();
    for (auto& w : works)
        all->parts.push_back(std::make_shared<GlooWork>(w));
    return all;
}

std::shared_ptr<PendingCollective> GlooGroup::barrier() {
    return std::make_shared<GlooWork>(m_impl->pg->barrier(c10d::BarrierOptions()));
}

} // namespace ddpdesk::train
