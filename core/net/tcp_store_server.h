#pragma once

// A c10d TCPStore server of DDP Desk's own, bound to the address it is given (loopback unless the user asked
// for the network). c10d's own server listens on every interface (PyTorch 1.x has no bind address at all;
// Python's TCPStore has none either), so anyone who reaches the port could join or read a single-node run.
// This one speaks both wire dialects (tcp_store_wire.h), told apart per connection by the first bytes, so
// PyTorch 1.x and 2.x clients - Python scripts through torchrun's TORCHELASTIC_USE_AGENT_STORE, and LibTorch
// workers - join it unchanged.
//
// One thread per connection (a run has a few per rank), blocking reads in short slices so stop() is prompt;
// waits are answered from whichever thread completes the keys. Sizes are bounded (kMaxKeyBytes,
// kMaxValueBytes, kMaxKeysPerQuery): a peer that announces more is disconnected, never allocated for.

#include "net/net_socket.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace ddpdesk::net {

class TcpStoreServer {
public:
    static constexpr std::uint64_t kMaxKeyBytes = 64 * 1024;
    static constexpr std::uint64_t kMaxValueBytes = 256ull * 1024 * 1024;
    static constexpr std::uint64_t kMaxKeysPerQuery = 64 * 1024;

    struct StartResult {
        std::unique_ptr<TcpStoreServer> server;
        std::string error; // why it could not listen, e.g. "Address already in use (errno 98)"
    };
    // `numeric`: the address to bind (127.0.0.1 for a single-node run); port 0 takes a free one.
    static StartResult start(const std::string& numeric, int port);
    ~TcpStoreServer(); // stops: no new connections, open ones closed, every thread joined

    int port() const { return m_port; }
    const std::string& address() const { return m_address; }
    // What a client sees, for the launcher's log and the tests.
    std::size_t numKeys() const;
    std::size_t connectionsAccepted() const { return m_accepted.load(); }

    TcpStoreServer(const TcpStoreServer&) = delete;
    TcpStoreServer& operator=(const TcpStoreServer&) = delete;

private:
    struct Client;
    TcpStoreServer(std::unique_ptr<Listener> listener, std::string address);
    void acceptLoop();
    void serve(const std::shared_ptr<Client>& client);
    bool handle(const std::shared_ptr<Client>& client, std::uint8_t first);
    // Under m_mutex: answers every waiting client whose keys are now all present.
    void wakeWaiters();
    bool allPresent(const std::vector<std::string>& keys) const;

    std::unique_ptr<Listener> m_listener;
    std::string m_address;
    int m_port = 0;
    std::atomic<bool> m_stop{false};
    std::atomic<std::size_t> m_accepted{0};
    mutable std::mutex m_mutex; // guards m_data, m_waiting and m_clients
    std::map<std::string, std::string> m_data;
    std::vector<std::shared_ptr<Client>> m_waiting;
    std::vector<std::thread> m_clients;
    std::thread m_acceptor;
};

} // namespace ddpdesk::net
