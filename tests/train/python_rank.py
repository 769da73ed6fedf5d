"""One rank of a ddpdesk-worker job, written with PyTorch's own torch.distributed instead of DDP Desk's engine: proof
that the worker's wire protocol is plain c10d and Gloo, spoken by any PyTorch (1.13 and 2.x) in the same job.

It follows the worker's sequence exactly (core/train/rendezvous/rendezvous.cpp, trainer.cpp, ddp_reducer.cpp,
local_exchange.cpp): the rank proof (HMAC, when DDPDESK_RUN_SECRET is set) and the arrival record in the store,
every arrival's proof checked, a ProcessGroupGloo on the store prefixed "ddpdesk/pg", rank 0's parameters in one flat
broadcast per dtype, the shared-memory offer declined (one float64 allreduce), per step the gradient buckets in the
reducer's layout (reverse parameter order, 1 MiB first bucket, divided by the world size before the sum), at each
epoch's end the loss and test-set allreduces, and the final barrier. Its samples are its own DistributedSampler share.

Prints one JSON line at the end: {"rank", "steps", "final_loss", "train_loss", "test_accuracy", "params_sha256"};
exit 0, or 1 with the reason on stderr (a rank that cannot prove it belongs: "FOREIGN_RANK ...")."""
import argparse
import datetime
import hashlib
import hmac
import json
import math
import os
import secrets
import socket
import sys
import time

import torch
import torch.distributed as dist

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))
from ddp_reference import make, read_idx, FASHION_MEAN, FASHION_STD  # noqa: E402

FIRST_BUCKET_BYTES = 1 << 20


def arrived_key(rank):
    return "ddpdesk/arrived/%d" % rank  # core/protocol/store_keys.h


def auth_key(rank):
    return "ddpdesk/auth/%d" % rank  # core/protocol/run_auth.h


def mac(secret, rank, host, pid, nonce, world):
    context = "ddpdesk-rank-proof/v1|world_size=%d" % world
    message = "%d|%s|%d|%s|%s" % (rank, host, pid, nonce, context)
    return hmac.new(secret, message.encode(), hashlib.sha256).hexdigest()


def open_store(spec, rank, world, timeout):
    if spec.startswith("file:"):
        return dist.FileStore(spec[len("file:"):], world)
    host, port = spec[len("tcp://"):].rsplit(":", 1)
    kwargs = dict(is_master=rank == 0, timeout=timeout, wait_for_workers=False)
    if "use_libuv" in (dist.TCPStore.__init__.__doc__ or ""):
        kwargs["use_libuv"] = False  # Debian's and Windows' 2.x builds have no libuv
    return dist.TCPStore(host, int(port), world, **kwargs)


def present(store, key):
    """A genuine rank writes its proof before its arrival: once the arrival is there, so is the proof."""
    try:
        store.wait([key], datetime.timedelta(milliseconds=200))
        return True
    except RuntimeError:
        return False


def arrive(store, rank, world, secret, deadline):
    host, pid = socket.gethostname(), os.getpid()
    if secret:
        nonce = secrets.token_hex(16)
        store.set(auth_key(rank), json.dumps({"rank": rank, "host": host, "pid": pid, "nonce": nonce,
                                              "mac": mac(secret, rank, host, pid, nonce, world)}))
    store.set(arrived_key(rank), json.dumps({"host": host, "pid": pid, "t": time.time(), "local_rank": 0}))
    try:  # Store.check is C++ only in 1.13: a bounded wait instead
        store.wait([arrived_key(r) for r in range(world)],
                   datetime.timedelta(seconds=max(0.0, deadline - time.monotonic())))
    except RuntimeError as e:
        sys.exit("timed out waiting for every rank to arrive: %s" % e)
    if not secret:
        return
    for r in range(world):
        record = json.loads(store.get(auth_key(r))) if present(store, auth_key(r)) else {}
        nonce, claimed = record.get("nonce", ""), record.get("mac", "")
        expected = mac(secret, r, record.get("host", "?"), record.get("pid", -1), nonce, world)
        if record.get("rank") != r or not hmac.compare_digest(expected, claimed):
            sys.exit("FOREIGN_RANK rank %d (host %s, pid %s) cannot prove it belongs to this run"
                     % (r, record.get("host", "?"), record.get("pid", "?")))


class Group:
    """The worker's GlooGroup: blocking collectives on a ProcessGroupGloo over the prefixed store."""

    def __init__(self, store, rank, world, timeout):
        self.pg = dist.ProcessGroupGloo(dist.PrefixStore("ddpdesk/pg", store), rank, world, timeout)
        self.world = world

    def allreduce(self, tensor):
        return self.pg.allreduce([tensor])  # SUM

    def broadcast(self, tensor, root=0):
        opts = dist.BroadcastOptions()
        opts.rootRank = root
        self.pg.broadcast([tensor], opts).wait()

    def allreduce_f64(self, values):
        t = torch.tensor(values, dtype=torch.float64)
        self.allreduce(t).wait()
        return t.tolist()


def buckets_of(params, bucket_bytes):
    """DdpReducer's layout: parameter indices in reverse order, a bucket closed once it holds its cap."""
    buckets, current, used, cap = [], [], 0, min(FIRST_BUCKET_BYTES, bucket_bytes)
    for k in reversed(range(len(params))):
        p = params[k]
        if current and params[current[0]].dtype != p.dtype:
            buckets.append(current)
            current, used, cap = [], 0, bucket_bytes
        current.append(k)
        used += p.numel() * p.element_size()
        if used >= cap:
            buckets.append(current)
            current, used, cap = [], 0, bucket_bytes
    if current:
        buckets.append(current)
    return buckets


def reduce_gradients(group, params, buckets):
    flats = [torch.cat([params[k].grad.reshape(-1) for k in b]).div_(group.world) for b in buckets]
    works = [group.allreduce(f) for f in flats]
    for b, flat, work in zip(buckets, flats, works):
        work.wait()
        offset = 0
        for k in b:
            n = params[k].numel()
            params[k].grad = flat[offset:offset + n].view_as(params[k])
            offset += n


def shard(size, rank, world, seed, epoch):
    """The worker's DistributedSampler (core/train/data/sampler.cpp): a seeded permutation padded with its head."""
    gen = torch.Generator()
    gen.manual_seed(seed + epoch)
    order = torch.randperm(size, generator=gen)
    per_rank = (size + world - 1) // world
    if per_rank * world > size:
        pad = per_rank * world - size
        order = torch.cat([order, order.repeat((pad + size - 1) // size)[:pad]])
    return order[rank:per_rank * world:world], per_rank


def test_set(workload, data_dir, limit):
    if workload != "fashion-mnist":
        return None
    images = read_idx(os.path.join(data_dir, "t10k-images-idx3-ubyte.gz"))[:limit]
    labels = read_idx(os.path.join(data_dir, "t10k-labels-idx1-ubyte.gz"))[:limit]
    x = ((torch.from_numpy(images.copy()).float() / 255.0 - FASHION_MEAN) / FASHION_STD).unsqueeze(1)
    return x, torch.from_numpy(labels.copy()).long()


def evaluate(group, model, test, rank, world):
    if test is None:
        return None
    x, y = test
    correct = 0.0
    with torch.no_grad():
        for chunk in torch.arange(rank, x.shape[0], world).split(256):
            correct += model(x[chunk]).argmax(1).eq(y[chunk]).sum().item()
        total = group.allreduce_f64([correct, float(len(range(rank, x.shape[0], world)))])
    return total[0] / total[1] if total[1] > 0 else None


def loss_of(workload, out, x, y):
    if workload == "autoencoder":
        return ((out - x) ** 2).mean().sqrt()
    return torch.nn.functional.cross_entropy(out, y)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--store", required=True, help="file:PATH or tcp://HOST:PORT")
    p.add_argument("--rank", type=int, required=True)
    p.add_argument("--world-size", type=int, required=True)
    p.add_argument("--workload", choices=["autoencoder", "fashion-mnist"], required=True)
    p.add_argument("--batch-size", type=int, required=True)
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--limit-samples", type=int)
    p.add_argument("--bucket-mb", type=float, default=25.0)
    p.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    p.add_argument("--timeout", type=float, default=120.0)
    a = p.parse_args()
    torch.set_num_threads(1)
    rank, world = a.rank, a.world_size
    timeout = datetime.timedelta(seconds=a.timeout)
    secret = bytes.fromhex(os.environ["DDPDESK_RUN_SECRET"]) if os.environ.get("DDPDESK_RUN_SECRET") else b""

    store = open_store(a.store, rank, world, timeout)
    store.set_timeout(timeout)
    arrive(store, rank, world, secret, time.monotonic() + a.timeout)
    group = Group(store, rank, world, timeout)

    torch.manual_seed(a.seed)
    dataset, model, make_optimizer = make(a.workload, a.data)
    x_all = dataset.tensors[0][:a.limit_samples]
    y_all = dataset.tensors[1][:a.limit_samples] if len(dataset.tensors) > 1 else None
    test = test_set(a.workload, a.data, a.limit_samples)
    params = list(model.parameters())
    with torch.no_grad():  # rank 0's parameters and buffers, one flat broadcast per dtype
        tensors = params + list(model.buffers())
        for dtype in sorted({t.dtype for t in tensors}, key=str):
            same = [t for t in tensors if t.dtype == dtype]
            flat = torch.cat([t.reshape(-1) for t in same])
            group.broadcast(flat)
            torch.nn.utils.vector_to_parameters(flat, same)
    optimizer = make_optimizer(model)
    census = [0.0] * (3 * world)  # per rank: host key (two halves), and whether it declines shared memory
    census[3 * rank + 2] = 1.0  # declined: every rank then uses Gloo, and the setup ends here
    group.allreduce_f64(census)
    buckets = buckets_of(params, int(a.bucket_mb * 1024 * 1024))

    steps, loss_value, train_loss, accuracy = 0, math.nan, None, None
    for epoch in range(a.epochs):
        order, per_rank = shard(x_all.shape[0], rank, world, a.seed, epoch)
        loss_sum, loss_count = 0.0, 0
        for begin in range(0, per_rank, a.batch_size):
            idx = order[begin:min(begin + a.batch_size, per_rank)]
            for q in params:
                q.grad = None
            loss = loss_of(a.workload, model(x_all[idx]), x_all[idx], None if y_all is None else y_all[idx])
            loss.backward()
            reduce_gradients(group, params, buckets)
            optimizer.step()
            loss_value = loss.item()
            loss_sum, loss_count, steps = loss_sum + loss_value, loss_count + 1, steps + 1
        total = group.allreduce_f64([loss_sum, float(loss_count)])
        train_loss = total[0] / total[1]
        accuracy = evaluate(group, model, test, rank, world)
    group.pg.barrier().wait()

    digest = hashlib.sha256(b"".join(q.detach().contiguous().numpy().tobytes() for q in params)).hexdigest()
    print(json.dumps({"rank": rank, "steps": steps, "final_loss": loss_value, "train_loss": train_loss,
                      "test_accuracy": accuracy, "params_sha256": digest}), flush=True)


if __name__ == "__main__":
    main()
