#include "protocol/output_mark.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <random>

namespace ddpdesk::protocol {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxMarkBytes = 64 * 1024; // a mark lists a handful of names

bool isRegularFile(const fs::path& path) {
    std::error_code ec;
    return fs::is_regular_file(fs::symlink_status(path, ec));
}

} // namespace

std::vector<std::string> markedOutputs(const fs::path& dir) {
    const fs::path mark = dir / kOutputMarkName;
    std::error_code ec;
    if (!isRegularFile(mark) || fs::file_size(mark, ec) > kMaxMarkBytes || ec) return {};
    std::ifstream in(mark, std::ios::binary);
    const nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
    std::vector<std::string> names;
    if (!doc.is_object() || doc.value("format", std::string()) != kOutputMarkFormat) return names;
    const auto files = doc.find("files");
    if (files == doc.end() || !files->is_array()) return names;
    for (const nlohmann::json& f : *files)
        if (f.is_string()) names.push_back(f.get<std::string>());
    return names;
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
    std::vector<std::string> all = markedOutputs(dir);
    bool changed = !fs::exists(st);
    for (const std::string& n : names)
        if (std::find(all.begin(), all.end(), n) == all.end()) {
            all.push_back(n);
            changed = true;
        }
    if (!changed) return {};
    std::sort(all.begin(), all.end());
    const std::string text = nlohmann::json{{"format", kOutputMarkFormat}, {"files", all}}.dump(1) + "\n";
    // A random suffix: two processes adding to the same mark never share a temporary file.
    const fs::path tmp =
        dir / (std::string(kOutputMarkName) + ".tmp-" + std::to_string(std::random_device()()));
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << text;
        if (!out.flush()) {
            fs::remove(tmp, ec);
            return "cannot write " + tmp.string() + " (is the folder writable?)";
        }
    }
    fs::rename(tmp, mark, ec);
    if (ec) {
        fs::remove(tmp, ec);
        return "cannot write " + mark.string() + ": " + ec.message();
    }
    return {};
}

} // namespace ddpdesk::protocol
