"""How long from a rank stopping to the launcher naming it: ddpdesk-cli runs tests/launch/hang_script.py (rank 1
stuck in its data loading before its 4th step, rank 0 waiting in DDP's allreduce) and the time from rank 1's own
"stuck at" mark to the launcher's RANK_BEHIND `diagnosis` event in metrics.jsonl is printed, per round and the
median (goal: 5 s or less). The launcher's share is the watch's once-a-second look, the 2.5 s a rank must be late
by (ordinary jitter between ranks is not a hold-up) and the 1.5 s the ranks get to write their stacks.

    hold_up_latency.py DDPDESK_CLI [PYTHON] [ROUNDS]
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
HANG = os.path.join(HERE, "..", "launch", "hang_script.py")


def one_round(cli, python):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run")
        run = subprocess.Popen([cli, "run", "--script", HANG, "--python", python, "--nproc", "2", "--out", out, "--",
                                tmp], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.time() + 120
            while time.time() < deadline and run.poll() is None:
                time.sleep(0.2)
                try:
                    with open(os.path.join(out, "metrics.jsonl")) as f:
                        events = [json.loads(line) for line in f if '"diagnosis"' in line]
                except (OSError, ValueError):
                    continue
                named = [e for e in events if e.get("code") == "RANK_BEHIND" and e.get("behind") == [1]]
                if named:
                    with open(os.path.join(tmp, "stuck_at")) as f:
                        return named[0]["t"] - float(f.read())
            return None
        finally:
            open(os.path.join(tmp, "go"), "w").close()
            try:
                run.wait(60)
            except subprocess.TimeoutExpired:
                run.kill()


def main():
    cli = sys.argv[1]
    python = sys.argv[2] if len(sys.argv) > 2 else "/usr/bin/python3"
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    print(f"# rank stopped -> launcher names it ({os.cpu_count()} cores, load {os.getloadavg()[0]:.2f})")
    seconds = []
    for r in range(1, rounds + 1):
        s = one_round(cli, python)
        print(f"round {r}: " + (f"{s:.2f} s" if s is not None else "not named within 120 s"))
        if s is not None:
            seconds.append(s)
    if seconds:
        print(f"median: {statistics.median(seconds):.2f} s (goal: 5 s or less)")
    return 0 if len(seconds) == rounds else 1


if __name__ == "__main__":
    sys.exit(main())
