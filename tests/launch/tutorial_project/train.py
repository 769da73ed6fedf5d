"""A tutorial-style DDP script as users write it for torchrun: env:// rendezvous, a DistributedSampler, a sibling
module import, a snapshot written to the working folder, and no prints at all. DDP Desk runs it unchanged."""
import argparse
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

from model_def import make_model  # the sibling module: found because the script's folder is on sys.path

TORCHRUN_VARS = ("RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "GROUP_RANK", "GROUP_WORLD_SIZE",
                 "ROLE_RANK", "ROLE_WORLD_SIZE", "ROLE_NAME", "MASTER_ADDR", "MASTER_PORT", "TORCHELASTIC_RUN_ID",
                 "TORCHELASTIC_RESTART_COUNT", "TORCHELASTIC_MAX_RESTARTS", "OMP_NUM_THREADS")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--local-rank", "--local_rank", type=int, default=-1)  # torch.distributed.launch style
    args = parser.parse_args()
    if args.local_rank >= 0 and args.local_rank != int(os.environ["LOCAL_RANK"]):
        raise SystemExit(f"--local-rank={args.local_rank} but LOCAL_RANK={os.environ['LOCAL_RANK']}")
    missing = [v for v in TORCHRUN_VARS if v not in os.environ]
    if missing:
        raise SystemExit("torchrun variables missing: " + ", ".join(missing))
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(0)
    x = torch.randn(256, 8)
    data = TensorDataset(x, x.sum(dim=1, keepdim=True))
    loader = DataLoader(data, batch_size=16, sampler=DistributedSampler(data))
    model = DDP(make_model())
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(2):
        loader.sampler.set_epoch(epoch)
        for xb, yb in loader:
            opt.zero_grad()
            torch.nn.functional.mse_loss(model(xb), yb).backward()
            opt.step()
    if rank == 0:
        torch.save(model.module.state_dict(), "snapshot.pt")  # relative: lands in the working folder
        with open("ran_in.txt", "w") as f:
            f.write(os.getcwd() + "\n" + " ".join(f"{v}={os.environ[v]}" for v in TORCHRUN_VARS) + "\n")
            f.write(f"local_rank_arg={args.local_rank}\n")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
