"""Memory of a whole machine's ranks: the peak of the sum of their proportional set sizes (PSS: a shared page
counts 1/N for each of the N processes mapping it, so the sum is what the machine really holds for them), sampled
every 50 ms from /proc/PID/smaps_rollup. ddpdesk-worker with one copy of the images per machine (the launcher's run
secret names the shared block, core/train/data/node_data.h), the same without it (no secret: a copy per rank), and
PyTorch's own Python DDP, 2 ranks each, 1 thread, Fashion-MNIST CNN, one after the other in the same minutes.
Linux only (smaps_rollup); prints one table.

    node_memory.py WORKER PYTHON [STEPS]
"""
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def pss_kib(pid):
    try:
        with open("/proc/%d/smaps_rollup" % pid) as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def peak(commands, envs):
    """Starts every command at once; the peak over time of the sum of their PSS, in MiB."""
    procs = [subprocess.Popen(c, env=e, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for c, e in zip(commands, envs)]
    best = 0
    while any(p.poll() is None for p in procs):
        best = max(best, sum(pss_kib(p.pid) for p in procs))
        time.sleep(0.05)
    for p in procs:
        if p.returncode != 0:
            raise SystemExit("%s failed (%d): %s" % (p.args[0], p.returncode, p.stderr.read().decode()[-2000:]))
    return best / 1024.0


def engine(worker, steps, work, shared):
    port = random.randint(33500, 34500)
    env = dict(os.environ)
    env.pop("DDPDESK_RUN_SECRET", None)
    if shared:
        env["DDPDESK_RUN_SECRET"] = os.urandom(32).hex()
    cmds = [[worker, "--workload", "fashion-mnist", "--batch-size", "64", "--steps", str(steps), "--threads", "1",
             "--telemetry-ms", "0", "--rank", str(r), "--world-size", "2", "--local-rank", str(r),
             "--local-world-size", "2", "--store", "tcp://127.0.0.1:%d" % port,
             "--out", os.path.join(work, "engine-%s" % shared)] for r in range(2)]
    return peak(cmds, [env] * 2)


def reference(python, steps):
    port = random.randint(34500, 35500)
    envs = [dict(os.environ, RANK=str(r), WORLD_SIZE="2", MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port),
                 GLOO_SOCKET_IFNAME="lo", OMP_NUM_THREADS="1") for r in range(2)]
    cmd = [python, os.path.join(HERE, "ddp_reference.py"), "--workload", "fashion-mnist", "--batch-size", "64",
           "--steps", str(steps), "--warmup", "1"]
    return peak([cmd, cmd], envs)


def main():
    worker, python = sys.argv[1], sys.argv[2]
    steps = int(sys.argv[3]) if len(sys.argv) > 3 else 60
    if not os.path.exists("/proc/self/smaps_rollup"):
        print("node memory: skipped (no /proc/PID/smaps_rollup)")
        return
    with tempfile.TemporaryDirectory() as work:
        own = engine(worker, steps, work, False)
        shared = engine(worker, steps, work, True)
        ref = reference(python, steps)
    print("%-44s %12s %12s %12s %8s" % ("machine memory, 2 ranks (peak sum of PSS)", "engine own", "engine shared",
                                        "python", "shared/own"))
    print("%-44s %9.0f MiB %9.0f MiB %9.0f MiB %8.2f" % ("fashion-mnist CNN, batch 64/rank", own, shared, ref,
                                                         shared / own))


if __name__ == "__main__":
    main()
