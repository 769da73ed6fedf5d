#include "protocol/output_mark.h"

#include "os/plain_file.h"
#include "protocol/json_fields.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace ddpdesk::protocol {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxMarkBytes = 64 * 1024; // a mark lists a handful of names

// The mark's names; a mark that is there but not one DDP Desk wrote sets *why (naming what is wrong).
std::vector<std::string> readMark(const fs::path& dir, std::string* why) {
    const fs::path mark = dir / kOutputMarkName;
    std::vector<std::string> names;
    os::PlainFile in = os::PlainFile::open(mark, os::PlainFile::Mode::ReadExisting);
    if (in.status() == os::PlainFile::Status::Missing) return names;
    if (!in.isOpen()) {
        *why = in.error();
        return names;
    }
    std::string bytes(kMaxMarkBytes + 1, '\0');
    std::size_t got = 0;
    for (std::int64_t n = 1; n > 0 && got < bytes.size(); got += std::size_t(n > 0 ? n : 0))
        n = in.readAt(got, bytes.data() + got, bytes.size() - got);
    if (got > kMaxMarkBytes) {
        *why = "it is over " + std::to_string(kMaxMarkBytes) + " bytes";
        return names;
    }
    bytes.resize(got);
    const nlohmann::json doc = nlohmann::json::parse(bytes, nullptr, false);
    const JsonFields f(doc);
    const std::string format = f.text("format");
    const nlohmann::json* files = f.array("files");
    if (!f.ok() || format != kOutputMarkFormat || !files) {
        *why = doc.is_discarded() ? "it is not JSON"
               : !f.ok()          ? f.refusal()
                                  : "it is not in the format " + std::string(kOutputMarkFormat);
        return names;
    }
    for (const nlohmann::json& name : *files)
        if (name.is_string()) names.push_back(name.get_ref<const std::string&>());
    return names;
}

} // namespace

std::vector<std::string> markedOutputs(const fs::path& dir) {
    std::string why;
    std::vector<std::string> names = readMark(dir, &why);
    return why.empty() ? names : std::vector<std::string>();
}

OutputState outputState(const fs::path& dir, const std::string& name) {
    std::error_code ec;
    const fs::file_status st = fs::symlink_status(dir / name, ec);
    if (ec || !fs::exists(st)) return OutputState::Free;
    if (!fs::is_regular_file(st)) return OutputState::NotAFile;
    const std::vector<std::string> own = markedOutputs(dir);
    return std::find(own.begin(), own.end(), name) != own.end() ? OutputState::Own : OutputState::Foreign;
}

std::string markOutputs(const fs::path& dir, const std::vector<std::string>& names) {
    const fs::path mark = dir / kOutputMarkName;
    std::error_code ec;
    const fs::file_status st = fs::symlink_status(mark, ec);
    if (fs::exists(st) && !fs::is_regular_file(st))
        return mark.string() + " is a link or a folder; DDP Desk keeps its list of the files it wrote there "
                               "and never writes through a link: move it away or choose another --out";
    std::string why;
    std::vector<std::string> all = readMark(dir, &why);
    if (!why.empty())
        return mark.string() + " is not a list DDP Desk wrote (" + why +
               "); DDP Desk keeps there the names of the files it wrote: move it away or choose another "
               "--out";
    bool changed = !fs::exists(st);
    for (const std::string& n : names)
        if (std::find(all.begin(), all.end(), n) == all.end()) {
            all.push_back(n);
            changed = true;
        }
    if (!changed) return {};
    std::sort(all.begin(), all.end());
    const std::string text = nlohmann::json{{"format", kOutputMarkFormat}, {"files", all}}.dump(1) + "\n";
    // A file of its own (random name, created exclusively, no link followed) renamed over the mark: two
    // processes adding to the same mark never share a temporary file.
    if (!os::replaceFileContent(mark, text, &why)) return "cannot write " + mark.string() + ": " + why;
    return {};
}

} // namespace ddpdesk::protocol
