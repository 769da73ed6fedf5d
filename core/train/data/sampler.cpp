#include "train/data/sampler.h"

#include <ATen/CPUGeneratorImpl.h>
#include <torch/torch.h>

namespace ddpdesk::train {

DistributedSampler::DistributedSampler(std::int64_t datasetSize, int rank, int worldSize, std::uint64_t seed,
                                       bool shuffle)
    : m_size(datasetSize), m_rank(rank), m_world(worldSize), m_seed(seed), m_shuffle(shuffle),
      m_perRank((datasetSize + worldSize - 1) / worldSize) {}

std::int64_t DistributedSampler::batchesPerEpoch(std::int64_t batchSize) const {
    return (m_perRank + batchSize - 1) / batchSize;
}

at::Tensor DistributedSampler::indices(std::int64_t epoch) const {
    at::Tensor order;
    if (m_shuffle) {
        auto gen = at::make_generator<at::CPUGeneratorImpl>(m_seed + static_cast<std::uint64_t>(epoch));
        order = torch::randperm(m_size, gen, torch::kLong);
    } else {
        order = torch::arange(m_size, torch::kLong);
    }
    const std::int64_t total = m_perRank * m_world;
    if (total > m_size) {
        // Pad with the head of the permutation (repeated as often as needed), like DistributedSampler.
        std::int64_t pad = total - m_size;
        std::int64_t reps = (pad + m_size - 1) / m_size;
        at::Tensor extra = order.repeat({reps}).narrow(0, 0, pad);
        order = torch::cat({order, extra});
    }
    return order.slice(0, m_rank, total, m_world).contiguous();
}

} // namespace ddpdesk::train
