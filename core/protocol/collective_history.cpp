#include "protocol/collective_history.h"

#include "protocol/json_fields.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>

namespace ddpdesk::protocol {

namespace f = collective_entry_field;

namespace {

std::string head(const std::string& s, std::size_t n) {
    return s.substr(0, n);
}
// A call site's end holds its line number: keep that.
std::string tail(const std::string& s, std::size_t n) {
    return s.size() <= n ? s : "..." + s.substr(s.size() - (n - 3));
}

std::string dump(const CollectiveEntry& e, std::size_t textLimit) {
    nlohmann::json j = {
        {f::Seq, e.seq},
        {f::Op, head(e.op, std::min<std::size_t>(32, textLimit))},
        {f::Bytes, e.bytes},
        {f::Dtype, head(e.dtype, std::min<std::size_t>(16, textLimit))},
        {f::Shape, head(e.shape, std::min<std::size_t>(48, textLimit))},
        {f::Group, head(e.group, std::min<std::size_t>(32, textLimit))},
        {f::State, e.completed ? "completed" : "started"},
        {f::Start, e.start},
        {f::Site, tail(e.site, std::max<std::size_t>(4, std::min<std::size_t>(160, textLimit)))},
        {f::Detail, head(e.detail, std::min<std::size_t>(48, textLimit))}};
    if (e.completed) j[f::End] = e.end;
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace

std::string formatCollectiveEntry(const CollectiveEntry& e) {
    // Escapes can make a text field up to six times its length: cut harder until the entry fits.
    std::string text;
    for (std::size_t limit : {std::size_t(160), std::size_t(40), std::size_t(8), std::size_t(0)}) {
        text = dump(e, limit);
        if (text.size() < kCollectiveEntryBytes) break;
    }
    text.resize(kCollectiveEntryBytes - 1, ' ');
    text.push_back('\n');
    return text;
}

std::optional<CollectiveEntry> parseCollectiveEntry(std::string_view bytes) {
    const std::size_t end = bytes.find('\n');
    if (end == std::string_view::npos) return std::nullopt;
    const nlohmann::json j = nlohmann::json::parse(bytes.substr(0, end), nullptr, false);
    if (!j.is_object()) return std::nullopt;
    // Written by a rank's instrumentation, i.e. by whatever the script does: read without trusting a type.
    const JsonFields fields(j);
    CollectiveEntry e;
    e.seq = fields.integer64(f::Seq, 0);
    const std::string state = fields.text(f::State);
    if (e.seq < 1 || (state != "started" && state != "completed")) return std::nullopt;
    e.completed = state == "completed";
    e.op = fields.text(f::Op);
    e.bytes = std::max<std::int64_t>(0, fields.integer64(f::Bytes, 0));
    e.dtype = fields.text(f::Dtype);
    e.shape = fields.text(f::Shape);
    e.group = fields.text(f::Group);
    e.start = fields.number(f::Start, 0.0);
    e.end = e.completed ? fields.number(f::End, 0.0) : 0.0;
    e.site = fields.text(f::Site);
    e.detail = fields.text(f::Detail);
    if (!fields.ok()) return std::nullopt;
    return e;
}

std::vector<CollectiveEntry> parseCollectiveHistory(std::string_view file) {
    std::map<std::int64_t, CollectiveEntry> bySeq;
    for (std::size_t slot = 0; slot < kCollectiveHistoryEntries; ++slot) {
        const std::size_t at = kCollectiveRecordBytes + slot * kCollectiveEntryBytes;
        if (at >= file.size()) break;
        auto e = parseCollectiveEntry(file.substr(at, kCollectiveEntryBytes));
        // An entry in a slot that is not its own was not written by the ring: foreign.
        if (e && collectiveEntryOffset(e->seq) == at) bySeq[e->seq] = std::move(*e);
    }
    std::vector<CollectiveEntry> out;
    for (auto& [seq, e] : bySeq)
        out.push_back(std::move(e));
    return out;
}

nlohmann::json collectiveHistoryJson(const std::vector<CollectiveEntry>& entries) {
    nlohmann::json out = nlohmann::json::array();
    for (const CollectiveEntry& e : entries)
        out.push_back({{f::Seq, e.seq},
                       {f::Op, e.op},
                       {f::Bytes, e.bytes},
                       {f::Dtype, e.dtype},
                       {f::Shape, e.shape},
                       {f::Group, e.group},
                       {f::State, e.completed ? "completed" : "started"},
                       {f::Start, e.start},
                       {f::End, e.completed ? nlohmann::json(e.end) : nlohmann::json(nullptr)},
                       {f::Site, e.site},
                       {f::Detail, e.detail}});
    return out;
}

std::optional<CollectiveRecord> currentCollectiveRecord(std::string_view file) {
    std::optional<CollectiveRecord> r = parseCollectiveRecord(file.substr(0, kCollectiveRecordBytes));
    if (!r) return r;
    const std::vector<CollectiveEntry> history = parseCollectiveHistory(file);
    if (history.empty() || history.back().seq < r->entered) return r;
    const CollectiveEntry& newest = history.back();
    const std::int64_t completed = newest.completed ? newest.seq : newest.seq - 1;
    if (newest.seq == r->entered && completed <= r->completed) return r; // the record says as much
    r->entered = newest.seq;
    r->completed = std::max<std::int64_t>(0, completed);
    r->kind = newest.op;
    r->bytes = newest.bytes;
    r->detail = newest.detail;
    r->t = newest.start;
    return r;
}

namespace {

// `phrase` with its first %1 replaced by `value` (a phrase without one is taken as it is).
std::string filled(const std::string& phrase, const std::string& value) {
    const std::size_t at = phrase.find("%1");
    return at == std::string::npos ? phrase : phrase.substr(0, at) + value + phrase.substr(at + 2);
}

std::string fixed1(double v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

} // namespace

std::string describeCollectiveEntry(const CollectiveEntry& e, double now, const CollectiveWords& words) {
    std::string text = (e.op.empty() ? std::string("collective") : e.op) + " #" + std::to_string(e.seq);
    std::string what;
    if (e.bytes > 0 && e.bytes < 1024) {
        what = filled(words.bytes, std::to_string(e.bytes));
    } else if (e.bytes > 0) {
        what = fixed1(e.bytes >= 1 << 20 ? e.bytes / 1048576.0 : e.bytes / 1024.0) +
               (e.bytes >= 1 << 20 ? " MiB" : " KiB");
    }
    if (!e.dtype.empty()) what += (what.empty() ? "" : " ") + e.dtype;
    if (!e.shape.empty()) what += (what.empty() ? "[" : " [") + e.shape + "]";
    if (!e.group.empty()) what += (what.empty() ? "" : ", ") + filled(words.group, e.group);
    if (!what.empty()) text += " (" + what + ")";
    if (!e.site.empty()) text += filled(words.at, e.site);
    if (e.completed && e.end >= e.start && e.start > 0) {
        text += filled(words.completedIn, fixed1((e.end - e.start) * 1000.0));
    } else if (!e.completed) {
        text += e.start > 0 && now >= e.start ? filled(words.startedAgo, fixed1(now - e.start))
                                              : words.notCompleted;
    }
    return text;
}

} // namespace ddpdesk::protocol
