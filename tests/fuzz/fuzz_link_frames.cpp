// The node link's frames (protocol/node_link.h) as node 0 reads them from a connection
// (launch/link/frame_io.h), and what it checks of a verified frame (launch/link/hello_check.h: the hello, a
// node's events). No socket: FrameIo reads the input's bytes. Input: one mode byte, then
//   mode even: the raw bytes of the connection (length-prefixed bodies: 64 hex digits of MAC, then JSON);
//   mode odd:  payloads, one a line, which the target signs with the run's secret as node 1 would (seq 0 the
//              hello), so what follows the MAC check is reached: the hello check and the events' filter.
// Segment file names (parseSegmentFileName) are read from the same bytes.
#include "fuzz_support.h"

#include "launch/link/frame_io.h"
#include "launch/link/hello_check.h"
#include "protocol/node_link.h"

using namespace ddpdesk;
namespace nl = protocol::node_link;

namespace {
const std::string kSecret(32, 'k');
const std::string kNonce = "0123456789abcdef";
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const bool signedMode = data[0] & 1;
    const std::string rest(reinterpret_cast<const char*>(data + 1), size - 1);

    int node = 0;
    std::string session;
    std::uint64_t segment = 0;
    nl::parseSegmentFileName(rest, &node, &session, &segment);

    std::string stream;
    if (signedMode) {
        std::uint64_t seq = 0;
        for (const std::string& payload : fuzz::splitLines(rest))
            stream += nl::frameBytes(nl::signFrame(kSecret, kNonce, nl::Direction::Up, seq++, payload));
    } else {
        stream = rest;
    }
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(stream.data());

    // As the hub's handshake reads the hello: the body first, its claims unverified, then the MAC.
    {
        fuzz::BytesConnection io(bytes, stream.size());
        launch::link::FrameIo frames(io, kSecret, nl::Direction::Down);
        frames.setNonce(kNonce);
        for (int i = 0; i < 64; ++i) {
            const auto body = frames.receiveBody(net::Clock::now());
            if (!body) break;
            nl::unsignedPayload(*body);
            nl::verifyFrame(kSecret, kNonce, nl::Direction::Up, std::uint64_t(i), *body);
        }
    }
    // As a session reads after the hello: every frame signed, in order.
    fuzz::BytesConnection io(bytes, stream.size());
    launch::link::FrameIo frames(io, kSecret, nl::Direction::Down);
    frames.setNonce(kNonce);
    const launch::link::RunShape shape{2, 4, 2};
    for (int i = 0; i < 64; ++i) {
        auto frame = frames.receiveSigned(net::Clock::now());
        if (!frame) break;
        if (i == 0) {
            launch::link::helloRefusal(*frame, shape);
        } else {
            for (auto& e : launch::link::nodeEvents(*frame, 1, shape.nproc))
                (void)e.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        }
    }
    return 0;
}
