#pragma once

#include <ATen/Tensor.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <vector>

namespace ddpdesk::train {

// Reads an IDX file of unsigned bytes (the MNIST / Fashion-MNIST format), gzipped (needs zlib in the build)
// or plain. Throws TrainError DATA_MISSING (absent, unreadable, .gz without zlib) or DATA_CORRUPT (bad magic,
// truncated, wrong dimensions) naming the file.
struct IdxArray {
    std::vector<std::int64_t> dims;
    at::Tensor data; // uint8, shape = dims
};

// The header alone: the dimensions and how many bytes of data follow (for a reader that places them itself).
struct IdxHeader {
    std::vector<std::int64_t> dims;
    std::int64_t bytes = 0;
};
IdxHeader readIdxHeader(const std::filesystem::path& path);

// Where the data goes: a uint8 tensor of header.dims to fill, or an undefined one for a tensor of its own.
using IdxAllocator = std::function<at::Tensor(const IdxHeader& header)>;
IdxArray readIdxFile(const std::filesystem::path& path, const IdxAllocator& allocate = {});

// Looks for NAME.gz then NAME inside `dir`; throws DATA_MISSING naming both when neither exists.
std::filesystem::path findIdxFile(const std::filesystem::path& dir, const std::string& name);

// Whether this build can read .gz files.
bool idxGzipSupported();

} // namespace ddpdesk::train
