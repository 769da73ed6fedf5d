"""A DDP script that hangs the way real ones do, for tests/launch/test_script_stacks.cpp: a few steps train, then
rank 1 gets stuck in its data loading (stuck_in_data_loading) while rank 0 waits for it in DDP's allreduce.

    hang_script.py FOLDER [past|mismatch|mismatch_end]

"past": at that step every rank first allreduces through the process group object itself
(ProcessGroup.allreduce, past torch.distributed's functions), so rank 0 waits in a collective only PyTorch's
Flight Recorder counts.
"mismatch": nobody is stuck; after step 3 rank 0 alone broadcasts a metric (the classic bug: a collective only rank
0 calls) while rank 1 goes on to its next gradient allreduce. Gloo hangs in those different collectives until its
20 s timeout ends both ranks. "mismatch_end": rank 0 alone all_reduces it instead, and Gloo ends both ranks at once
(the sizes differ).

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
    how = sys.argv[2] if len(sys.argv) > 2 else ""
    past = how == "past"
    mismatch = how.startswith("mismatch")
    if mismatch:
        import datetime
        dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=20))
    else:
        dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(0)
    model = DDP(torch.nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(6):
        if step == 3 and rank == 1 and not mismatch:
            stuck_in_data_loading(folder)
        if step == 3 and past:
            dist.distributed_c10d._get_default_group().allreduce([torch.ones(2)]).wait()
        x = torch.randn(4, 8)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step == 3 and mismatch and rank == 0:  # a collective only rank 0 calls
            metric = loss.detach().clone()
            if how == "mismatch":
                dist.broadcast(metric, 0)
            else:
                dist.all_reduce(metric)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
