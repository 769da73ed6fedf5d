// The collective-progress file a rank rewrites in place, as the launcher reads it: the input is the file's
// bytes (a record, half of one, or anything a script wrote there), read as the record
// (protocol/collective_progress.h) and as the history of last collectives after it
// (protocol/collective_history.h). A record or an entry that parses is written back and must parse again, the
// same.
#include "fuzz_support.h"

#include "protocol/collective_history.h"

#include <nlohmann/json.hpp>

using namespace ddpdesk;

namespace {

void history(std::string_view bytes) {
    // The fuzzer's inputs are short: the same bytes are also tried as one entry and as the ring's first slot.
    std::string file(protocol::kCollectiveRecordBytes, ' ');
    file.append(bytes.substr(0, protocol::kCollectivesFileBytes));
    std::vector<protocol::CollectiveEntry> entries = protocol::parseCollectiveHistory(file);
    const auto single = protocol::parseCollectiveEntry(bytes);
    if (single) entries.push_back(*single);
    for (const protocol::CollectiveEntry& e : entries) {
        protocol::describeCollectiveEntry(e, 1e9);
        const std::string again = protocol::formatCollectiveEntry(e);
        if (again.size() != protocol::kCollectiveEntryBytes)
            fuzz::fail("an entry written back is " + std::to_string(again.size()) + " bytes");
        const auto back = protocol::parseCollectiveEntry(again);
        if (!back || back->seq != e.seq || back->completed != e.completed)
            fuzz::fail("an entry written back does not parse again the same: " + again);
    }
    protocol::collectiveHistoryJson(entries).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    // The live counts as the launcher reads them: the record brought up to date by the ring's newest entry.
    for (const std::string_view whole : {std::string_view(file), bytes})
        if (const auto current = protocol::currentCollectiveRecord(whole))
            if (current->completed > current->entered || current->completed < 0)
                fuzz::fail("the current record completed more than it entered");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    history(std::string_view(reinterpret_cast<const char*>(data), size));
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
