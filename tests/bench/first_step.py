"""Launch to first finished step: ddpdesk-worker against PyTorch's own Python DDP (ddp_reference.py), 2 ranks each,
1 thread, Fashion-MNIST CNN, batch 64, started at once as the launcher starts them. The figure is the time from
starting the two processes to the moment both have finished their first optimizer step; rounds alternate engine
and Python so both see the same machine (and, for the engine, warm workers: started ahead with LibTorch loaded,
timed from handing them their configuration), and the best of the rounds is compared (start-up times only get slower
under noise). For the engine it also prints where its time went, from its own events: LibTorch loaded and the
rank running (hello), the rendezvous (pg_ready), its own start-up beside it (prepare_ms) and the wait for its peer.

    first_step.py WORKER PYTHON [ROUNDS]
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GOAL = 0.4


def run(commands, envs, first_step_of):
    """Starts every command at once; seconds from the start to the last rank's first step, and each rank's events."""
    start = time.time()
    procs = [subprocess.Popen(c, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for c, e in zip(commands, envs)]
    results = [p.communicate(timeout=300) for p in procs]
    for p, (_, err) in zip(procs, results):
        if p.returncode != 0:
            raise SystemExit("%s failed (%d): %s" % (p.args[0], p.returncode, err[-2000:]))
    events = [[json.loads(line) for line in out.splitlines() if line.startswith("{")] for out, _ in results]
    return max(first_step_of(e) for e in events) - start, start, events


def engine(worker, work):
    port = random.randint(30500, 31500)
    cmds = [[worker, "--workload", "fashion-mnist", "--batch-size", "64", "--steps", "3", "--threads", "1",
             "--telemetry-ms", "0", "--rank", str(r), "--world-size", "2", "--store",
             "tcp://127.0.0.1:%d" % port, "--out", os.path.join(work, "engine")] for r in range(2)]

    def first_step(events):
        return next(e["t"] for e in events if e.get("event") == "step")

    return run(cmds, [dict(os.environ)] * 2, first_step)


def warm_engine(worker, work):
    """The same two ranks as warm workers (--wait-for-config, protocol/warm_start.h), as the GUI and sweeps keep
    them: started and given time to load LibTorch, then timed from handing them their configuration."""
    port = random.randint(32500, 33500)
    procs = [subprocess.Popen([worker, "--wait-for-config"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(2)]
    time.sleep(3)  # loaded long before: the figure is what is left once LibTorch is in
    start = time.time()
    for r, p in enumerate(procs):
        args = ["--workload", "fashion-mnist", "--batch-size", "64", "--steps", "3", "--threads", "1",
                "--telemetry-ms", "0", "--rank", str(r), "--world-size", "2", "--store",
                "tcp://127.0.0.1:%d" % port, "--out", os.path.join(work, "warm")]
        p.stdin.write(json.dumps({"args": args, "env": {}, "unset": [], "cwd": work}) + "\n")
        p.stdin.close()
        p.stdin = None  # communicate() would flush it
    results = [p.communicate(timeout=300) for p in procs]
    for p, (_, err) in zip(procs, results):
        if p.returncode != 0:
            raise SystemExit("warm worker failed (%d): %s" % (p.returncode, err[-2000:]))
    events = [[json.loads(line) for line in out.splitlines() if line.startswith("{")] for out, _ in results]
    return max(next(e["t"] for e in ev if e.get("event") == "step") for ev in events) - start


def reference(python):
    port = random.randint(31500, 32500)
    envs = [dict(os.environ, RANK=str(r), WORLD_SIZE="2", MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port),
                 GLOO_SOCKET_IFNAME="lo", OMP_NUM_THREADS="1") for r in range(2)]
    cmd = [python, os.path.join(HERE, "ddp_reference.py"), "--workload", "fashion-mnist", "--batch-size", "64",
           "--steps", "3", "--warmup", "1", "--first-step"]
    return run([cmd, cmd], envs, lambda events: next(e["first_step_t"] for e in events if "first_step_t" in e))


def phases(start, events):
    """The slower rank's time line, in seconds from the start."""
    def at(rank_events, pred):
        return next((e for e in rank_events if pred(e)), None)

    worst = None
    for ev in events:
        hello = at(ev, lambda e: e.get("event") == "hello")
        ready = at(ev, lambda e: e.get("event") == "rendezvous" and e.get("phase") == "pg_ready")
        done = at(ev, lambda e: e.get("event") == "rendezvous" and e.get("phase") == "done")
        step = at(ev, lambda e: e.get("event") == "step")
        row = (hello["t"] - start, ready["t"] - start, done.get("prepare_ms", 0) / 1000.0,
               done.get("peer_wait_ms", 0) / 1000.0, step["t"] - start)
        worst = row if worst is None or row[-1] > worst[-1] else worst
    return worst


def main():
    worker, python = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    best_e, best_p, best_w, best_phases = None, None, None, None
    with tempfile.TemporaryDirectory() as work:
        for _ in range(rounds):
            e, start, events = engine(worker, work)
            if best_e is None or e < best_e:
                best_e, best_phases = e, phases(start, events)
            w = warm_engine(worker, work)
            best_w = w if best_w is None else min(best_w, w)
            p, _, _ = reference(python)
            best_p = p if best_p is None else min(best_p, p)
    print("%-44s %12s %12s %8s %8s" % ("launch -> first step (2 ranks, CNN, best of %d)" % rounds, "engine s",
                                       "python s", "ratio", "goal"))
    print("%-44s %12.2f %12.2f %8.2f %8s" % ("fashion-mnist, batch 64/rank, cold", best_e, best_p, best_e / best_p,
                                             "<= %.1f" % GOAL))
    print("%-44s %12.2f %12.2f %8.2f %8s" % ("fashion-mnist, batch 64/rank, warm workers", best_w, best_p,
                                             best_w / best_p, "<= %.1f" % GOAL))
    hello, ready, prepare, wait, step = best_phases
    print("  engine's slower rank: hello %.2f s, rendezvous done %.2f s, own start-up %.2f s beside it, "
          "then waited %.2f s for its peer, first step %.2f s" % (hello, ready, prepare, wait, step))


if __name__ == "__main__":
    main()
