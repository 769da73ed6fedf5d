#pragma once

// The only place that touches c10d (stores, ProcessGroupGloo, Work). c10d's C++ API is not stable across
// LibTorch releases (1.13 -> 2.x moved ProcessGroupGloo under Backend, TCPStore grew libuv), so every call
// sits here behind version guards and the rest of the engine sees these small types only. Built and tested
// against 1.13, 2.6 and 2.14 (whose headers need C++20: the top-level CMakeLists follows TorchConfig's
// standard); what Gloo sums is found out at run time (GlooGroup::glooCannotSum), not from the version.

#include "train/base/collectives.h"

#include <ATen/Tensor.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace ddpdesk::train {

// Classifies a c10d/Gloo exception text (peer went away, timed out, anything else).
CommFailure classifyCommFailure(const std::string& message);

// How to open a c10d store: the address (resolved from protocol::StoreSpec by identity.cpp) and this
// process's role in it.
struct KvStoreOptions {
    bool isFile = true;
    std::string path;        // FileStore
    std::string host;        // TCPStore
    std::uint16_t port = 0;  // TCPStore
    bool hostServer = false; // TCPStore: this process runs the server (DDP Desk's own on a loopback host)
    int worldSize = 1;
    std::chrono::milliseconds timeout{60000};
};

// A c10d store (FileStore or TCPStore). Calls throw std::exception subclasses from c10d on failure.
class KvStore {
public:
    static std::shared_ptr<KvStore> open(const KvStoreOptions& spec);
    ~KvStore();

    void set(const std::string& key, const std::string& value);
    std::string get(const std::string& key); // waits for the key up to the store timeout
    bool check(const std::string& key);      // exists now, never waits
    bool waitFor(const std::vector<std::string>& keys, std::chrono::milliseconds timeout); // false on timeout
    std::int64_t numKeys();

    struct Impl;
    Impl& impl() { return *m_impl; }

private:
    KvStore();
    std::unique_ptr<Impl> m_impl;
};

struct GlooDeviceSpec {
    std::string iface; // --iface / GLOO_SOCKET_IFNAME
    std::string
        hostname; // an address to bind (e.g. 127.0.0.1 for single-node jobs); used when iface is empty
    std::string describe() const;
};

// A Gloo process group. Creation blocks until every rank connected (bounded by the caller, see
// rendezvous.cpp).
class GlooGroup final : public Collectives {
public:
    // Empty when this LibTorch's ProcessGroupGloo sums tensors of `type`; otherwise why it cannot. Gloo's
    // type list is a property of the build, not only of the release: 1.13 refuses bfloat16, 2.x sums float16
    // and bfloat16 where its Gloo carries PyTorch's 16-bit types (PyTorch's own builds, Debian's 2.6) and
    // refuses both where it does not (Debian's 2.14: GLOO_USE_TORCH_DTYPES 0), each with "Invalid scalar
    // type". Found out once per type with a one-rank group on loopback.
    static std::string glooCannotSum(c10::ScalarType type);

    static std::unique_ptr<GlooGroup> create(const std::shared_ptr<KvStore>& store, const std::string& prefix,
                                             int rank, int worldSize, const GlooDeviceSpec& device,
                                             std::chrono::milliseconds collectiveTimeout);
    ~GlooGroup() override;

    int rank() const override { return m_rank; }
    int size() const override { return m_size; }
    const char* backendName() const override { return "gloo"; }
    std::string cannotSum(c10::ScalarType type) const override { return glooCannotSum(type); }

    std::shared_ptr<PendingCollective> allreduceSum(const at::Tensor& tensor) override;
    std::shared_ptr<PendingCollective> broadcast(const std::vector<at::Tensor>& tensors, int root) override;
    std::shared_ptr<PendingCollective> barrier() override;

    struct Impl;

private:
    GlooGroup() = default;
    std::unique_ptr<Impl> m_impl;
    int m_rank = 0;
    int m_size = 1;
};

} // namespace ddpdesk::train
