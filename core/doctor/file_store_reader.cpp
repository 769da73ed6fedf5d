#include "doctor/file_store_reader.h"

#include <fstream>
#include <iterator>

namespace ddpdesk::doctor {

namespace {

// A store holds small keys and values; anything larger than this is not a FileStore record.
constexpr std::uint32_t kMaxField = 64u * 1024u * 1024u;

bool readField(const std::string& data, std::size_t& pos, std::string& out) {
    if (data.size() - pos < 4)
        return false;
    const auto* b = reinterpret_cast<const unsigned char*>(data.data() + pos);
    std::uint32_t len = b[0] | (b[1] << 8) | (b[2] << 16) | (static_cast<std::uint32_t>(b[3]) << 24);
    if (len > kMaxField || data.size() - pos - 4 < len)
        return false;
    out.assign(data, pos + 4, len);
    pos += 4 + len;
    return true;
}

} // namespace

FileStoreContents readFileStore(const std::filesystem::path& path) {
    FileStoreContents c;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        c.error = "cannot open " + path.u8string() + " for reading";
        return c;
    }
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    c.size = data.size();
    std::size_t pos = 0;
    while (pos < data.size()) {
        FileStoreRecord r;
        std::size_t start = pos;
        if (!readField(data, pos, r.key) || !readField(data, pos, r.value)) {
            c.truncated = true;
            pos = start;
            break;
        }
        if (!r.key.empty() && r.key[0] == '-')
            c.keys.erase(r.key.substr(1));
        else
            c.keys[r.key] = r.value;
        c.records.push_back(std::move(r));
    }
    // A file whose very first record does not parse is not a FileStore at all.
    c.ok = !(c.truncated && c.records.empty() && !data.empty());
    if (!c.ok)
        c.error = path.u8string() + " is not a c10d FileStore file (its first record does not parse)";
    return c;
}

} // namespace ddpdesk::doctor
