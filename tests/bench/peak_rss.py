"""Peak resident memory per rank: ddpdesk-worker against PyTorch's own Python DDP (ddp_reference.py), 2 ranks each,
1 thread, the same workload, batch and steps, run one after the other in the same minutes. The peak of each rank
is its own (os.wait4's ru_maxrss), so nothing else on the machine counts. Prints one table row per workload.

    peak_rss.py WORKER PYTHON [STEPS]
"""
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def peaks(commands, envs):
    """Starts every command at once, waits for all; each one's peak RSS in MiB (a failed one raises)."""
    procs = [subprocess.Popen(c, env=e, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for c, e in zip(commands, envs)]
    out = []
    for p in procs:
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode != 0:
            raise SystemExit("%s failed (%d): %s" % (p.args[0], p.returncode, p.stderr.read().decode()[-2000:]))
        out.append(usage.ru_maxrss / 1024.0)  # KiB on Linux
    return out


def engine(worker, workload, batch, steps, work):
    port = random.randint(30500, 31500)
    cmds = [[worker, "--workload", workload, "--batch-size", str(batch), "--steps", str(steps), "--threads", "1",
             "--telemetry-ms", "0", "--rank", str(r), "--world-size", "2", "--store", "tcp://127.0.0.1:%d" % port,
             "--out", os.path.join(work, "%s-engine" % workload)] for r in range(2)]
    return peaks(cmds, [dict(os.environ)] * 2)


def reference(python, workload, batch, steps):
    port = random.randint(31500, 32500)
    envs = []
    for r in range(2):
        env = dict(os.environ, RANK=str(r), WORLD_SIZE="2", MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port),
                   GLOO_SOCKET_IFNAME="lo", OMP_NUM_THREADS="1")
        envs.append(env)
    cmd = [python, os.path.join(HERE, "ddp_reference.py"), "--workload", workload, "--batch-size", str(batch),
           "--steps", str(steps), "--warmup", "2"]
    return peaks([cmd, cmd], envs)


def main():
    worker, python = sys.argv[1], sys.argv[2]
    steps = int(sys.argv[3]) if len(sys.argv) > 3 else 30
    goals = {"fashion-mnist": 0.6, "autoencoder": 0.5}
    print("%-44s %12s %12s %8s %8s" % ("peak RSS per rank (2 ranks, MiB)", "engine", "python", "ratio", "goal"))
    with tempfile.TemporaryDirectory() as work:
        for workload, batch in (("fashion-mnist", 64), ("autoencoder", 50)):
            e = max(engine(worker, workload, batch, steps, work))
            p = max(reference(python, workload, batch, steps))
            print("%-44s %12.0f %12.0f %8.2f %8s" % (workload + ", batch %d/rank" % batch, e, p, e / p,
                                                    "<= %.1f" % goals[workload]))


if __name__ == "__main__":
    main()
