#pragma once

// What the hostile-client tests of DDP Desk's TCPStore server share (test_store_server_hostile.cpp,
// test_store_answer_budget.cpp): a raw client on loopback, the wire's frames, a legitimate client that
// measures its round trips and the process's resident memory while the hostile ones work.

#include "monitor/process_stats.h"
#include "net/tcp_store_server.h"
#include "net/tcp_store_wire.h"

#include "mini_test.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace ddpdesk;
using namespace std::chrono_literals;
using net::wire::Query;

namespace storetest {

constexpr auto kRoundTripLimit = 50ms;
constexpr std::uint64_t kMemoryLimit = 50ull * 1024 * 1024;

struct Notices {
    std::mutex mutex;
    std::vector<net::StoreNotice> said;
    net::StoreNoticeSink sink() {
        return [this](const net::StoreNotice& n) {
            std::lock_guard<std::mutex> lock(mutex);
            said.push_back(n);
        };
    }
    // The first notice of `code` said within `limit`, or an empty one.
    net::StoreNotice waitFor(const std::string& code, std::chrono::milliseconds limit = 10s) {
        const auto until = std::chrono::steady_clock::now() + limit;
        for (;;) {
            {
                std::lock_guard<std::mutex> lock(mutex);
                for (const auto& n : said)
                    if (n.code == code) return n;
            }
            if (std::chrono::steady_clock::now() > until) return {};
            std::this_thread::sleep_for(20ms);
        }
    }
};

inline std::unique_ptr<net::TcpStoreServer> startServer(Notices& notices,
                                                        net::StoreServerLimits limits = {}) {
    auto r = net::TcpStoreServer::start("127.0.0.1", 0, notices.sink(), limits);
    TEST_REQUIRE_MSG(r.server != nullptr, "could not listen: " + r.error);
    return std::move(r.server);
}

inline std::unique_ptr<net::Connection> connect(int port) {
    auto c = net::connectTcp("127.0.0.1", port, 5000ms);
    TEST_REQUIRE_MSG(c.connection != nullptr, "connect: " + c.error);
    return std::move(c.connection);
}

inline std::string q1(Query q) {
    return std::string(1, char(*net::wire::code(1, q)));
}

inline std::string setFrame(const std::string& key, const std::string& value) {
    std::string m = q1(Query::Set);
    net::wire::putString(m, key);
    net::wire::putString(m, value);
    return m;
}

inline bool sendText(net::Connection& c, const std::string& bytes) {
    return c.sendAll(bytes.data(), bytes.size(), net::Clock::now() + 10s);
}

inline bool closedByServer(net::Connection& c, std::chrono::seconds limit = 5s) {
    unsigned char b;
    return !c.recvExact(&b, 1, net::Clock::now() + limit) && c.peerClosed();
}

inline std::uint64_t residentBytes() {
    return monitor::readProcessStats(ddpdesk::os::currentPid()).residentBytes;
}

// A legitimate client doing NUM_KEYS round trips every 10 ms on its own connection, for as long as it lives;
// and the process's resident memory, sampled at the same pace.
class Probe {
public:
    explicit Probe(int port) : m_io(connect(port)), m_baseRss(residentBytes()) {
        m_thread = std::thread([this] { loop(); });
    }
    ~Probe() { stop(); }
    void stop() {
        m_stop = true;
        if (m_thread.joinable()) m_thread.join();
    }
    void check(const std::string& during) {
        stop();
        TEST_CHECK_MSG(m_failed.empty(), "the legitimate client failed during " + during + ": " + m_failed);
        TEST_CHECK_MSG(m_trips > 10, "only " + std::to_string(m_trips) + " round trips during " + during);
        TEST_CHECK_MSG(m_worst < kRoundTripLimit, "a legitimate round trip took " +
                                                      std::to_string(m_worst.count() / 1000) + " ms during " +
                                                      during + " (limit 50 ms)");
        const std::uint64_t grew = m_peakRss > m_baseRss ? m_peakRss - m_baseRss : 0;
        TEST_CHECK_MSG(grew < kMemoryLimit, "resident memory grew by " + std::to_string(grew >> 20) +
                                                " MB during " + during + " (limit 50 MB)");
        std::printf("  %s: %zu round trips, worst %.1f ms; resident +%.1f MB\n", during.c_str(), m_trips,
                    m_worst.count() / 1000.0, double(grew) / (1 << 20));
    }

private:
    void loop() {
        const std::string query = q1(Query::NumKeys);
        while (!m_stop) {
            const auto t0 = std::chrono::steady_clock::now();
            unsigned char answer[8];
            if (!m_io->sendAll(query.data(), 1, net::Clock::now() + 5s) ||
                !m_io->recvExact(answer, 8, net::Clock::now() + 5s)) {
                m_failed = m_io->lastError();
                return;
            }
            m_worst = std::max(m_worst, std::chrono::duration_cast<std::chrono::microseconds>(
                                            std::chrono::steady_clock::now() - t0));
            ++m_trips;
            m_peakRss = std::max(m_peakRss, residentBytes());
            std::this_thread::sleep_for(10ms);
        }
    }
    std::unique_ptr<net::Connection> m_io;
    std::uint64_t m_baseRss;
    std::uint64_t m_peakRss = 0;
    std::atomic<bool> m_stop{false};
    std::string m_failed;
    std::size_t m_trips = 0;
    std::chrono::microseconds m_worst{0};
    std::thread m_thread;
};

inline bool waitUntil(const std::function<bool()>& done, std::chrono::milliseconds limit = 10s) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (!done()) {
        if (std::chrono::steady_clock::now() > until) return false;
        std::this_thread::sleep_for(10ms);
    }
    return true;
}

} // namespace storetest
