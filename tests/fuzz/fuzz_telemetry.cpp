// The telemetry lines a rank prints (protocol/telemetry.h): the input is one output line, as a script or a
// worker could print it. Checked, parsed, and a parsed event written back and read again (the path an event
// takes into metrics.jsonl and out of a replay), and the same object as another node's event (eventFromJson,
// the node link's way in).
#include "fuzz_support.h"

#include "protocol/telemetry.h"

using namespace ddpdesk;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view line(reinterpret_cast<const char*>(data), size);
    protocol::checkLine(line);
    auto event = protocol::parseLine(line);
    if (event) {
        const std::string again = protocol::encodeLine(event->body);
        if (again.size() <= protocol::kMaxLineBytes && !protocol::parseLine(again))
            fuzz::fail("an event written back does not parse again: " + again);
        protocol::eventFromJson(event->body);
    }
    if (protocol::checkLine(line) == protocol::LineCheck::Ok) {
        nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        if (!j.is_discarded()) protocol::eventFromJson(std::move(j));
    }
    return 0;
}
