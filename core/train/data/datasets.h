#pragma once

#include <ATen/Tensor.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

namespace ddpdesk::train {

class NodeDataShare;

// A whole dataset in memory. `y` undefined means "reconstruct the input" (autoencoder-style targets).
struct Dataset {
    at::Tensor x, y;         // training samples
    at::Tensor xTest, yTest; // optional test split (undefined when absent)
    bool classification = false;
    std::string description;
    // How x holds the samples. IDX images stay the file's bytes (uint8, a quarter of float32: 47 MB instead
    // of 188 MB for Fashion-MNIST's training set) and are scaled and normalised per batch; the linspace set
    // holds each row's end point (x: [N,1] float64) and computes the row per batch (40 MB of float32 not
    // held, and no 80 MB float64 intermediate at start). Either way by the same operations in the same order
    // as making them all at once would, so every value is bit-identical.
    enum class Encoding { Values, ImageBytes, LinspaceRows };
    Encoding encoding = Encoding::Values;
    at::Tensor rowUnit; // LinspaceRows: linspace(0, 1, dim) as [1,dim] float64

    std::int64_t size() const { return x.size(0); }
    bool hasTest() const { return xTest.defined(); }
    // The model's input for the given rows of x / xTest, and the first n rows of x.
    at::Tensor inputs(const at::Tensor& idx) const { return prepared(x.index_select(0, idx)); }
    at::Tensor testInputs(const at::Tensor& idx) const { return prepared(xTest.index_select(0, idx)); }
    at::Tensor firstInputs(std::int64_t n) const { return prepared(x.narrow(0, 0, std::min(n, size()))); }

private:
    at::Tensor prepared(const at::Tensor& rows) const;
};

// The seed's toy dataset: item i = linspace(0, i, dim) (computed in double, stored as float32 as numpy does).
Dataset makeLinspaceDataset(std::int64_t count = 10000, std::int64_t dim = 1000);

// Fashion-MNIST / MNIST from IDX files (train-* and, when present, t10k-*): images scaled to [0,1] and
// normalised with Fashion-MNIST's mean/std, shape [N,1,28,28]; labels int64. With `share`, the images are one
// copy per machine (node_data.h).
Dataset loadIdxDataset(const std::string& dir, NodeDataShare* share = nullptr);
// Throws DATA_MISSING as loadIdxDataset would when the folder or its training files are not there (reads
// nothing).
void checkIdxDatasetPresent(const std::string& dir);

// A file written from Python with torch.save({"x": X, "y": Y, "x_test": ..., "y_test": ...}, path); y, x_test
// and y_test are optional. Integer y means classification.
Dataset loadTensorFile(const std::string& path);

// The default IDX folder: $DDPDESK_DATA, else /usr/share/datasets/fashion-mnist.
std::string defaultDataDir();

// Keeps only the first n training samples and the first n test samples.
void limitSamples(Dataset& d, std::int64_t n);

} // namespace ddpdesk::train
