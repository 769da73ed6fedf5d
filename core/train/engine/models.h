#pragma once

#include <ATen/Tensor.h>
#include <c10/core/Device.h>

#include <iosfwd>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ddpdesk::train {

using NamedTensors = std::vector<std::pair<std::string, at::Tensor>>;

// A trainable model, built in (C++ modules) or loaded from TorchScript. Parameter order is the module's
// registration order (PyTorch's), which the gradient buckets reverse.
class TrainModel {
public:
    virtual ~TrainModel() = default;
    virtual at::Tensor forward(const at::Tensor& x) = 0;
    virtual NamedTensors namedParameters() = 0; // trainable only
    virtual NamedTensors namedBuffers() = 0;
    virtual void setTraining(bool on) = 0;
    virtual void toDevice(const c10::Device& device) = 0;
    // model.pt: TorchScript archive. Built-in models keep PyTorch's names (e.g. "net.0.weight"), so Python
    // reads them with torch.jit.load(path).state_dict().
    virtual void save(std::ostream& out) = 0;
    virtual void load(std::istream& in) = 0; // the counterpart of save() for the same architecture
    virtual std::string describe() const = 0;
};

// autoencoder: Linear(1000,100) -> Linear(100,1000) under "net" (the seed's SimpleModule).
std::unique_ptr<TrainModel> makeAutoencoder();
// fashion-mnist: the reference CNN as one Sequential (names 0.*, 3.*, 7.*, 9.* as in Python's nn.Sequential).
std::unique_ptr<TrainModel> makeFashionCnn();
// torchscript: a module saved with torch.jit.save. Throws TrainError MODEL_INVALID when it is not one.
std::unique_ptr<TrainModel> loadTorchScript(const std::string& path);

// Builds the model for a workload (modelPath only for torchscript).
std::unique_ptr<TrainModel> makeModel(const std::string& workload, const std::string& modelPath);

} // namespace ddpdesk::train
