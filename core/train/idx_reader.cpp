#include "train/idx_reader.h"

#include "train/errors.h"

#include <torch/torch.h>

#include <cstring>
#include <fstream>
#include <iterator>

#ifdef DDPDESK_HAVE_ZLIB
#include <zlib.h>
#endif

namespace ddpdesk::train {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void missing(const std::string& message) {
    throw TrainError(error_code::DataMissing, message, exit_code::BadInput);
}
[[noreturn]] void corrupt(const fs::path& path, const std::string& message) {
    throw TrainError(error_code::DataCorrupt, "dataset file " + path.string() + " " + message,
                     exit_code::BadInput);
}

std::vector<unsigned char> readAll(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) missing("cannot open dataset file " + path.string());
    return std::vector<unsigned char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<unsigned char> gunzip(const fs::path& path, const std::vector<unsigned char>& packed) {
#ifdef DDPDESK_HAVE_ZLIB
    z_stream zs{};
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) // 16: expect a gzip header
        corrupt(path, "could not be decompressed (zlib init failed)");
    std::vector<unsigned char> out;
    std::vector<unsigned char> chunk(1 << 20);
    zs.next_in = const_cast<unsigned char*>(packed.data());
    zs.avail_in = static_cast<uInt>(packed.size());
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
        zs.next_out = chunk.data();
        zs.avail_out = static_cast<uInt>(chunk.size());
        rc = inflate(&zs, Z_NO_FLUSH);
        if (rc != Z_OK && rc != Z_STREAM_END) {
            inflateEnd(&zs);
            if (rc == Z_BUF_ERROR) corrupt(path, "is truncated (the gzip stream ends early)");
            corrupt(path, "is not a valid gzip file (zlib error " + std::to_string(rc) + ")");
        }
        out.insert(out.end(), chunk.begin(), chunk.begin() + (chunk.size() - zs.avail_out));
    }
    inflateEnd(&zs);
    return out;
#else
    missing("dataset file " + path.string() +
            " is gzip-compressed, but this ddpdesk-worker was built without zlib: decompress it (gunzip) "
            "next to the .gz file, or rebuild with zlib");
#endif
}

std::uint32_t bigEndian32(const unsigned char* p) {
    return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) |
           std::uint32_t(p[3]);
}

} // namespace

bool idxGzipSupported() {
#ifdef DDPDESK_HAVE_ZLIB
    return true;
#else
    return false;
#endif
}

fs::path findIdxFile(const fs::path& dir, const std::string& name) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        missing("dataset folder " + dir.string() +
                " does not exist (give --data DIR with the IDX files, or set "
                "DDPDESK_DATA; on Debian: apt install dataset-fashion-mnist)");
    fs::path gz = dir / (name + ".gz");
    fs::path plain = dir / name;
    if (fs::is_regular_file(plain, ec) && !idxGzipSupported()) return plain;
    if (fs::is_regular_file(gz, ec)) return gz;
    if (fs::is_regular_file(plain, ec)) return plain;
    missing("dataset file " + name + " not found in " + dir.string() + " (looked for " +
            gz.filename().string() + " and " + plain.filename().string() + ")");
}

IdxArray readIdxFile(const fs::path& path) {
    std::vector<unsigned char> raw = readAll(path);
    if (path.extension() == ".gz") raw = gunzip(path, raw);
    if (raw.size() < 4) corrupt(path, "is truncated (no IDX header)");
    if (raw[0] != 0 || raw[1] != 0) corrupt(path, "is not an IDX file (bad magic number)");
    if (raw[2] != 0x08)
        corrupt(path,
                "holds IDX type " + std::to_string(raw[2]) + "; only unsigned bytes (0x08) are supported");
    const int ndims = raw[3];
    if (ndims < 1 || ndims > 4)
        corrupt(path, "has " + std::to_string(ndims) + " dimensions; expected 1 to 4");
    const size_t header = 4 + 4 * static_cast<size_t>(ndims);
    if (raw.size() < header) corrupt(path, "is truncated (incomplete IDX header)");
    IdxArray a;
    std::int64_t count = 1;
    for (int i = 0; i < ndims; ++i) {
        std::uint32_t d = bigEndian32(&raw[4 + 4 * i]);
        if (d == 0 || d > (1u << 28)) corrupt(path, "declares an implausible dimension " + std::to_string(d));
        a.dims.push_back(static_cast<std::int64_t>(d));
        count *= d;
    }
    const size_t have = raw.size() - header;
    if (have < static_cast<size_t>(count))
        corrupt(path, "is truncated: the header declares " + std::to_string(count) +
                          " bytes of data, the file holds " + std::to_string(have));
    if (have > static_cast<size_t>(count))
        corrupt(path, "has " + std::to_string(have - count) + " bytes after the declared data");
    a.data = torch::empty(a.dims, torch::kUInt8);
    std::memcpy(a.data.data_ptr<std::uint8_t>(), raw.data() + header, static_cast<size_t>(count));
    return a;
}

} // namespace ddpdesk::train
