// Each rank's last collectives (protocol/collective_history.h): an entry is written into its own slot of the
// ring after the record, read back the same, cut to its fixed size without losing the call site's line
// number; a file read back gives the last 64 collectives oldest first, skipping slots caught half-written,
// scribbled over by a script, or holding an entry that is not theirs. The writers are exercised for real in
// launch.script_stacks (a script rank and a worker rank).
#include "protocol/collective_history.h"

#include "mini_test.h"

#include <nlohmann/json.hpp>

using namespace ddpdesk::protocol;

namespace {

CollectiveEntry entry(std::int64_t seq, bool completed = true) {
    CollectiveEntry e;
    e.seq = seq;
    e.op = "allreduce";
    e.bytes = 4096;
    e.dtype = "float32";
    e.shape = "1024";
    e.group = "default";
    e.completed = completed;
    e.start = 1000.0 + double(seq);
    e.end = completed ? e.start + 0.0031 : 0;
    e.site = "train.py:" + std::to_string(40 + seq);
    return e;
}

// A collectives file as the ranks leave it: the record, then each entry in its slot.
std::string fileWith(const std::vector<CollectiveEntry>& entries) {
    std::string file = formatCollectiveRecord(CollectiveRecord());
    file.resize(kCollectivesFileBytes, ' ');
    for (const CollectiveEntry& e : entries)
        file.replace(collectiveEntryOffset(e.seq), kCollectiveEntryBytes, formatCollectiveEntry(e));
    return file;
}

} // namespace

TEST_CASE(anEntryReadsBackAsWritten) {
    const CollectiveEntry e = entry(12);
    const std::string bytes = formatCollectiveEntry(e);
    TEST_REQUIRE_EQ(bytes.size(), kCollectiveEntryBytes);
    TEST_REQUIRE_EQ(bytes.back(), '\n');
    const auto back = parseCollectiveEntry(bytes);
    TEST_REQUIRE(back.has_value());
    TEST_CHECK_EQ(back->seq, std::int64_t(12));
    TEST_CHECK_EQ(back->op, std::string("allreduce"));
    TEST_CHECK_EQ(back->bytes, std::int64_t(4096));
    TEST_CHECK_EQ(back->dtype, std::string("float32"));
    TEST_CHECK_EQ(back->shape, std::string("1024"));
    TEST_CHECK_EQ(back->group, std::string("default"));
    TEST_CHECK(back->completed);
    TEST_CHECK_EQ(back->start, e.start);
    TEST_CHECK_EQ(back->end, e.end);
    TEST_CHECK_EQ(back->site, std::string("train.py:52"));
    TEST_CHECK_EQ(
        describeCollectiveEntry(*back, 0),
        std::string("allreduce #12 (4.0 KiB float32 [1024], default group) at train.py:52, completed "
                    "in 3.1 ms"));
    const auto started = parseCollectiveEntry(formatCollectiveEntry(entry(3, false)));
    TEST_REQUIRE(started && !started->completed);
    TEST_CHECK_EQ(started->end, 0.0);
    TEST_CHECK_EQ(describeCollectiveEntry(*started, 1015.5),
                  std::string("allreduce #3 (4.0 KiB float32 [1024], default group) at train.py:43, started "
                              "12.5 s ago, not completed"));
}

TEST_CASE(longFieldsAreCutKeepingTheLineNumber) {
    CollectiveEntry e = entry(5);
    e.site = std::string(600, 'd') + "/train.py:1234";
    e.shape = std::string(300, '9');
    e.op = std::string(100, 'o');
    std::string bytes = formatCollectiveEntry(e);
    TEST_REQUIRE_EQ(bytes.size(), kCollectiveEntryBytes);
    auto back = parseCollectiveEntry(bytes);
    TEST_REQUIRE(back.has_value());
    TEST_CHECK_MSG(back->site.size() < 200 && back->site.rfind("/train.py:1234") == back->site.size() - 14,
                   back->site);
    // Escapes grow a field up to six times (a control character is \u0001): it is cut harder, still whole.
    e.site = std::string(300, '\x01') + ":7";
    e.shape = std::string(300, '"');
    bytes = formatCollectiveEntry(e);
    TEST_REQUIRE_EQ(bytes.size(), kCollectiveEntryBytes);
    back = parseCollectiveEntry(bytes);
    TEST_REQUIRE(back.has_value());
    TEST_CHECK_EQ(back->seq, std::int64_t(5));
}

TEST_CASE(theFileGivesTheLast64OldestFirst) {
    std::vector<CollectiveEntry> all;
    for (std::int64_t seq = 1; seq <= 70; ++seq) // the ring wraps: 1..6 are overwritten by 65..70
        all.push_back(entry(seq, seq != 70));
    const std::vector<CollectiveEntry> h = parseCollectiveHistory(fileWith(all));
    TEST_REQUIRE_EQ(h.size(), kCollectiveHistoryEntries);
    TEST_CHECK_EQ(h.front().seq, std::int64_t(7));
    TEST_CHECK_EQ(h.back().seq, std::int64_t(70));
    TEST_CHECK(!h.back().completed);
    for (std::size_t i = 1; i < h.size(); ++i)
        TEST_CHECK_EQ(h[i].seq, h[i - 1].seq + 1);
    // The JSON summary.json carries: t1 null while started.
    const nlohmann::json j = collectiveHistoryJson(h);
    TEST_REQUIRE_EQ(j.size(), h.size());
    TEST_CHECK(j.back()["t1"].is_null());
    TEST_CHECK_EQ(j.back()["state"].get<std::string>(), std::string("started"));
    TEST_CHECK_EQ(j.front()["site"].get<std::string>(), std::string("train.py:47"));
}

TEST_CASE(badSlotsAreSkipped) {
    std::string file = fileWith({entry(1), entry(2), entry(3), entry(4)});
    // Slot 2 caught half-written (no newline yet), slot 3 scribbled over by a script, slot 4 holding an
    // entry numbered for slot 1, which is not its own.
    file.replace(collectiveEntryOffset(2), kCollectiveEntryBytes, std::string(kCollectiveEntryBytes, ' '));
    file.replace(collectiveEntryOffset(2), 20, R"({"seq": 2, "op": "al)");
    std::string scribbled = R"({"seq": "3", "state": "completed"})";
    scribbled.resize(kCollectiveEntryBytes - 1, ' ');
    file.replace(collectiveEntryOffset(3), kCollectiveEntryBytes, scribbled + "\n");
    file.replace(collectiveEntryOffset(4), kCollectiveEntryBytes, formatCollectiveEntry(entry(65)));
    const std::vector<CollectiveEntry> h = parseCollectiveHistory(file);
    TEST_REQUIRE_EQ(h.size(), std::size_t(1));
    TEST_CHECK_EQ(h.front().seq, std::int64_t(1));
    // A file cut short (a rank that wrote only its record, or a reader limited) gives what is there.
    TEST_CHECK(parseCollectiveHistory(file.substr(0, kCollectiveRecordBytes)).empty());
    TEST_CHECK(parseCollectiveHistory("").empty());
    TEST_CHECK(!parseCollectiveEntry(R"({"seq": 0, "state": "started"})"
                                     "\n"));
    TEST_CHECK(!parseCollectiveEntry(R"({"seq": 1, "state": "maybe"})"
                                     "\n"));
    TEST_CHECK(!parseCollectiveEntry(R"({"seq": 1, "state": "started", "site": 5})"
                                     "\n"));
}

TEST_CASE(theNewestEntryBringsTheCountsUpToDate) {
    // A script rank writes its record once, then only entries: #5 started, so 5 entered and 4 completed.
    std::vector<CollectiveEntry> entries;
    for (std::int64_t seq = 1; seq <= 5; ++seq)
        entries.push_back(entry(seq, seq < 5));
    entries.back().op = "broadcast";
    entries.back().detail = "DDP gradients";
    std::string file = fileWith(entries);
    auto r = currentCollectiveRecord(file);
    TEST_REQUIRE(r.has_value());
    TEST_CHECK_EQ(r->entered, std::int64_t(5));
    TEST_CHECK_EQ(r->completed, std::int64_t(4));
    TEST_CHECK(r->inside());
    TEST_CHECK_EQ(r->kind, std::string("broadcast"));
    TEST_CHECK_EQ(r->detail, std::string("DDP gradients"));
    TEST_CHECK_EQ(r->t, entries.back().start);
    // Completed: inside nothing.
    entries.back().completed = true;
    r = currentCollectiveRecord(fileWith(entries));
    TEST_REQUIRE(r.has_value());
    TEST_CHECK_EQ(r->completed, std::int64_t(5));
    TEST_CHECK(!r->inside());
    // A worker writes both: a record as new as its newest entry is kept as it is (its detail included).
    CollectiveRecord worker;
    worker.entered = 5;
    worker.completed = 5;
    worker.kind = "allreduce";
    worker.detail = "bucket 2 of 3";
    file = fileWith(entries);
    file.replace(0, kCollectiveRecordBytes, formatCollectiveRecord(worker));
    r = currentCollectiveRecord(file);
    TEST_REQUIRE(r.has_value());
    TEST_CHECK_EQ(r->detail, std::string("bucket 2 of 3"));
    // A record that does not parse gives nothing, whatever the ring holds.
    file.replace(0, 10, "not json!!");
    TEST_CHECK(!currentCollectiveRecord(file).has_value());
}

DDPDESK_TEST_MAIN()
