// The collective-progress record a rank rewrites in place (protocol/collective_progress.h), as the launcher
// reads it: the input is the file's bytes (a record, half of one, or anything a script wrote there). A record
// that parses is written back and must parse again.
#include "fuzz_support.h"

#include "protocol/collective_progress.h"

using namespace ddpdesk;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto record =
        protocol::parseCollectiveRecord(std::string_view(reinterpret_cast<const char*>(data), size));
    if (!record) return 0;
    record->inside();
    record->flightView();
    const std::string again = protocol::formatCollectiveRecord(*record);
    if (again.size() != protocol::kCollectiveRecordBytes)
        fuzz::fail("a record written back is " + std::to_string(again.size()) + " bytes");
    if (!protocol::parseCollectiveRecord(again))
        fuzz::fail("a record written back does not parse again: " + again);
    return 0;
}
