"""A user's DDP script for tests/launch/test_script_store.cpp: forms a gloo process group through env:// as any
script does, then reports and holds still so the test can look at who listens where.

    store_probe.py FOLDER [--fail-first-attempt]

Each rank writes FOLDER/ready-RANK (its pid, the attempt, TORCHELASTIC_USE_AGENT_STORE) after an all_reduce, then
waits for FOLDER/go (at most 60 s). With --fail-first-attempt rank 1 exits 3 on attempt 0 after the group formed,
so the launcher restarts everyone.
"""
import os
import sys
import time

import torch
import torch.distributed as dist

folder = sys.argv[1]
dist.init_process_group("gloo")
rank = dist.get_rank()
attempt = os.environ.get("TORCHELASTIC_RESTART_COUNT", "?")
t = torch.ones(1)
dist.all_reduce(t)
if "--fail-first-attempt" in sys.argv and attempt == "0" and rank == 1:
    sys.exit(3)
with open(os.path.join(folder, f"ready-{rank}.tmp"), "w") as f:
    f.write(f"{os.getpid()} {attempt} {os.environ.get('TORCHELASTIC_USE_AGENT_STORE', '-')} {int(t.item())}\n")
os.replace(os.path.join(folder, f"ready-{rank}.tmp"), os.path.join(folder, f"ready-{rank}"))
deadline = time.time() + 60
while not os.path.exists(os.path.join(folder, "go")) and time.time() < deadline:
    time.sleep(0.05)
dist.barrier()
dist.destroy_process_group()
