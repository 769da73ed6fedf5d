#pragma once

// The Python scripts the screenshot tour (screenshot_tour.cpp) runs as a user's own: each shows one thing the
// Run page says about a script run.

namespace ddpdesk::ui {

// The tour's own script: what users bring (env:// rendezvous, DistributedSampler, DDP, no prints), with rank
// 1 stuck in its data loading for a while at step 150, for "Show stacks".
inline constexpr char kTourScript[] = R"PY(import time
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


def stuck_in_data_loading():
    time.sleep(12)


def main():
    dist.init_process_group("gloo")
    torch.manual_seed(0)
    x = torch.randn(4096, 32)
    data = TensorDataset(x, x.sum(dim=1, keepdim=True))
    loader = DataLoader(data, batch_size=16, sampler=DistributedSampler(data))
    model = DDP(torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    step = 0
    for epoch in range(2):
        loader.sampler.set_epoch(epoch)
        for xb, yb in loader:
            step += 1
            if step == 150 and dist.get_rank() == 1:
                stuck_in_data_loading()
            opt.zero_grad()
            torch.nn.functional.mse_loss(model(xb), yb).backward()
            opt.step()
            time.sleep(0.02)
    dist.destroy_process_group()


main()
)PY";

// Trains on through a loss that becomes NaN (a learning rate far too high) and exits 0, as scripts without a
// check do: the run completes with the NAN_LOSS warning.
inline constexpr char kTourNanScript[] = R"PY(import time
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
torch.manual_seed(0)
model = DDP(torch.nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=5.0)
x = torch.randn(64, 16) * 10
for step in range(60):
    opt.zero_grad()
    model(x).pow(2).mean().backward()
    opt.step()
    time.sleep(0.02)
dist.destroy_process_group()
)PY";

// Rank 1's input pipeline takes 40 ms a batch, rank 0's none: rank 1 is named a straggler (data loading).
inline constexpr char kTourSlowScript[] = R"PY(import time
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
torch.manual_seed(0)
model = DDP(torch.nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
x = torch.randn(64, 16)
for step in range(250):
    if dist.get_rank() == 1:
        time.sleep(0.04)  # a slow input pipeline
    opt.zero_grad()
    model(x).pow(2).mean().backward()
    opt.step()
dist.destroy_process_group()
)PY";

} // namespace ddpdesk::ui
