"""Two nodes x two ranks over a shaped link: the bytes that cross it and samples/s, flat Gloo (every rank in one
Gloo ring) against the hierarchical exchange (shared memory inside a node, Gloo between one leader per node), side
by side in one run. Each "node" is a network namespace with its own host name, IPC namespace and /dev/shm (unshare
and a tmpfs, so shared memory cannot span the nodes); a veth pair joins them, shaped to 1 Gbit/s with tbf on both
ends (netem is not in every kernel). Bytes are the link's interface counters, both directions, for the whole job
(store and Gloo set-up included). Needs root for the namespaces; prints why it skipped otherwise.

    two_nodes.py WORKER PYTHON [CNN_STEPS] [AE_STEPS]
"""
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_stats import engine_rate  # noqa: E402

WARMUP = 10
GOAL = 0.6


def ip(*args):
    subprocess.run(["ip", *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


class Link:
    """Two namespaces joined by a shaped veth pair; removed on exit."""

    def __init__(self):
        tag = "%d" % os.getpid()
        self.ns = ["ddpb%sa" % tag, "ddpb%sb" % tag]
        self.dev = ["vb%sa" % tag, "vb%sb" % tag]
        self.addr = ["10.78.0.1", "10.78.0.2"]

    def __enter__(self):
        ip("netns", "add", self.ns[0])
        try:
            ip("netns", "add", self.ns[1])
            ip("link", "add", self.dev[0], "type", "veth", "peer", "name", self.dev[1])
            for i in (0, 1):
                ip("link", "set", self.dev[i], "netns", self.ns[i])
                ip("-n", self.ns[i], "addr", "add", self.addr[i] + "/24", "dev", self.dev[i])
                ip("-n", self.ns[i], "link", "set", self.dev[i], "up")
                ip("-n", self.ns[i], "link", "set", "lo", "up")
                subprocess.run(["ip", "netns", "exec", self.ns[i], "tc", "qdisc", "add", "dev", self.dev[i], "root",
                                "tbf", "rate", "1gbit", "burst", "256kb", "latency", "50ms"], check=True)
        except Exception:
            self.__exit__()
            raise
        return self

    def __exit__(self, *_):
        for ns in self.ns:
            subprocess.run(["ip", "netns", "del", ns], stderr=subprocess.DEVNULL)

    def bytes(self):
        total = 0
        for i in (0, 1):
            for way in ("tx_bytes", "rx_bytes"):
                out = subprocess.run(["ip", "netns", "exec", self.ns[i], "cat",
                                      "/sys/class/net/%s/statistics/%s" % (self.dev[i], way)],
                                     check=True, capture_output=True, text=True).stdout
                total += int(out)
        return total // 2  # each byte is counted once sent and once received


def job(link, worker, workload, batch, steps, extra, work, per_node=2):
    """One job of 2 nodes x per_node ranks; (bytes across the link, samples/s summed over ranks, the ranks'
    transport)."""
    port = random.randint(32000, 33000)
    store = "tcp://%s:%d" % (link.addr[0], port)
    before = link.bytes()
    procs, outs = [], []
    for node in (0, 1):
        ranks = []
        for local in range(per_node):
            rank = node * per_node + local
            out = os.path.join(work, "%s-%d-%s-%d.jsonl" % (workload, per_node, "-".join(extra) or "auto", rank))
            outs.append(out)
            cmd = [worker, "--workload", workload, "--batch-size", str(batch), "--steps", str(steps), "--threads",
                   "1", "--telemetry-ms", "0", "--rank", str(rank), "--world-size", str(2 * per_node),
                   "--local-rank", str(local), "--local-world-size", str(per_node), "--store", store, "--iface", link.dev[node], "--timeout",
                   "60", "--out", os.path.join(work, "out%d" % rank)] + extra
            ranks.append(" ".join("'%s'" % a for a in cmd) + " > '%s' 2> '%s.err' &" % (out, out))
        script = ("mount -t tmpfs ddpdesk-bench-shm /dev/shm && hostname bench-node%d && %s wait $! && "
                  "wait" % (node, " ".join(ranks)))
        procs.append(subprocess.Popen(["ip", "netns", "exec", link.ns[node], "unshare", "--mount", "--uts",
                                       "--ipc", "--propagation", "private", "sh", "-c", script]))
    for p in procs:
        if p.wait(timeout=600) != 0:
            raise SystemExit("a node failed; see %s" % work)
    crossed = link.bytes() - before
    transport = set()
    for out in outs:
        with open(out) as f:
            text = f.read()
        if '"event":"error"' in text.replace(" ", ""):
            raise SystemExit("a rank failed: %s" % out)
        for t in ("hierarchical", "shared_memory", "gloo"):
            if '"grad_transport":"%s"' % t in text.replace(" ", ""):
                transport.add(t)
                break
    return crossed, engine_rate(outs, WARMUP), ",".join(sorted(transport))


def main():
    worker, _python = sys.argv[1], sys.argv[2]
    cnn_steps = int(sys.argv[3]) if len(sys.argv) > 3 else 80
    ae_steps = int(sys.argv[4]) if len(sys.argv) > 4 else 200
    if os.geteuid() != 0:
        print("two nodes over a shaped link: skipped (needs root for network namespaces)")
        return
    with tempfile.TemporaryDirectory() as work, Link() as link:
        print("2 nodes, veth pair at 1 Gbit/s (tbf), 1 thread per rank; the floor for an exact sum is "
              "N/(2(N-1)) of flat Gloo's ring for N ranks")
        print("%-34s %14s %14s %8s %6s %12s %12s" % ("workload", "flat MB", "hierarchical MB", "ratio", "goal",
                                                   "flat s/s", "hier. s/s"))
        for workload, batch, steps, per_node in (("autoencoder", 50, ae_steps, 2), ("fashion-mnist", 64, cnn_steps, 2),
                                                 ("autoencoder", 50, ae_steps, 3)):
            flat = job(link, worker, workload, batch, steps, ["--grad-transport", "gloo"], work, per_node)
            hier = job(link, worker, workload, batch, steps, [], work, per_node)
            if hier[2] != "hierarchical":
                raise SystemExit("the default transport was %s, not hierarchical" % hier[2])
            name = "2x%d %s, %d steps, batch %d" % (per_node, "CNN" if workload == "fashion-mnist" else workload,
                                                   steps, batch)
            print("%-34s %14.1f %14.1f %8.2f %6s %12.0f %12.0f" % (name, flat[0] / 1e6, hier[0] / 1e6,
                                                                 hier[0] / flat[0], "<=%.1f" % GOAL, flat[1],
                                                                 hier[1]))


if __name__ == "__main__":
    main()
