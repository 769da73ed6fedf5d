"""Reads the benchmark outputs and prints samples/s. Engine: ddpdesk-worker telemetry (step events with
--telemetry-ms 0): per rank, samples between the warm-up step and the last step over the time between them,
summed over ranks. Reference: the JSON lines of ddp_reference.py, summed over ranks."""
import json
import sys


def engine_rate(paths, warmup):
    total = 0.0
    for path in paths:
        steps = []
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line.startswith("{"):
                    e = json.loads(line)
                    if e.get("event") == "step":
                        steps.append(e)
        first = next(e for e in steps if e["step"] >= warmup)
        last = steps[-1]
        total += (last["samples"] - first["samples"]) / (last["t"] - first["t"])
    return total


def reference_rate(paths):
    total = 0.0
    for path in paths:
        with open(path) as f:
            for line in f:
                if line.startswith("{"):
                    total += json.loads(line)["samples_per_s"]
    return total


if __name__ == "__main__":
    kind, warmup, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    print("%.1f" % (engine_rate(files, warmup) if kind == "engine" else reference_rate(files)))
