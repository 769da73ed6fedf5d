#include "protocol/file_store_reader.h"
#include "os/utf8_path.h"

#include <fstream>
#include <iterator>

namespace ddpdesk::protocol {

namespace {

// A store holds small keys and values; anything larger than this is not a FileStore record.
constexpr std::uint32_t kMaxField = 64u * 1024u * 1024u;

bool readField(const std::string& data, std::size_t& pos, std::string& out) {
    if (data.size() - pos < 4) return false;
    const auto* b = reinterpret_cast<const unsigned char*>(data.data() + pos);
    std::uint32_t len = b[0] | (b[1] << 8) | (b[2] << 16) | (static_cast<std::uint32_t>(b[3]) << 24);
    if (len > kMaxField || data.size() - pos - 4 < len) return false;
    out.assign(data, pos + 4, len);
    pos += 4 + len;
    return true;
}

// c10d's own counters: ranks finished ("cleanup/"), and from 2.x the FileStore objects alive ("refcount/").
bool internalKey(const std::string& key) {
    return key == "cleanup/" || key == "refcount/";
}

// c10d prefixes every user key with "/" (a deletion with "-/").
bool c10dKey(const std::string& key) {
    return (!key.empty() && (key[0] == '/' || key.rfind("-/", 0) == 0)) || internalKey(key);
}

std::string whyNotProven(const FileStoreContents& c, const std::filesystem::path& path) {
    const std::string name = os::utf8(path);
    if (!c.ok) return c.error;
    // c10d writes its first record as soon as a rank uses the store, so an empty file proves nothing.
    if (c.records.empty() && !c.truncated)
        return name + " is empty (0 bytes), so nothing proves it is a c10d FileStore";
    if (c.truncated) return name + " ends in a partial record (a writer mid-append, or not a FileStore)";
    for (const auto& r : c.records)
        if (!c10dKey(r.key)) return name + " holds a key c10d does not write, so it is not a FileStore";
    return {};
}

} // namespace

FileStoreContents readFileStore(const std::filesystem::path& path) {
    FileStoreContents c;
    // A store on a share may be anything someone put there: a FIFO would block the reader for good, a device
    // or a huge file would never end. Only a regular file (a link to one is the user's own choice) of a size
    // a store can have is read.
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
        c.error = os::utf8(path) + " is not a regular file (a folder, a FIFO or a device)";
        return c;
    }
    constexpr std::uintmax_t kMaxStoreFileBytes = 1ull << 30;
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (!ec && size > kMaxStoreFileBytes) {
        c.error = os::utf8(path) + " is " + std::to_string(size >> 20) +
                  " MiB, more than a FileStore holds (" + std::to_string(kMaxStoreFileBytes >> 20) +
                  " MiB read at most)";
        return c;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        c.error = "cannot open " + os::utf8(path) + " for reading";
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
        if (internalKey(r.key))
            c.internal[r.key] = r.value;
        else if (!r.key.empty() && r.key[0] == '-')
            c.keys.erase(r.key.substr(1));
        else
            c.keys[r.key] = r.value;
        c.records.push_back(std::move(r));
    }
    // A file whose very first record does not parse is not a FileStore at all.
    c.ok = !(c.truncated && c.records.empty() && !data.empty());
    if (!c.ok) c.error = os::utf8(path) + " is not a c10d FileStore file (its first record does not parse)";
    c.notProven = whyNotProven(c, path);
    return c;
}

} // namespace ddpdesk::protocol
