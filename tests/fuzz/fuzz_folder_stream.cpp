// The node link over a folder (protocol/node_link.h, "Over a folder"): node 0 following node 1's stream of
// segment files in the run's link folder (launch/link/folder_stream.h), which anyone who can write to the
// share can write. The target writes the input as the stream's segment files, then polls a reader through
// them in small steps (frames cut across reads), and gives what it verified to the hello check and the
// events' filter (launch/link/hello_check.h) as the folder link does. Input: one mode byte, then
//   mode even: the raw bytes of segment 0 (length-prefixed bodies: 64 hex digits of MAC, then JSON);
//   mode odd:  lines; in each segment the first line is its header's payload (unsigned, as written) and the
//              rest are payloads the target signs as node 1 would; a line "%%" begins the next segment.
// The mode byte's upper bits choose how many bytes a poll may read.
#include "fuzz_support.h"

#include "launch/link/folder_stream.h"
#include "launch/link/hello_check.h"
#include "protocol/node_link.h"

using namespace ddpdesk;
namespace nl = protocol::node_link;

namespace {
const std::string kSecret(32, 'f');
const std::string kSession = "00000000deadbeef";
constexpr int kNode = 1;
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const fuzz::fs::path folder = fuzz::freshFolder("link");
    const std::string rest(reinterpret_cast<const char*>(data + 1), size - 1);
    if (data[0] & 1) {
        std::uint64_t segment = 0, seq = 0;
        std::string bytes;
        bool header = true;
        for (const std::string& line : fuzz::splitLines(rest)) {
            if (line == "%%") {
                fuzz::writeFile(folder / nl::segmentFileName(kNode, kSession, segment), bytes);
                bytes.clear();
                ++segment;
                seq = 0;
                header = true;
                continue;
            }
            const std::string body =
                header ? nl::signFrame(std::string(), std::string(), nl::Direction::Up, 0, line)
                       : nl::signFrame(kSecret, nl::segmentNonce(kNode, kSession, segment), nl::Direction::Up,
                                       seq++, line);
            bytes += nl::frameBytes(body);
            header = false;
        }
        fuzz::writeFile(folder / nl::segmentFileName(kNode, kSession, segment), bytes);
    } else {
        fuzz::writeFile(folder / nl::segmentFileName(kNode, kSession, 0), rest);
    }

    launch::link::FolderStreamReader reader(folder, kSecret, kNode, kSession, true);
    const std::size_t step = 16 + std::size_t(data[0] >> 1) * 64;
    const launch::link::RunShape shape{2, 4, 2};
    bool first = true;
    for (int i = 0; i < 256 && reader.state() == launch::link::FolderStreamReader::State::Reading; ++i) {
        auto payloads = reader.poll(step);
        for (auto& p : payloads) {
            if (first) launch::link::helloRefusal(p, shape);
            first = false;
            for (auto& e : launch::link::nodeEvents(p, kNode, shape.nproc))
                (void)e.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        }
    }
    reader.removeRest();
    return 0;
}
