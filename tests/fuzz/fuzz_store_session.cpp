// The store server's wire (net/tcp_store_wire.h) in both dialects, as one client's connection sees it
// (net/tcp_store_session.h): the input is everything a client sends, from its first byte (a v2 client starts
// with VALIDATE and the magic, a v1 client with its first query). No socket: the session reads the input's
// bytes. The table already holds a few keys (a value, a counter) so GET, ADD, CHECK and WAIT find something.
// Checked beyond "no crash": the session ends, gives back every byte it took of the budget, and never meets
// an exception (its last-resort STORE_INTERNAL_ERROR notice is a crash here).
#include "fuzz_support.h"

#include "net/tcp_store_session.h"
#include "net/tcp_store_table.h"

#include <atomic>

using namespace ddpdesk::net;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // Small caps: a frame of the input is at most a few KiB, and the limits are what is under test.
    StoreTable table(1u << 20);
    ByteBudget budget(4u << 20);
    std::atomic<bool> stopping{false};
    table.set("/default_pg//0/rank_0", "127.0.0.1:29500");
    table.set("counter", "5");
    auto session = std::make_shared<StoreSession>(
        std::make_unique<fuzz::BytesConnection>(data, size),
        StoreSession::Context{table, budget, stopping, [](const StoreNotice& n) {
                                  if (n.code == kNoticeInternal) fuzz::fail("the session threw: " + n.text);
                              }});
    session->run();
    if (budget.used() != 0)
        fuzz::fail("the session kept " + std::to_string(budget.used()) +
                   " bytes of the budget after it ended");
    return 0;
}
