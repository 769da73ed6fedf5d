"""A DDP script that hangs the way real ones do, for tests/launch/test_script_stacks.cpp: a few steps train, then
rank 1 gets stuck in its data loading (stuck_in_data_loading) while rank 0 waits for it in DDP's allreduce.

    hang_script.py FOLDER [past]

"past": at that step every rank first allreduces through the process group object itself
(ProcessGroup.allreduce, past torch.distributed's functions), so rank 0 waits in a collective only PyTorch's
Flight Recorder counts.

Rank 1 stays stuck until FOLDER/go exists (at most 90 s); then both finish. FOLDER/stuck_at says when it got stuck. Prints nothing: steps come from DDP
Desk's instrumentation module.
"""
import os
import sys
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def stuck_in_data_loading(folder):
    with open(os.path.join(folder, "stuck_at"), "w") as f:  # when it stopped (tests/bench/hold_up_latency.py)
        f.write(repr(time.time()))
    deadline = time.time() + 90
    while not os.path.exists(os.path.join(folder, "go")) and time.time() < deadline:
        time.sleep(0.05)


def main():
    folder = sys.argv[1]
    past = sys.argv[2:] == ["past"]
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(0)
    model = DDP(torch.nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(6):
        if step == 3 and rank == 1:
            stuck_in_data_loading(folder)
        if step == 3 and past:
            dist.distributed_c10d._get_default_group().allreduce([torch.ones(2)]).wait()
        x = torch.randn(4, 8)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
