"""Cost of DDP Desk's instrumentation module (resources/python/ddpdesk_instrument.py) on a real DDP training loop.

    /usr/bin/python3 tests/bench/instrument_overhead.py [ROUNDS]

Runs the same one-rank DDP script (gloo, a 784-256-10 MLP on random data, 300 steps) alternately plain and under
`python -m ddpdesk_instrument`, ROUNDS times each (default 5), and prints each round's steps/s, the ratio of the
medians and that of the best rounds: measured side by side, so a busy machine slows both alike.
"""
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MODULE_DIR = os.path.join(HERE, "..", "..", "resources", "python")
SCRIPT = r'''
import os, sys, tempfile, time, torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
store = dist.FileStore(os.path.join(tempfile.mkdtemp(), "store"), 1)
dist.init_process_group("gloo", store=store, rank=0, world_size=1)
torch.manual_seed(0)
torch.set_num_threads(1)
model = DDP(torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(), torch.nn.Linear(256, 10)))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
x, y = torch.randn(64, 784), torch.randint(0, 10, (64,))
for _ in range(20):  # warm-up
    opt.zero_grad(); torch.nn.functional.cross_entropy(model(x), y).backward(); opt.step()
t = time.perf_counter()
for _ in range(300):
    opt.zero_grad(); torch.nn.functional.cross_entropy(model(x), y).backward(); opt.step()
print("steps/s", 300 / (time.perf_counter() - t), file=sys.stderr)
dist.destroy_process_group()
'''


def run(instrumented, script):
    env = dict(os.environ, PYTHONPATH=os.path.abspath(MODULE_DIR), RANK="0")
    cmd = [sys.executable] + (["-m", "ddpdesk_instrument"] if instrumented else []) + [script]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300, check=True)
    return float(p.stderr.strip().split()[-1])


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    with tempfile.TemporaryDirectory() as d:
        script = os.path.join(d, "train.py")
        with open(script, "w") as f:
            f.write(SCRIPT)
        plain, instr = [], []
        for i in range(rounds):
            plain.append(run(False, script))
            instr.append(run(True, script))
            print(f"round {i + 1}: plain {plain[-1]:.1f} steps/s, instrumented {instr[-1]:.1f} steps/s")
    ratio = statistics.median(instr) / statistics.median(plain)
    print(f"instrumented / plain throughput (medians of {rounds}): {ratio:.3f} ({(1 - ratio) * 100:+.1f} % cost)")
    # Other processes only ever slow a round down: each side's best round is its least disturbed one.
    best = max(instr) / max(plain)
    print(f"instrumented / plain throughput (best of {rounds}): {best:.3f} ({(1 - best) * 100:+.1f} % cost)")


if __name__ == "__main__":
    main()
