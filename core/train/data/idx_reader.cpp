#include "train/data/idx_reader.h"

#include "train/base/errors.h"

#include <torch/torch.h>

#include <algorithm>
#include <fstream>
#include <vector>

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

// The file's bytes in order, read straight into their destination: the IDX header first, then the data into
// the tensor that keeps it (no whole-file buffer, no growing vector, no extra copy of 47 MB of images).
class ByteSource {
public:
    ByteSource(const fs::path& path) : m_path(path), m_in(path, std::ios::binary) {
        if (!m_in) missing("cannot open dataset file " + path.string());
        m_gzip = path.extension() == ".gz";
        if (m_gzip) openGzip();
    }
    ~ByteSource() {
#ifdef DDPDESK_HAVE_ZLIB
        if (m_gzip) inflateEnd(&m_zs);
#endif
    }
    ByteSource(const ByteSource&) = delete;
    ByteSource& operator=(const ByteSource&) = delete;

    // Up to n bytes into dst; fewer only at the end of the data.
    size_t read(unsigned char* dst, size_t n) {
        if (!m_gzip) {
            m_in.read(reinterpret_cast<char*>(dst), static_cast<std::streamsize>(n));
            return static_cast<size_t>(m_in.gcount());
        }
        return inflateInto(dst, n);
    }

    // Bytes left after what was read (counted, not kept).
    size_t skipRest() {
        std::vector<unsigned char> scratch(1 << 16);
        size_t total = 0;
        for (size_t got; (got = read(scratch.data(), scratch.size())) > 0;)
            total += got;
        return total;
    }

private:
    void openGzip() {
#ifdef DDPDESK_HAVE_ZLIB
        if (inflateInit2(&m_zs, 16 + MAX_WBITS) != Z_OK) // 16: expect a gzip header
            corrupt(m_path, "could not be decompressed (zlib init failed)");
        m_packed.resize(1 << 20);
#else
        missing("dataset file " + m_path.string() +
                " is gzip-compressed, but this ddpdesk-worker was built without zlib: decompress it (gunzip) "
                "next to the .gz file, or rebuild with zlib");
#endif
    }

    size_t inflateInto(unsigned char* dst, size_t n) {
#ifdef DDPDESK_HAVE_ZLIB
        size_t done = 0;
        while (done < n && !m_ended) {
            if (m_zs.avail_in == 0 && !refill()) corrupt(m_path, "is truncated (the gzip stream ends early)");
            const size_t want = std::min<size_t>(n - done, 1u << 30);
            m_zs.next_out = dst + done;
            m_zs.avail_out = static_cast<uInt>(want);
            const int rc = inflate(&m_zs, Z_NO_FLUSH);
            done += want - m_zs.avail_out;
            if (rc == Z_STREAM_END) {
                // gzip allows several members one after the other (pigz, bgzip, cat a.gz b.gz): go on with
                // the next one, if any.
                if (m_zs.avail_in == 0 && !refill())
                    m_ended = true;
                else if (inflateReset(&m_zs) != Z_OK)
                    corrupt(m_path, "could not be decompressed (zlib reset failed)");
            } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
                corrupt(m_path, "is not a valid gzip file (zlib error " + std::to_string(rc) + ")");
            }
        }
        return done;
#else
        (void)dst;
        (void)n;
        return 0;
#endif
    }

#ifdef DDPDESK_HAVE_ZLIB
    bool refill() {
        m_in.read(reinterpret_cast<char*>(m_packed.data()), static_cast<std::streamsize>(m_packed.size()));
        m_zs.next_in = m_packed.data();
        m_zs.avail_in = static_cast<uInt>(m_in.gcount());
        return m_zs.avail_in > 0;
    }
#endif

    fs::path m_path;
    std::ifstream m_in;
    bool m_gzip = false;
    bool m_ended = false;
#ifdef DDPDESK_HAVE_ZLIB
    z_stream m_zs{};
    std::vector<unsigned char> m_packed;
#endif
};

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

namespace {

IdxHeader readHeader(ByteSource& in, const fs::path& path) {
    constexpr std::int64_t kMaxBytes = std::int64_t(1) << 34; // 16 GiB: far above any IDX data set
    unsigned char head[4 + 4 * 4];
    if (in.read(head, 4) < 4) corrupt(path, "is truncated (no IDX header)");
    if (head[0] != 0 || head[1] != 0) corrupt(path, "is not an IDX file (bad magic number)");
    if (head[2] != 0x08)
        corrupt(path,
                "holds IDX type " + std::to_string(head[2]) + "; only unsigned bytes (0x08) are supported");
    const int ndims = head[3];
    if (ndims < 1 || ndims > 4)
        corrupt(path, "has " + std::to_string(ndims) + " dimensions; expected 1 to 4");
    const size_t dimBytes = 4 * static_cast<size_t>(ndims);
    if (in.read(head + 4, dimBytes) < dimBytes) corrupt(path, "is truncated (incomplete IDX header)");
    IdxHeader h;
    h.bytes = 1;
    for (int i = 0; i < ndims; ++i) {
        std::uint32_t d = bigEndian32(&head[4 + 4 * i]);
        if (d == 0 || d > (1u << 28)) corrupt(path, "declares an implausible dimension " + std::to_string(d));
        h.dims.push_back(static_cast<std::int64_t>(d));
        if (h.bytes > kMaxBytes / d)
            corrupt(path, "declares more than " + std::to_string(kMaxBytes) + " bytes of data");
        h.bytes *= d;
    }
    return h;
}

} // namespace

IdxHeader readIdxHeader(const fs::path& path) {
    ByteSource in(path);
    return readHeader(in, path);
}

IdxArray readIdxFile(const fs::path& path, const IdxAllocator& allocate) {
    ByteSource in(path);
    const IdxHeader h = readHeader(in, path);
    IdxArray a;
    a.dims = h.dims;
    try {
        if (allocate) a.data = allocate(h);
        if (!a.data.defined()) a.data = torch::empty(a.dims, torch::kUInt8);
    } catch (const std::exception&) {
        corrupt(path,
                "declares " + std::to_string(h.bytes) + " bytes of data, more than this machine can hold");
    }
    const size_t count = static_cast<size_t>(h.bytes);
    const size_t have = in.read(a.data.data_ptr<std::uint8_t>(), count);
    if (have < count)
        corrupt(path, "is truncated: the header declares " + std::to_string(count) +
                          " bytes of data, the file holds " + std::to_string(have));
    if (const size_t extra = in.skipRest(); extra > 0)
        corrupt(path, "has " + std::to_string(extra) + " bytes after the declared data");
    return a;
}

} // namespace ddpdesk::train
