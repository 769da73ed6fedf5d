"""PyTorch's own Python DDP doing what ddpdesk-worker does, for the benchmark: same model, data, batch, optimizer,
Gloo, 1 thread per process. One process = one rank; the rank comes from RANK/WORLD_SIZE/MASTER_ADDR/MASTER_PORT
(torchrun is broken on Debian 12's python3-torch, so the driver sets them). Prints one JSON line per rank:
{"rank": r, "samples_per_s": ..., "steps": n} measured after the warm-up steps."""
import argparse
import contextlib
import gzip
import json
import os
import time

import numpy as np
import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

FASHION_MEAN, FASHION_STD = 0.2860, 0.3530


def read_idx(path):
    with gzip.open(path, "rb") as f:
        raw = f.read()
    ndims = raw[3]
    dims = [int.from_bytes(raw[4 + 4 * i:8 + 4 * i], "big") for i in range(ndims)]
    return np.frombuffer(raw, dtype=np.uint8, offset=4 + 4 * ndims).reshape(dims)


def make(workload, data_dir):
    if workload == "autoencoder":
        x = torch.from_numpy(np.stack([np.linspace(0, i, 1000) for i in range(10000)]).astype(np.float32))
        model = nn.Sequential(nn.Linear(1000, 100), nn.Linear(100, 1000))
        return TensorDataset(x), model, lambda m: torch.optim.Adam(m.parameters(), lr=1e-4, betas=(0.0, 0.99))
    images = read_idx(os.path.join(data_dir, "train-images-idx3-ubyte.gz"))
    labels = read_idx(os.path.join(data_dir, "train-labels-idx1-ubyte.gz"))
    x = ((torch.from_numpy(images.copy()).float() / 255.0 - FASHION_MEAN) / FASHION_STD).unsqueeze(1)
    y = torch.from_numpy(labels.copy()).long()
    model = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                          nn.Linear(3136, 128), nn.ReLU(), nn.Linear(128, 10))
    return TensorDataset(x, y), model, lambda m: torch.optim.SGD(m.parameters(), lr=0.01, momentum=0.9)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--workload", choices=["autoencoder", "fashion-mnist"], required=True)
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--warmup", type=int, default=10)
    p.add_argument("--batch-size", type=int, required=True)
    p.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    p.add_argument("--precision", choices=["fp32", "bf16"], default="fp32")
    p.add_argument("--first-step", action="store_true", help="print when the first step finished (wall time)")
    a = p.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(0)
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    dataset, model, make_opt = make(a.workload, a.data)
    ddp = DDP(model)
    opt = make_opt(ddp)
    sampler = DistributedSampler(dataset, num_replicas=world, rank=rank, seed=0)
    loader = DataLoader(dataset, batch_size=a.batch_size, sampler=sampler)
    step, epoch, samples, t0 = 0, 0, 0, None
    while step < a.steps:
        sampler.set_epoch(epoch)
        for batch in loader:
            if step == a.warmup:
                t0, samples = time.perf_counter(), 0
            opt.zero_grad(set_to_none=True)
            amp = (torch.autocast("cpu", dtype=torch.bfloat16) if a.precision == "bf16"
                   else contextlib.nullcontext())
            with amp:
                if a.workload == "autoencoder":
                    x, = batch
                    loss = ((x - ddp(x)) ** 2).mean().sqrt().float()
                else:
                    x, y = batch
                    loss = nn.functional.cross_entropy(ddp(x), y).float()
            loss.backward()
            opt.step()
            loss.item()
            samples += x.shape[0]
            step += 1
            if step == 1 and a.first_step:
                print(json.dumps({"rank": rank, "first_step_t": time.time()}), flush=True)
            if step >= a.steps:
                break
        epoch += 1
    elapsed = time.perf_counter() - t0
    print(json.dumps({"rank": rank, "samples_per_s": samples / elapsed, "steps": step - a.warmup}), flush=True)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
