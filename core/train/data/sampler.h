#pragma once

#include <ATen/Tensor.h>

#include <cstdint>

namespace ddpdesk::train {

// The same indices as torch.utils.data.DistributedSampler(shuffle=True, drop_last=False): a permutation from
// torch.randperm with a generator seeded seed + epoch, padded by repeating its head to a multiple of the
// world size, then every world-size-th index starting at the rank. So N ranks x batch b see, step by step,
// exactly the samples one rank with batch N*b sees.
class DistributedSampler {
public:
    DistributedSampler(std::int64_t datasetSize, int rank, int worldSize, std::uint64_t seed,
                       bool shuffle = true);

    std::int64_t samplesPerRank() const { return m_perRank; }
    // Batches per epoch for one rank (the last one may be short, as with DataLoader(drop_last=False)).
    std::int64_t batchesPerEpoch(std::int64_t batchSize) const;
    // This rank's indices for `epoch` (int64, on CPU).
    at::Tensor indices(std::int64_t epoch) const;

private:
    std::int64_t m_size;
    int m_rank;
    int m_world;
    std::uint64_t m_seed;
    bool m_shuffle;
    std::int64_t m_perRank;
};

} // namespace ddpdesk::train
