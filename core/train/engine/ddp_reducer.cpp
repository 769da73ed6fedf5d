#include "train/engine/ddp_reducer.h"

#include "train/base/wait_report.h"

#include <torch/torch.h>

namespace ddpdesk::train {

namespace {
constexpr std::int64_t kFirstBucketBytes = 1 << 20; // torch.distributed._DEFAULT_FIRST_BUCKET_BYTES
} // namespace

DdpReducer::DdpReducer(std::vector<at::Tensor> params, Collectives* group, std::int64_t bucketBytes,
                       bool overlap, std::chrono::milliseconds collectiveTimeout)
    : DdpReducer(std::move(params), group ? group->size() : 1, group ? makeGroupTransport(*group) : nullptr,
                 bucketBytes, overlap, collectiveTimeout) {}

DdpReducer::DdpReducer(std::vector<at::Tensor> params, int worldSize,
                       std::unique_ptr<GradientTransport> transport, std::int64_t bucketBytes, bool overlap,
                       std::chrono::milliseconds collectiveTimeout)
    : m_params(std::move(params)), m_slots(m_params.size()), m_worldSize(worldSize), m_overlap(overlap),
      m_timeout(collectiveTimeout), m_transport(std::move(transport)) {
    // Assign buckets in reverse order: the last layers' gradients are ready first during backward.
    std::int64_t cap = std::min<std::int64_t>(kFirstBucketBytes, bucketBytes);
    std::int64_t used = 0;
    Bucket current;
    auto close = [&] {
        if (!current.params.empty()) m_buckets.push_back(std::move(current));
        current = Bucket();
        used = 0;
        cap = bucketBytes;
    };
    for (std::size_t k = m_params.size(); k-- > 0;) {
        const at::Tensor& p = m_params[k];
        // One dtype and device per bucket (a flat tensor holds one kind).
        if (!current.params.empty()) {
            const at::Tensor& first = m_params[current.params.front()];
            if (first.scalar_type() != p.scalar_type() || first.device() != p.device()) close();
        }
        current.params.push_back(k);
        used += p.numel() * static_cast<std::int64_t>(p.element_size());
        if (used >= cap) close();
    }
    close();
    for (std::size_t b = 0; b < m_buckets.size(); ++b) {
        Bucket& bucket = m_buckets[b];
        std::int64_t offset = 0;
        for (std::size_t idx : bucket.params) {
            m_slots[idx] = Slot{b, offset, m_params[idx].numel(), false};
            offset += m_params[idx].numel();
        }
        bucket.flat = torch::zeros({offset}, m_params[bucket.params.front()].options().requires_grad(false));
    }
    if (m_overlap && m_transport) {
        for (std::size_t i = 0; i < m_params.size(); ++i)
            m_hooks.push_back(
                m_params[i].register_hook([this, i](const at::Tensor& grad) { onGradient(i, grad); }));
    }
}

DdpReducer::~DdpReducer() {
    // The hooks capture `this`; a backward after the reducer is gone must not reach them.
    for (std::size_t i = 0; i < m_hooks.size(); ++i)
        m_params[i].remove_hook(m_hooks[i]);
}

std::vector<std::size_t> DdpReducer::bucketSizesBytes() const {
    std::vector<std::size_t> sizes;
    for (const Bucket& b : m_buckets)
        sizes.push_back(static_cast<std::size_t>(b.flat.numel() * b.flat.element_size()));
    return sizes;
}

std::vector<at::Tensor> DdpReducer::bucketTemplates() const {
    std::vector<at::Tensor> t;
    for (const Bucket& b : m_buckets)
        t.push_back(b.flat);
    return t;
}

void DdpReducer::useTransport(std::unique_ptr<GradientTransport> transport) {
    m_transport = std::move(transport);
}

void DdpReducer::prepareForBackward(bool firstMicroBatch, bool sync) {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (firstMicroBatch)
        for (at::Tensor& p : m_params)
            p.mutable_grad() = at::Tensor(); // set_to_none: autograd stores fresh gradients without a memset
    if (!sync) {
        m_armed = false; // the hooks let autograd add this micro-batch's gradients to .grad
        return;
    }
    if (m_transport) {
        m_transport->beginStep();
        for (std::size_t b = 0; b < m_buckets.size(); ++b)
            m_buckets[b].flat = m_transport->beginBucket(b, m_buckets[b].flat);
    }
    for (Slot& s : m_slots)
        s.ready = false;
    for (Bucket& b : m_buckets)
        b.pending = b.params.size();
    m_nextLaunch = 0;
    m_bytesThisStep = 0;
    m_armed = true;
}

void DdpReducer::onGradient(std::size_t index, const at::Tensor& grad) {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (!m_armed || m_slots[index].ready)
        return; // a backward outside a training step (or a second use): nothing to synchronise
    Slot& s = m_slots[index];
    at::Tensor slice = m_buckets[s.bucket].flat.narrow(0, s.offset, s.numel);
    slice.copy_(grad.reshape({-1}));
    // The hook sees this backward's gradient before autograd adds it to .grad, which holds the earlier
    // micro-batches' sum when accumulating.
    const at::Tensor& earlier = m_params[index].grad();
    if (earlier.defined()) slice.add_(earlier.reshape({-1}));
    markReady(index);
    launchReady();
}

void DdpReducer::markReady(std::size_t index) {
    Slot& s = m_slots[index];
    s.ready = true;
    --m_buckets[s.bucket].pending;
}

void DdpReducer::launchReady() {
    const double world = static_cast<double>(m_worldSize);
    while (m_nextLaunch < m_buckets.size() && m_buckets[m_nextLaunch].pending == 0) {
        Bucket& b = m_buckets[m_nextLaunch++];
        // Average as DDP does: divide before the sum so values stay in range for any world size.
        b.flat.div_(world);
        m_transport->launch(m_nextLaunch - 1, b.flat);
        m_bytesThisStep += m_transport->wireBytes(b.flat);
    }
}

ReducerStats DdpReducer::finishBackward() {
    ReducerStats stats;
    if (!m_transport) {
        m_armed = false;
        return stats;
    }
    std::unique_lock<std::mutex> lock(m_mutex);
    m_armed = false;
    for (std::size_t i = 0; i < m_params.size(); ++i) {
        Slot& s = m_slots[i];
        if (s.ready) continue;
        // Without overlap every gradient is copied now; with overlap only unused parameters remain (zeros).
        at::Tensor view = m_buckets[s.bucket].flat.narrow(0, s.offset, s.numel);
        const at::Tensor& g = m_params[i].grad();
        if (g.defined())
            view.copy_(g.reshape({-1}));
        else
            view.zero_();
        markReady(i);
    }
    launchReady();
    lock.unlock();

    auto start = std::chrono::steady_clock::now();
    auto deadline = start + m_timeout;
    std::vector<at::Tensor> averaged(m_buckets.size());
    for (std::size_t k = 0; k < m_buckets.size(); ++k) {
        WaitScope waiting(
            {m_transport->waitName(), "training", "allreduce", static_cast<int>(k),
             static_cast<int>(m_buckets.size()),
             static_cast<std::int64_t>(m_buckets[k].flat.numel() * m_buckets[k].flat.element_size()),
             dtypeName(m_buckets[k].flat.scalar_type())});
        averaged[k] = m_transport->finish(k, m_buckets[k].flat, deadline);
    }
    stats.commWaitMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

    for (std::size_t i = 0; i < m_params.size(); ++i) {
        const Slot& s = m_slots[i];
        // .grad becomes a view of the averaged bucket: no copy back; the optimizer reads it before the next
        // step overwrites the bucket, and prepareForBackward() drops the view first.
        m_params[i].mutable_grad() =
            averaged[s.bucket].narrow(0, s.offset, s.numel).view(m_params[i].sizes());
    }
    stats.bytesAllreduced = m_bytesThisStep;
    stats.allreduceCalls = static_cast<int>(m_buckets.size());
    return stats;
}

} // namespace ddpdesk::train
