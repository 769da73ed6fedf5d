#include "train/data/datasets.h"

#include "train/base/environment.h"
#include "train/base/errors.h"
#include "train/data/idx_reader.h"
#include "train/data/node_data.h"

#include <torch/serialize.h>
#include <torch/torch.h>

#include <filesystem>
#include <fstream>
#include <iterator>

namespace ddpdesk::train {

namespace fs = std::filesystem;

namespace {

constexpr double kFashionMean = 0.2860;
constexpr double kFashionStd = 0.3530;

at::Tensor images(const IdxArray& a, const fs::path& file) {
    if (a.dims.size() != 3)
        throw TrainError(error_code::DataCorrupt,
                         "dataset file " + file.string() + " has " + std::to_string(a.dims.size()) +
                             " dimensions; images need 3 (count, rows, columns)",
                         exit_code::BadInput);
    return a.data.unsqueeze(1).contiguous(); // bytes; Dataset::prepared scales them per batch
}

at::Tensor labels(const IdxArray& a, const fs::path& file) {
    if (a.dims.size() != 1)
        throw TrainError(error_code::DataCorrupt,
                         "dataset file " + file.string() + " is not a 1-dimensional label file",
                         exit_code::BadInput);
    return a.data.to(torch::kLong);
}

// IDX file names without .gz, as MNIST and Fashion-MNIST ship them; prefix "train" or "t10k".
std::string imagesFileName(const std::string& prefix) {
    return prefix + "-images-idx3-ubyte";
}
std::string labelsFileName(const std::string& prefix) {
    return prefix + "-labels-idx1-ubyte";
}

void pair(const std::string& dir, const std::string& prefix, at::Tensor& x, at::Tensor& y, bool required,
          NodeDataShare* share) {
    fs::path imagesFile, labelsFile;
    try {
        imagesFile = findIdxFile(dir, imagesFileName(prefix));
        labelsFile = findIdxFile(dir, labelsFileName(prefix));
    } catch (const TrainError&) {
        if (required) throw;
        return;
    }
    x = images(share ? share->load(imagesFile) : readIdxFile(imagesFile), imagesFile);
    y = labels(readIdxFile(labelsFile), labelsFile);
    if (x.size(0) != y.size(0))
        throw TrainError(error_code::DataCorrupt,
                         imagesFile.string() + " holds " + std::to_string(x.size(0)) + " images but " +
                             labelsFile.string() + " holds " + std::to_string(y.size(0)) + " labels",
                         exit_code::BadInput);
}

at::Tensor dictTensor(const c10::Dict<c10::IValue, c10::IValue>& dict, const char* key,
                      const std::string& path) {
    auto it = dict.find(c10::IValue(std::string(key)));
    if (it == dict.end()) return {};
    if (!it->value().isTensor())
        throw TrainError(error_code::DataCorrupt,
                         "tensor file " + path + ": entry '" + key + "' is not a tensor",
                         exit_code::BadInput);
    return it->value().toTensor();
}

} // namespace

at::Tensor Dataset::prepared(const at::Tensor& rows) const {
    switch (encoding) {
    case Encoding::ImageBytes:
        return rows.to(torch::kFloat32).div_(255.0).sub_(kFashionMean).div_(kFashionStd);
    case Encoding::LinspaceRows:
        return (rows * rowUnit).to(torch::kFloat32);
    case Encoding::Values:
        break;
    }
    return rows;
}

std::string defaultDataDir() {
    if (auto env = envValue("DDPDESK_DATA")) return *env;
    return "/usr/share/datasets/fashion-mnist";
}

Dataset makeLinspaceDataset(std::int64_t count, std::int64_t dim) {
    Dataset d;
    // Row i = linspace(0, i, dim) = i * linspace(0, 1, dim), computed in double like np.linspace (prepared).
    d.rowUnit = torch::linspace(0.0, 1.0, dim, torch::kFloat64).unsqueeze(0);
    d.x = torch::arange(count, torch::kFloat64).unsqueeze(1);
    d.encoding = Dataset::Encoding::LinspaceRows;
    d.description = "linspace dataset: " + std::to_string(count) + " vectors of " + std::to_string(dim);
    return d;
}

void checkIdxDatasetPresent(const std::string& dir) {
    findIdxFile(dir, imagesFileName("train"));
    findIdxFile(dir, labelsFileName("train"));
}

Dataset loadIdxDataset(const std::string& dir, NodeDataShare* share) {
    Dataset d;
    pair(dir, "train", d.x, d.y, true, share);
    pair(dir, "t10k", d.xTest, d.yTest, false, share);
    d.classification = true;
    d.encoding = Dataset::Encoding::ImageBytes;
    d.description = "IDX folder " + dir + ": " + std::to_string(d.x.size(0)) + " training images" +
                    (d.hasTest() ? ", " + std::to_string(d.xTest.size(0)) + " test images" : ", no test set");
    return d;
}

Dataset loadTensorFile(const std::string& path) {
    std::ifstream in(fs::path(path), std::ios::binary);
    if (!in)
        throw TrainError(error_code::DataMissing, "cannot open tensor file " + path, exit_code::BadInput);
    std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    c10::IValue value;
    try {
        value = torch::pickle_load(raw);
    } catch (const std::exception& e) {
        std::string what = e.what();
        throw TrainError(error_code::DataCorrupt,
                         "tensor file " + path +
                             " could not be read as a torch.save file: " + what.substr(0, what.find('\n')),
                         exit_code::BadInput);
    }
    if (!value.isGenericDict())
        throw TrainError(error_code::DataCorrupt,
                         "tensor file " + path +
                             " must hold a dict like {\"x\": X, \"y\": Y} saved with torch.save",
                         exit_code::BadInput);
    auto dict = value.toGenericDict();
    Dataset d;
    d.x = dictTensor(dict, "x", path);
    d.y = dictTensor(dict, "y", path);
    d.xTest = dictTensor(dict, "x_test", path);
    d.yTest = dictTensor(dict, "y_test", path);
    if (!d.x.defined() || d.x.dim() < 1 || d.x.size(0) < 1)
        throw TrainError(error_code::DataCorrupt, "tensor file " + path + " has no non-empty 'x' tensor",
                         exit_code::BadInput);
    if (d.y.defined() && (d.y.dim() < 1 || d.y.size(0) != d.x.size(0)))
        throw TrainError(error_code::DataCorrupt,
                         "tensor file " + path + ": 'y' must have one entry per row of 'x' (" +
                             std::to_string(d.x.size(0)) + ")",
                         exit_code::BadInput);
    if (d.xTest.defined() != d.yTest.defined() && d.y.defined())
        throw TrainError(error_code::DataCorrupt,
                         "tensor file " + path + ": give both x_test and y_test, or neither",
                         exit_code::BadInput);
    if (d.x.is_floating_point() == false) d.x = d.x.to(torch::kFloat32);
    if (d.xTest.defined() && !d.xTest.is_floating_point()) d.xTest = d.xTest.to(torch::kFloat32);
    d.classification = d.y.defined() && !d.y.is_floating_point();
    if (d.classification) {
        d.y = d.y.to(torch::kLong);
        if (d.yTest.defined()) d.yTest = d.yTest.to(torch::kLong);
    }
    d.x = d.x.contiguous();
    d.description = "tensor file " + path + ": " + std::to_string(d.x.size(0)) + " samples";
    return d;
}

void limitSamples(Dataset& d, std::int64_t n) {
    auto head = [n](at::Tensor& t) {
        if (t.defined() && t.size(0) > n) t = t.narrow(0, 0, n).contiguous();
    };
    head(d.x);
    head(d.y);
    head(d.xTest);
    head(d.yTest);
}

} // namespace ddpdesk::train
