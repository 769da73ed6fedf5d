"""A small PyTorch DDP training script, launched per rank by `ddpdesk-cli run --script` with the torchrun
environment (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT, ...). It prints its loss the way user scripts do."""
import argparse
import os
import sys
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--fail-rank", type=int, default=-1)
    parser.add_argument("--accumulate", type=int, default=1, help="micro-batches per optimizer step")
    parser.add_argument("--slow-rank", type=int, default=-1, help="this rank loads each batch slowly")
    parser.add_argument("--slow-ms", type=float, default=0, help="how long --slow-rank's data loading takes")
    args = parser.parse_args()

    dist.init_process_group("gloo", init_method="env://")
    rank, world = dist.get_rank(), dist.get_world_size()
    assert world == int(os.environ["WORLD_SIZE"]), "WORLD_SIZE mismatch"
    assert int(os.environ["LOCAL_RANK"]) < int(os.environ["LOCAL_WORLD_SIZE"])
    print(f"rank {rank}/{world} local {os.environ['LOCAL_RANK']} ready", file=sys.stderr, flush=True)

    torch.manual_seed(0)
    model = DDP(torch.nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    gen = torch.Generator().manual_seed(100 + rank)
    w_true = torch.arange(8, dtype=torch.float32).unsqueeze(1) / 8
    for step in range(1, args.steps + 1):
        if rank == args.slow_rank:
            time.sleep(args.slow_ms / 1000.0)  # a slow input pipeline, outside forward and backward
        opt.zero_grad()
        reported = 0.0  # gradient accumulation the usual way: each micro-batch's loss scaled, their sum reported
        for _ in range(args.accumulate):
            x = torch.randn(32, 8, generator=gen)
            y = x @ w_true
            loss = torch.nn.functional.mse_loss(model(x), y) / args.accumulate
            loss.backward()
            reported += loss.item()
        opt.step()
        print(f"step {step} loss: {reported:.6f}", flush=True)
        if rank == args.fail_rank and step == 3:
            raise RuntimeError("deliberate failure in the user's script")
    # Every rank holds the same weights after DDP; check it with a collective, as a real script might.
    w = model.module.weight.detach().clone()
    dist.all_reduce(w)
    assert torch.allclose(w / world, model.module.weight.detach()), "replicas diverged"
    print(f"Epoch 1 : {loss.item():.6f}", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
