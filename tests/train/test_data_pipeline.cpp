// The data side of the engine in-process: DistributedSampler indices against PyTorch's own (python3-torch),
// the IDX reader on the real Fashion-MNIST files and on damaged copies, and the linspace dataset against
// numpy's.

#include "train/base/errors.h"
#include "train/data/datasets.h"
#include "train/data/idx_reader.h"
#include "train/data/sampler.h"

#include "os/utf8_path.h"
#include "worker_harness_std.h"

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>

using namespace ddpdesk;
using namespace ddpdesk::traintest;
using ddpdesk::testsupport::TempDir;
using ddpdesk::testsupport::testRow;

namespace {

std::vector<std::int64_t> toVector(const at::Tensor& t) {
    return std::vector<std::int64_t>(t.data_ptr<std::int64_t>(), t.data_ptr<std::int64_t>() + t.numel());
}

void writeIdx(const std::string& path, const std::vector<std::uint32_t>& dims, int dataBytes,
              char magicType = 0x08) {
    std::string bytes;
    bytes += char(0);
    bytes += char(0);
    bytes += magicType;
    bytes += char(dims.size());
    for (std::uint32_t d : dims)
        for (int shift = 24; shift >= 0; shift -= 8)
            bytes += char((d >> shift) & 0xff);
    for (int i = 0; i < dataBytes; ++i)
        bytes += char(i % 10);
    TEST_REQUIRE(writeFileBytes(path, bytes));
}

std::string errorCodeOf(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const train::TrainError& e) {
        return e.code();
    }
    return "no error";
}

} // namespace

TEST_CASE(samplerMatchesPytorch) {
    struct Row {
        const char* name;
        int size, world, seed, epoch;
    };
    const Row rows[] = {
        {"10 over 3 (padding)", 10, 3, 5, 0},
        {"10 over 3, epoch 1", 10, 3, 5, 1},
        {"1000 over 2", 1000, 2, 0, 3},
        {"7 over 4 (pad > half)", 7, 4, 11, 2},
    };
    const std::string script =
        "import json, sys, torch\n"
        "from torch.utils.data import DistributedSampler\n"
        "n, w, seed, epoch = map(int, sys.argv[1:5])\n"
        "out = []\n"
        "for r in range(w):\n"
        "    s = DistributedSampler(range(n), num_replicas=w, rank=r, shuffle=True, seed=seed)\n"
        "    s.set_epoch(epoch)\n"
        "    out.append(list(s))\n"
        "print(json.dumps(out))\n";
    for (const Row& row : rows)
        testRow(row.name, [&] {
            const std::string json = runPython(script, {std::to_string(row.size), std::to_string(row.world),
                                                        std::to_string(row.seed), std::to_string(row.epoch)});
            const nlohmann::json expected = nlohmann::json::parse(json, nullptr, false);
            TEST_REQUIRE_MSG(expected.is_array(), json);
            TEST_REQUIRE_EQ(expected.size(), row.world);
            for (int r = 0; r < row.world; ++r) {
                train::DistributedSampler sampler(row.size, r, row.world,
                                                  static_cast<std::uint64_t>(row.seed));
                const std::vector<std::int64_t> mine = toVector(sampler.indices(row.epoch));
                const std::vector<std::int64_t> want =
                    expected[static_cast<size_t>(r)].get<std::vector<std::int64_t>>();
                TEST_REQUIRE_EQ(mine, want);
            }
        });
}

TEST_CASE(shardsAreOneRanksBatches) {
    // N ranks x batch b, step k, covers exactly the samples of one rank's batch N*b at step k.
    const int n = 96, world = 3, b = 4;
    train::DistributedSampler one(n, 0, 1, 9);
    std::vector<std::int64_t> all = toVector(one.indices(0));
    std::vector<std::vector<std::int64_t>> shards;
    for (int r = 0; r < world; ++r)
        shards.push_back(toVector(train::DistributedSampler(n, r, world, 9).indices(0)));
    for (int k = 0; k < n / (world * b); ++k) {
        std::vector<std::int64_t> together(all.begin() + k * world * b, all.begin() + (k + 1) * world * b);
        std::vector<std::int64_t> split;
        for (int r = 0; r < world; ++r)
            split.insert(split.end(), shards[r].begin() + k * b, shards[r].begin() + (k + 1) * b);
        std::sort(together.begin(), together.end());
        std::sort(split.begin(), split.end());
        TEST_REQUIRE_EQ(split, together);
    }
}

TEST_CASE(readsFashionMnist) {
    train::Dataset d = train::loadIdxDataset(fashionDir());
    TEST_REQUIRE_EQ(d.x.size(0), 60000);
    TEST_REQUIRE_EQ(d.x.sizes(), (c10::IntArrayRef{60000, 1, 28, 28}));
    TEST_REQUIRE_EQ(d.xTest.size(0), 10000);
    TEST_REQUIRE_EQ(d.y.max().item<std::int64_t>(), 9);
    TEST_REQUIRE_EQ(d.y.min().item<std::int64_t>(), 0);
    // Held as the file's bytes (a quarter of float32's memory), decoded per batch.
    TEST_REQUIRE(d.x.scalar_type() == at::kByte && d.xTest.scalar_type() == at::kByte);
    TEST_REQUIRE_EQ(d.x.nbytes(), std::size_t(60000) * 28 * 28);
    // What the model sees is normalised with Fashion-MNIST's own statistics: mean ~0, std ~1.
    const at::Tensor all = d.inputs(torch::arange(60000, torch::kLong));
    TEST_REQUIRE(all.scalar_type() == at::kFloat);
    TEST_REQUIRE(std::abs(all.mean().item<double>()) < 0.01);
    TEST_REQUIRE(std::abs(all.std().item<double>() - 1.0) < 0.01);
    // Any batch decodes to exactly the rows of the whole set decoded at once.
    const at::Tensor idx = torch::tensor({59999, 3, 17, 3}, torch::kLong);
    TEST_REQUIRE(d.inputs(idx).equal(all.index_select(0, idx)));
    TEST_REQUIRE(d.firstInputs(2).equal(all.narrow(0, 0, 2)));
}

TEST_CASE(damagedIdxFiles) {
    TempDir dir;
    const std::string images = dir.filePath("train-images-idx3-ubyte");
    const std::string labels = dir.filePath("train-labels-idx1-ubyte");
    writeIdx(images, {20, 28, 28}, 20 * 28 * 28);
    writeIdx(labels, {20}, 20);
    train::Dataset d = train::loadIdxDataset(dir.str());
    TEST_REQUIRE_EQ(d.x.size(0), 20);
    TEST_REQUIRE(!d.hasTest());

    writeIdx(images, {20, 28, 28}, 10 * 28 * 28); // header promises 20 images, holds 10
    TEST_REQUIRE_EQ(errorCodeOf([&] { train::loadIdxDataset(dir.str()); }), std::string("DATA_CORRUPT"));
    writeIdx(images, {20, 28, 28}, 20 * 28 * 28, 0x0D); // float IDX: not supported
    TEST_REQUIRE_EQ(errorCodeOf([&] { train::loadIdxDataset(dir.str()); }), std::string("DATA_CORRUPT"));
    writeIdx(images, {20, 28, 28}, 20 * 28 * 28);
    writeIdx(labels, {19}, 19); // count mismatch
    TEST_REQUIRE_EQ(errorCodeOf([&] { train::loadIdxDataset(dir.str()); }), std::string("DATA_CORRUPT"));
    std::filesystem::remove(ddpdesk::os::pathFromUtf8(labels));
    TEST_REQUIRE_EQ(errorCodeOf([&] { train::loadIdxDataset(dir.str()); }), std::string("DATA_MISSING"));
    TEST_REQUIRE_EQ(errorCodeOf([&] { train::loadIdxDataset(dir.filePath("nope")); }),
                    std::string("DATA_MISSING"));
}

TEST_CASE(truncatedGzip) {
    if (!train::idxGzipSupported()) TEST_SKIP("this build has no zlib");
    TempDir dir;
    const std::string packed = fileBytes(fashionDir() + "/train-labels-idx1-ubyte.gz");
    TEST_REQUIRE(!packed.empty());
    TEST_REQUIRE(writeFileBytes(dir.filePath("cut.gz"), packed.substr(0, packed.size() / 2)));
    TEST_REQUIRE_EQ(errorCodeOf([&] { train::readIdxFile(dir.filePath("cut.gz")); }),
                    std::string("DATA_CORRUPT"));
    train::IdxArray whole = train::readIdxFile(fashionDir() + "/train-labels-idx1-ubyte.gz");
    TEST_REQUIRE_EQ(whole.dims, (std::vector<std::int64_t>{60000}));
    // Two gzip members one after the other (what pigz, bgzip and `cat a.gz b.gz` make) hold the file whole.
    runPython("import gzip, sys\nraw = gzip.open(sys.argv[1]).read()\nh = len(raw) // 2\n"
              "open(sys.argv[2], 'wb').write(gzip.compress(raw[:h]) + gzip.compress(raw[h:]))\n",
              {fashionDir() + "/train-labels-idx1-ubyte.gz", dir.filePath("two.gz")});
    TEST_REQUIRE(train::readIdxFile(dir.filePath("two.gz")).data.equal(whole.data));
}

TEST_CASE(linspaceMatchesNumpy) {
    train::Dataset d = train::makeLinspaceDataset(10000, 1000);
    const std::string out =
        runPython("import numpy as np\n"
                  "for i in (0, 1, 4321, 9999):\n"
                  "    v = np.linspace(0, i, 1000).astype(np.float32)\n"
                  "    print(repr(float(v[1])), repr(float(v[500])), repr(float(v[999])))\n");
    const std::int64_t rows[] = {0, 1, 4321, 9999};
    const std::vector<std::string> lines = splitLines(trimmed(out));
    TEST_REQUIRE_EQ(lines.size(), 4u);
    for (int i = 0; i < 4; ++i) {
        float v[3] = {0, 0, 0};
        TEST_REQUIRE_MSG(
            std::sscanf(lines[static_cast<size_t>(i)].c_str(), "%f %f %f", &v[0], &v[1], &v[2]) == 3,
            lines[static_cast<size_t>(i)]);
        const at::Tensor row = d.inputs(torch::tensor({rows[i]}, torch::kLong))[0];
        TEST_REQUIRE_EQ(row[1].item<float>(), v[0]);
        TEST_REQUIRE_EQ(row[500].item<float>(), v[1]);
        TEST_REQUIRE_EQ(row[999].item<float>(), v[2]);
    }
    // Every row, computed per batch, is bit for bit numpy's whole array (held by numpy, written as float32).
    TempDir dir;
    const std::string file = dir.filePath("linspace.f32");
    runPython(
        "import sys, numpy as np\n"
        "np.stack([np.linspace(0, i, 1000) for i in range(10000)]).astype(np.float32).tofile(sys.argv[1])\n",
        {file});
    const std::string expected = fileBytes(file);
    const at::Tensor all = d.inputs(torch::arange(10000, torch::kLong)).contiguous();
    TEST_REQUIRE_EQ(expected.size(), all.nbytes());
    TEST_REQUIRE(std::memcmp(expected.data(), all.data_ptr<float>(), expected.size()) == 0);
    const at::Tensor idx = torch::tensor({9999, 0, 17, 17}, torch::kLong);
    TEST_REQUIRE(d.inputs(idx).equal(all.index_select(0, idx)));
}

DDPDESK_TEST_MAIN()
