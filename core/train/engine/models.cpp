#include "train/engine/models.h"

#include "train/base/errors.h"

#include <torch/script.h>
#include <torch/torch.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ddpdesk::train {

namespace {

// Debian's LibTorch multiplies through the generic reference BLAS, several times slower than oneDNN's JIT
// kernels that it also ships. A Linear layer is a 1x1 convolution, which LibTorch runs through oneDNN, so
// built-in models compute their Linear layers that way (same parameters, same result up to summation order).
// The choice is fixed (not timed) so every run of a job computes identically; DDPDESK_LINEAR=blas turns it
// off.
bool linearViaOneDnn() {
    static const bool on = [] {
        const char* env = std::getenv("DDPDESK_LINEAR");
        return at::hasMKLDNN() && !(env && std::string(env) == "blas");
    }();
    return on;
}

at::Tensor linear(const at::Tensor& x, torch::nn::LinearImpl& layer) {
    if (!linearViaOneDnn() || !x.device().is_cpu() || x.scalar_type() != at::kFloat || x.dim() != 2)
        return layer.forward(x);
    const std::int64_t out = layer.weight.size(0), in = layer.weight.size(1);
    at::Tensor y =
        at::conv2d(x.reshape({x.size(0), in, 1, 1}), layer.weight.view({out, in, 1, 1}), layer.bias);
    return y.view({x.size(0), out});
}

// Runs a Sequential, sending Linear layers through linear() above.
at::Tensor runSequential(torch::nn::SequentialImpl& seq, at::Tensor x) {
    for (auto& module : seq) {
        if (auto* lin = module.ptr()->as<torch::nn::LinearImpl>())
            x = linear(x, *lin);
        else
            x = module.forward(x);
    }
    return x;
}

NamedTensors toNamed(const torch::OrderedDict<std::string, at::Tensor>& dict, bool trainableOnly) {
    NamedTensors out;
    for (const auto& item : dict)
        if (!trainableOnly || item.value().requires_grad()) out.emplace_back(item.key(), item.value());
    return out;
}

// Built-in models are ordinary torch::nn modules.
class NativeModel : public TrainModel {
public:
    NativeModel(std::shared_ptr<torch::nn::Module> module, std::string description)
        : m_module(std::move(module)), m_description(std::move(description)) {}
    at::Tensor forward(const at::Tensor& x) override { return m_forward(x); }
    NamedTensors namedParameters() override { return toNamed(m_module->named_parameters(true), true); }
    NamedTensors namedBuffers() override { return toNamed(m_module->named_buffers(true), false); }
    void setTraining(bool on) override { m_module->train(on); }
    void toDevice(const c10::Device& device) override { m_module->to(device); }
    void save(std::ostream& out) override {
        torch::serialize::OutputArchive archive;
        m_module->save(archive);
        archive.save_to(out);
    }
    void load(std::istream& in) override {
        torch::serialize::InputArchive archive;
        archive.load_from(in);
        m_module->load(archive);
    }
    std::string describe() const override { return m_description; }

    std::function<at::Tensor(const at::Tensor&)> m_forward;

private:
    std::shared_ptr<torch::nn::Module> m_module;
    std::string m_description;
};

struct AutoencoderImpl : torch::nn::Module {
    AutoencoderImpl() {
        net = register_module(
            "net", torch::nn::Sequential(torch::nn::Linear(1000, 100), torch::nn::Linear(100, 1000)));
    }
    torch::nn::Sequential net{nullptr};
};

class ScriptedModel : public TrainModel {
public:
    ScriptedModel(torch::jit::Module module, std::string path)
        : m_module(std::move(module)), m_path(std::move(path)) {}
    at::Tensor forward(const at::Tensor& x) override {
        c10::IValue out = m_module.forward({x});
        if (!out.isTensor())
            throw TrainError(error_code::ModelInvalid,
                             "TorchScript model " + m_path +
                                 ": forward() must return one Tensor, it returned " + out.tagKind(),
                             exit_code::BadInput);
        return out.toTensor();
    }
    NamedTensors namedParameters() override {
        NamedTensors out;
        for (const auto& p : m_module.named_parameters(true))
            if (p.value.requires_grad()) out.emplace_back(p.name, p.value);
        return out;
    }
    NamedTensors namedBuffers() override {
        NamedTensors out;
        for (const auto& b : m_module.named_buffers(true))
            out.emplace_back(b.name, b.value);
        return out;
    }
    void setTraining(bool on) override { m_module.train(on); }
    void toDevice(const c10::Device& device) override { m_module.to(device); }
    void save(std::ostream& out) override { m_module.save(out); }
    void load(std::istream& in) override {
        torch::jit::Module loaded = torch::jit::load(in);
        auto src = loaded.named_parameters(true);
        torch::NoGradGuard noGrad;
        for (const auto& p : m_module.named_parameters(true))
            for (const auto& q : src)
                if (q.name == p.name) p.value.copy_(q.value);
    }
    std::string describe() const override { return "TorchScript module " + m_path; }

private:
    torch::jit::Module m_module;
    std::string m_path;
};

} // namespace

std::unique_ptr<TrainModel> makeAutoencoder() {
    auto module = std::make_shared<AutoencoderImpl>();
    auto model = std::make_unique<NativeModel>(module, "autoencoder Linear(1000,100) -> Linear(100,1000)");
    model->m_forward = [module](const at::Tensor& x) { return runSequential(*module->net, x); };
    return model;
}

std::unique_ptr<TrainModel> makeFashionCnn() {
    namespace nn = torch::nn;
    auto seq = std::make_shared<nn::SequentialImpl>(
        nn::Conv2d(nn::Conv2dOptions(1, 32, 3).padding(1)), nn::ReLU(), nn::MaxPool2d(2),
        nn::Conv2d(nn::Conv2dOptions(32, 64, 3).padding(1)), nn::ReLU(), nn::MaxPool2d(2), nn::Flatten(),
        nn::Linear(3136, 128), nn::ReLU(), nn::Linear(128, 10));
    auto model = std::make_unique<NativeModel>(seq, "fashion-mnist CNN (2 conv + 2 linear)");
    model->m_forward = [seq](const at::Tensor& x) { return runSequential(*seq, x); };
    return model;
}

std::unique_ptr<TrainModel> loadTorchScript(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(std::filesystem::path(path), ec))
        throw TrainError(error_code::ModelInvalid, "--model " + path + ": no such file", exit_code::BadInput);
    try {
        std::ifstream in(std::filesystem::path(path), std::ios::binary);
        torch::jit::Module module = torch::jit::load(in);
        if (!module.find_method("forward"))
            throw TrainError(error_code::ModelInvalid,
                             "TorchScript model " + path + " has no forward() method", exit_code::BadInput);
        auto model = std::make_unique<ScriptedModel>(std::move(module), path);
        if (model->namedParameters().empty())
            throw TrainError(error_code::ModelInvalid,
                             "TorchScript model " + path + " has no trainable parameters",
                             exit_code::BadInput);
        return model;
    } catch (const TrainError&) {
        throw;
    } catch (const std::exception& e) {
        std::string what = e.what();
        throw TrainError(error_code::ModelInvalid,
                         "--model " + path +
                             " is not a TorchScript module (save one from Python with "
                             "torch.jit.save(torch.jit.script(model), path)): " +
                             what.substr(0, what.find('\n')),
                         exit_code::BadInput);
    }
}

std::unique_ptr<TrainModel> makeModel(const std::string& workload, const std::string& modelPath) {
    if (workload == "autoencoder") return makeAutoencoder();
    if (workload == "fashion-mnist") return makeFashionCnn();
    if (workload == "torchscript") return loadTorchScript(modelPath);
    throw badInput("unknown workload '" + workload + "': autoencoder, fashion-mnist or torchscript");
}

} // namespace ddpdesk::train
