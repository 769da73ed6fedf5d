"""Cost of DDP Desk's instrumentation module (resources/python/ddpdesk_instrument.py) on a real DDP training loop.

    /usr/bin/python3 tests/bench/instrument_overhead.py [BLOCKS] [ROUNDS] [MODEL]

One rank of DDP over Gloo trains an MLP (MODEL: IN-HIDDEN-OUTxBATCH, default 784-256-10x64, steps of 12-27 ms on
this machine; 784-64-10x32 and 8-16-1x16 give shorter ones), the module's hooks installed exactly as
`python -m ddpdesk_instrument` installs them (its own _install). Three measurements:

  * inside the loop (the figure): each of the module's wrappers is timed from outside and the PyTorch function it
    calls from inside, so the difference is the module's own code where it really runs, plus DDP's statistics
    update that the module makes run more often than DDP would; their sum over the step time is the throughput it
    takes. Another process taking the core slows the module's code and the step alike, so the share hardly moves.
  * interleaved, in one process: the hooks switched off and on between blocks of 25 steps in the order on, off,
    off, on (a drift in the machine's speed cancels within each group of four); the median of the groups' own
    ratios, with its quartiles: on a shared 2-core machine they span several percent either way.
  * whole processes, as a user runs them: `python SCRIPT` against `python -m ddpdesk_instrument SCRIPT`, ROUNDS
    times each, alternately; this includes what the module does at start and exit, and the most noise.
"""
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MODULE_DIR = os.path.abspath(os.path.join(HERE, "..", "..", "resources", "python"))
BLOCK_STEPS = 25

SETUP = r'''
import os, sys, tempfile, time, torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
store = dist.FileStore(os.path.join(tempfile.mkdtemp(), "store"), 1)
dist.init_process_group("gloo", store=store, rank=0, world_size=1)
torch.manual_seed(0)
torch.set_num_threads(1)
'''

MODEL = r'''
n_in, hidden, n_out, batch = map(int, os.environ["BENCH_MODEL"].replace("x", "-").split("-"))
model = DDP(torch.nn.Sequential(torch.nn.Linear(n_in, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, n_out)))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
x, y = torch.randn(batch, n_in), torch.randint(0, n_out, (batch,))


def train(steps):
    for _ in range(steps):
        opt.zero_grad(); torch.nn.functional.cross_entropy(model(x), y).backward(); opt.step()
'''

WHOLE = SETUP + MODEL + r'''
train(20)  # warm-up
t = time.perf_counter()
train(300)
print("steps/s", 300 / (time.perf_counter() - t), file=sys.stderr)
dist.destroy_process_group()
'''

# The hooks the module installs: Tensor.backward and DistributedDataParallel.forward replaced, and the optimizer
# step counted (each optimizer's step wrapped when it is constructed), and
# DDP's runtime statistics sampled as the module asks (a CPU model: every iteration when iterations take 20 ms or
# more, as here, otherwise about once in 20 ms).
INSTALLED = SETUP + r'''
import collections
import ddpdesk_instrument
ddpdesk_instrument._out = open(os.devnull, "w")  # its events still get formatted and written, every 100 ms
plain = (torch.Tensor.backward, DDP.forward)
ddpdesk_instrument._install()
hooked = (torch.Tensor.backward, DDP.forward)
assert hooked != plain, "the module installed nothing"
''' + MODEL + r'''
step = opt.__dict__.get("step")  # the counted step, an attribute of this optimizer
assert step is not None, "the optimizer step is not counted"
train(11)  # the module sees the model and chooses how often DDP's statistics are sampled
'''

# Each of the module's wrappers is timed from outside and the PyTorch function it calls from inside: the
# difference is the module's own code, run where it runs (between a training step's heavy kernels, with cold
# caches: several times what the same calls cost in a tight loop). DDP's statistics update (which the module makes
# run more often than DDP would) is timed whole. The timers' own cost is counted too, so the figure errs high.
INSIDE = INSTALLED + r'''
spent = collections.Counter()


def timed(fn, key):
    def call(*a, **k):
        t = time.perf_counter_ns()
        try:
            return fn(*a, **k)
        finally:
            spent[key] += time.perf_counter_ns() - t
    return call


def closure_cells(fn, original, seen=()):
    """The cells holding `original` in fn's closure, or in the closures of the module's functions it calls (the
    backward wrapper calls it through a helper)."""
    found = []
    for c in fn.__closure__ or ():
        v = c.cell_contents
        if v is original:
            found.append(c)
        elif getattr(v, "__closure__", None) and v not in seen:
            found += closure_cells(v, original, seen + (fn,))
    return found


def time_inner(wrapper, original, key):
    cells = closure_cells(wrapper, original)
    assert len(cells) == 1, f"{key}: the module's wrapper no longer calls {original}"
    cells[0].cell_contents = timed(original, key + " inner")


class TimedLogger:
    def __init__(self, logger):
        self._logger = logger

    def set_runtime_stats_and_log(self):
        t = time.perf_counter_ns()
        self._logger.set_runtime_stats_and_log()
        spent["statistics"] += time.perf_counter_ns() - t

    def __getattr__(self, name):
        return getattr(self._logger, name)


time_inner(hooked[0], plain[0], "backward")
torch.Tensor.backward = timed(hooked[0], "backward")
time_inner(hooked[1], plain[1], "forward")
DDP.forward = timed(hooked[1], "forward")
time_inner(step.__func__, type(opt).step, "optimizer")  # the class's step runs inside the counted one
opt.step = timed(step, "optimizer")
model.logger = TimedLogger(model.logger)
train(50)
spent.clear()
steps = int(sys.argv[1])
t = time.perf_counter_ns()
train(steps)
elapsed = time.perf_counter_ns() - t
assert spent["optimizer"] and spent["statistics"], spent
print("iteration_us", elapsed / steps / 1e3)
for key in ("forward", "backward", "optimizer"):
    print(key + "_us", (spent[key] - spent[key + " inner"]) / steps / 1e3)
print("statistics_us", spent["statistics"] / steps / 1e3)
dist.destroy_process_group()
'''

# The same hooks, put back to PyTorch's own for the "off" blocks.
INTERLEAVED = INSTALLED + r'''


rate = ddpdesk_instrument._comm_wait.models[model].rate  # what the module chose after its 10 iterations


def instrument(on):
    torch.Tensor.backward, DDP.forward = hooked if on else plain
    if on:
        opt.step = step
    else:
        opt.__dict__.pop("step", None)
    model._set_ddp_runtime_logging_sample_rate(rate if on else 100)  # 100: DDP's default


for on in (True, False):
    instrument(on)
    train(20)  # warm-up of both paths
steps_before = ddpdesk_instrument._state["step"]
blocks = int(sys.argv[1])
for i in range(blocks):
    on = (i % 4) in (0, 3)
    instrument(on)
    times = []
    for _ in range(BLOCK_STEPS):
        t = time.perf_counter()
        train(1)
        times.append((time.perf_counter() - t) * 1000.0)
    print("on" if on else "off", " ".join(f"{v:.4f}" for v in times))
counted = ddpdesk_instrument._state["step"] - steps_before
assert counted == BLOCK_STEPS * blocks // 2, f"{counted} steps counted in the 'on' blocks"
dist.destroy_process_group()
'''.replace("BLOCK_STEPS", str(BLOCK_STEPS))


MODEL_SPEC = "784-256-10x64"


def python_env(directory):
    # The collective record and its history are written as under the launcher (a file per rank).
    return dict(os.environ, PYTHONPATH=MODULE_DIR, RANK="0", OMP_NUM_THREADS="1", BENCH_MODEL=MODEL_SPEC,
                DDPDESK_COLLECTIVES_FILE=os.path.join(directory, "collectives-0.txt"))


def run_script(source, args, directory):
    path = os.path.join(directory, "bench_script.py")
    with open(path, "w") as f:
        f.write(source)
    p = subprocess.run([sys.executable, path] + [str(a) for a in args], env=python_env(directory), capture_output=True,
                       text=True, timeout=600)
    if p.returncode != 0:
        sys.exit(f"the benchmark's training script failed:\n{p.stderr}")
    return p.stdout.splitlines()


def inside(steps, directory):
    values = dict((k, float(v)) for k, v in (line.split() for line in run_script(INSIDE, [steps], directory)))
    return values


def interleaved(blocks, directory):
    rows = [line.split() for line in run_script(INTERLEAVED, [blocks], directory) if line.startswith(("on ", "off "))]
    # A block's step time is the median of its steps: another process taking the core for a while slows a few
    # steps a lot, not every step a little.
    ms = [statistics.median(float(v) for v in row[1:]) for row in rows]
    groups = [ms[i:i + 4] for i in range(0, len(ms) - 3, 4)]
    # on, off, off, on: step time with the module over step time without, per group
    ratios = [(g[0] + g[3]) / (g[1] + g[2]) for g in groups]
    on = [v for row, v in zip(rows, ms) if row[0] == "on"]
    off = [v for row, v in zip(rows, ms) if row[0] == "off"]
    return ratios, statistics.median(on), statistics.median(off)


def whole(instrumented, script):
    cmd = [sys.executable] + (["-m", "ddpdesk_instrument"] if instrumented else []) + [script]
    p = subprocess.run(cmd, env=python_env(os.path.dirname(script)), capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{p.stderr}")
    return float(p.stderr.strip().split()[-1])


def cost(step_time_ratio):
    """Throughput lost, in percent, when each step takes step_time_ratio times as long."""
    return (1 - 1 / step_time_ratio) * 100


def main():
    global MODEL_SPEC
    blocks = int(sys.argv[1]) if len(sys.argv) > 1 else 160
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    MODEL_SPEC = sys.argv[3] if len(sys.argv) > 3 else MODEL_SPEC
    if blocks and (blocks % 4 or blocks < 8):
        sys.exit("BLOCKS: a multiple of 4 (groups of on, off, off, on), at least 8, or 0 to leave them out")
    import torch

    model = MODEL_SPEC.replace("x", ", batch ")
    print(f"# instrumentation cost, PyTorch {torch.__version__}, one DDP rank, MLP {model}")
    with tempfile.TemporaryDirectory() as d:
        v = inside(1000, d)
        module_us = v["forward_us"] + v["backward_us"] + v["optimizer_us"] + v["statistics_us"]
        print(f"inside the loop, 1000 steps of {v['iteration_us'] / 1000:.2f} ms: the module's code "
              f"{module_us:.0f} us a step (DDP.forward {v['forward_us']:.0f}, backward {v['backward_us']:.0f}, "
              f"optimizer step with its events {v['optimizer_us']:.0f}, DDP's statistics "
              f"{v['statistics_us']:.0f})")
        print(f"instrumentation cost (the module's time inside the loop): "
              f"{cost(v['iteration_us'] / (v['iteration_us'] - module_us)):+.2f} % of throughput")
        if blocks:
            ratios, on_ms, off_ms = interleaved(blocks, d)
            q = statistics.quantiles(ratios, n=4)
            print(f"interleaved, {blocks} blocks of {BLOCK_STEPS} steps in one process: step {off_ms:.2f} ms "
                  f"without, {on_ms:.2f} ms with the module (medians)")
            print(f"instrumentation cost (interleaved, median of {len(ratios)} on-off-off-on groups): "
                  f"{cost(statistics.median(ratios)):+.2f} % of throughput "
                  f"(quartiles {cost(q[0]):+.2f} % .. {cost(q[2]):+.2f} %: the machine's noise)")
        script = os.path.join(d, "train.py")
        with open(script, "w") as f:
            f.write(WHOLE)
        plain, instr = [], []
        for i in range(rounds):
            # plain first in even rounds, instrumented first in odd ones: a drift of the machine's speed during
            # a round does not always favour the same side
            for instrumented in ((False, True) if i % 2 == 0 else (True, False)):
                (instr if instrumented else plain).append(whole(instrumented, script))
            print(f"whole processes, round {i + 1}: plain {plain[-1]:.1f} steps/s, "
                  f"instrumented {instr[-1]:.1f} steps/s")
        if rounds:
            ratio = statistics.median(p / i for p, i in zip(plain, instr))  # step time with / without
            print(f"instrumentation cost (whole processes, median of {rounds} rounds' ratios): {cost(ratio):+.1f} %")


if __name__ == "__main__":
    main()
