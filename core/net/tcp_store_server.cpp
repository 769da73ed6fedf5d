#include "net/tcp_store_server.h"

#include "net/tcp_store_wire.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>

namespace ddpdesk::net {

namespace {

// Idle connections are read in slices this long, so stop() never waits longer for a thread.
constexpr Millis kIdleSlice{200};
// A client writes a whole query in one flush; one that stalls mid-query this long is dropped.
constexpr Millis kQueryTime{30000};
// A wake-up is one byte to a client that is waiting for it; only a client that stopped reading delays it.
constexpr Millis kAnswerTime{5000};

using wire::Query;

} // namespace

struct TcpStoreServer::Client {
    std::unique_ptr<Connection> io;
    std::mutex sendMutex; // answers come from this client's thread and from whichever thread completes a wait
    int dialect = 0;      // 0 until the first bytes say
    std::vector<std::string> waitKeys; // under the server's m_mutex
    TimePoint queryDeadline{};

    bool send(const std::string& bytes) {
        std::lock_guard<std::mutex> lock(sendMutex);
        return io->sendAll(bytes.data(), bytes.size(), Clock::now() + kAnswerTime);
    }
    bool read(void* data, std::size_t n) { return io->recvExact(data, n, queryDeadline); }
    std::optional<std::uint64_t> readU64() {
        unsigned char b[8];
        if (!read(b, 8)) return std::nullopt;
        return wire::getLe(b, 8);
    }
    std::optional<std::string> readBytes(std::uint64_t limit, std::optional<std::uint64_t> knownLength = {}) {
        const auto n = knownLength ? knownLength : readU64();
        if (!n || *n > limit) return std::nullopt;
        std::string s(static_cast<std::size_t>(*n), '\0');
        if (*n > 0 && !read(s.data(), s.size())) return std::nullopt;
        return s;
    }
    std::optional<std::vector<std::string>> readKeys() {
        const auto n = readU64();
        if (!n || *n > kMaxKeysPerQuery) return std::nullopt;
        std::vector<std::string> keys;
        for (std::uint64_t i = 0; i < *n; ++i) {
            auto k = readBytes(kMaxKeyBytes);
            if (!k) return std::nullopt;
            keys.push_back(std::move(*k));
        }
        return keys;
    }
};

TcpStoreServer::StartResult TcpStoreServer::start(const std::string& numeric, int port) {
    StartResult r;
    ListenResult l = listenTcp(numeric, port);
    if (!l.listener) {
        r.error = l.error;
        return r;
    }
    r.server.reset(new TcpStoreServer(std::move(l.listener), numeric));
    return r;
}

TcpStoreServer::TcpStoreServer(std::unique_ptr<Listener> listener, std::string address)
    : m_listener(std::move(listener)), m_address(std::move(address)), m_port(m_listener->port()) {
    m_acceptor = std::thread([this] { acceptLoop(); });
}

TcpStoreServer::~TcpStoreServer() {
    m_stop = true;
    if (m_acceptor.joinable()) m_acceptor.join();
    std::vector<std::thread> clients;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        clients.swap(m_clients);
    }
    for (std::thread& t : clients)
        t.join();
}

std::size_t TcpStoreServer::numKeys() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_data.size();
}

void TcpStoreServer::acceptLoop() {
    while (!m_stop) {
        std::unique_ptr<Connection> io = m_listener->accept(kIdleSlice);
        if (!io) continue;
        ++m_accepted;
        auto client = std::make_shared<Client>();
        client->io = std::move(io);
        std::lock_guard<std::mutex> lock(m_mutex);
        m_clients.emplace_back([this, client] { serve(client); });
    }
}

void TcpStoreServer::serve(const std::shared_ptr<Client>& client) {
    while (!m_stop) {
        unsigned char first = 0;
        if (!client->io->recvExact(&first, 1, Clock::now() + kIdleSlice)) {
            if (client->io->timedOut()) continue;
            break; // closed or failed: as c10d does, the connection ends and the store lives on
        }
        client->queryDeadline = Clock::now() + kQueryTime;
        if (!handle(client, first)) break;
    }
    std::lock_guard<std::mutex> lock(m_mutex);
    m_waiting.erase(std::remove(m_waiting.begin(), m_waiting.end(), client), m_waiting.end());
}

bool TcpStoreServer::allPresent(const std::vector<std::string>& keys) const {
    return std::all_of(keys.begin(), keys.end(),
                       [this](const std::string& k) { return m_data.count(k) > 0; });
}

void TcpStoreServer::wakeWaiters() {
    const std::string stop(1, static_cast<char>(wire::kStopWaiting));
    for (auto it = m_waiting.begin(); it != m_waiting.end();) {
        if (allPresent((*it)->waitKeys)) {
            (*it)->send(stop);
            it = m_waiting.erase(it);
        } else {
            ++it;
        }
    }
}

// One query, its first byte already read. false: the connection is to be closed (a protocol error, a query
// this server does not serve, or the peer went away mid-query).
bool TcpStoreServer::handle(const std::shared_ptr<Client>& client, std::uint8_t first) {
    Client& c = *client;
    std::optional<std::uint64_t>
        setKeyLength; // a v1 SET whose first length bytes were read to tell the dialect
    if (c.dialect == 0) {
        c.dialect = 1;
        if (first == 0) {
            unsigned char b[4];
            if (!c.read(b, 4)) return false;
            if (wire::getLe(b, 4) == wire::kValidationMagic) {
                c.dialect = 2;
                return true;
            }
            unsigned char high[4];
            if (!c.read(high, 4)) return false;
            setKeyLength = wire::getLe(b, 4) | (wire::getLe(high, 4) << 32);
        }
    }
    const std::optional<Query> q = wire::query(c.dialect, first);
    if (!q) return false;
    std::string answer;
    switch (*q) {
    case Query::Validate: {
        unsigned char b[4];
        return c.read(b, 4) && wire::getLe(b, 4) == wire::kValidationMagic;
    }
    case Query::Set:
    case Query::Append: {
        auto key = c.readBytes(kMaxKeyBytes, setKeyLength);
        auto value = key ? c.readBytes(kMaxValueBytes) : std::nullopt;
        if (!value) return false;
        std::lock_guard<std::mutex> lock(m_mutex);
        if (*q == Query::Set)
            m_data[*key] = std::move(*value);
        else
            m_data[*key] += *value;
        wakeWaiters();
        return true;
    }
    case Query::MultiSet: {
        const auto n = c.readU64();
        if (!n || *n > kMaxKeysPerQuery) return false;
        std::vector<std::pair<std::string, std::string>> pairs;
        for (std::uint64_t i = 0; i < *n; ++i) {
            auto key = c.readBytes(kMaxKeyBytes);
            auto value = key ? c.readBytes(kMaxValueBytes) : std::nullopt;
            if (!value) return false;
            pairs.emplace_back(std::move(*key), std::move(*value));
        }
        std::lock_guard<std::mutex> lock(m_mutex);
        for (auto& [key, value] : pairs)
            m_data[key] = std::move(value);
        wakeWaiters();
        return true;
    }
    case Query::CompareSet: {
        auto key = c.readBytes(kMaxKeyBytes);
        auto expected = key ? c.readBytes(kMaxValueBytes) : std::nullopt;
        auto desired = expected ? c.readBytes(kMaxValueBytes) : std::nullopt;
        if (!desired) return false;
        std::lock_guard<std::mutex> lock(m_mutex);
        auto it = m_data.find(*key);
        // c10d's answers, including its quirk: a missing key with a non-empty expectation answers the
        // expectation and sets nothing.
        if (it == m_data.end()) {
            if (expected->empty()) {
                m_data[*key] = *desired;
                wire::putString(answer, *desired);
                wakeWaiters();
            } else {
                wire::putString(answer, *expected);
            }
        } else {
            if (it->second == *expected) it->second = *desired;
            wire::putString(answer, it->second);
            wakeWaiters();
        }
        break;
    }
    case Query::Add: {
        auto key = c.readBytes(kMaxKeyBytes);
        auto delta = key ? c.readU64() : std::nullopt;
        if (!delta) return false;
        std::lock_guard<std::mutex> lock(m_mutex);
        long long sum = static_cast<long long>(*delta);
        auto it = m_data.find(*key);
        if (it != m_data.end()) {
            char* end = nullptr;
            const long long old = std::strtoll(it->second.c_str(), &end, 10);
            if (it->second.empty() || end != it->second.c_str() + it->second.size())
                return false; // not a counter
            sum += old;
        }
        m_data[*key] = std::to_string(sum);
        wire::putLe(answer, static_cast<std::uint64_t>(sum), 8);
        wakeWaiters();
        break;
    }
    case Query::Get: {
        auto key = c.readBytes(kMaxKeyBytes);
        if (!key) return false;
        std::lock_guard<std::mutex> lock(m_mutex);
        auto it = m_data.find(*key);
        if (it == m_data.end()) return false; // clients wait first; c10d drops such a client too
        wire::putString(answer, it->second);
        break;
    }
    case Query::MultiGet: {
        auto keys = c.readKeys();
        if (!keys) return false;
        std::lock_guard<std::mutex> lock(m_mutex);
        for (const std::string& key : *keys) {
            auto it = m_data.find(key);
            if (it == m_data.end()) return false;
            wire::putString(answer, it->second);
        }
        break;
    }
    case Query::Check: {
        auto keys = c.readKeys();
        if (!keys) return false;
        std::lock_guard<std::mutex> lock(m_mutex);
        answer.push_back(static_cast<char>(allPresent(*keys) ? wire::kCheckReady : wire::kCheckNotReady));
        break;
    }
    case Query::Wait: {
        auto keys = c.readKeys();
        if (!keys) return false;
        std::lock_guard<std::mutex> lock(m_mutex);
        if (allPresent(*keys)) {
            answer.push_back(static_cast<char>(wire::kStopWaiting));
            break;
        }
        c.waitKeys = std::move(*keys);
        if (std::find(m_waiting.begin(), m_waiting.end(), client) == m_waiting.end())
            m_waiting.push_back(client);
        return true;
    }
    case Query::CancelWait: {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_waiting.erase(std::remove(m_waiting.begin(), m_waiting.end(), client), m_waiting.end());
        }
        answer.push_back(static_cast<char>(wire::kWaitCanceled));
        break;
    }
    case Query::NumKeys: {
        std::lock_guard<std::mutex> lock(m_mutex);
        wire::putLe(answer, m_data.size(), 8);
        break;
    }
    case Query::DeleteKey: {
        auto key = c.readBytes(kMaxKeyBytes);
        if (!key) return false;
        std::lock_guard<std::mutex> lock(m_mutex);
        wire::putLe(answer, m_data.erase(*key), 8);
        break;
    }
    case Query::Ping: {
        unsigned char nonce[4];
        if (!c.read(nonce, 4)) return false;
        answer.assign(reinterpret_cast<const char*>(nonce), 4);
        break;
    }
    case Query::WatchKey:
        return false; // PyTorch 1.x's callback API: no rendezvous uses it, and a silent "yes" would hang a
                      // caller
    }
    return c.send(answer);
}

} // namespace ddpdesk::net
