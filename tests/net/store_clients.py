"""Real PyTorch clients for DDP Desk's TCPStore server (tests/net/test_tcp_store_server.cpp).

    store_clients.py ops HOST PORT          every store call a rendezvous makes, checked; prints "ops ok"
    store_clients.py waiter HOST PORT KEY   waits for KEY (set later by the test), prints its value
    store_clients.py rank HOST PORT RANK WORLD
        one rank of a gloo process group formed through env:// with TORCHELASTIC_USE_AGENT_STORE=True (as torchrun
        runs scripts): all_reduce of rank+1, prints "sum N"

Each call has a deadline (a broken server must fail the test, not hang it).
"""
import datetime
import os
import sys

import torch
import torch.distributed as dist

TIMEOUT = datetime.timedelta(seconds=30)


def client(host, port):
    try:  # PyTorch 2.4+ asks for libuv by default, which a client never needs and builds without it refuse
        return dist.TCPStore(host, int(port), 1, False, TIMEOUT, use_libuv=False)
    except TypeError:  # no such argument before 2.2
        return dist.TCPStore(host, int(port), 1, False, TIMEOUT)


def expect(what, got, want):
    if got != want:
        raise SystemExit(f"{what}: got {got!r}, want {want!r}")


def ops(host, port):
    s = client(host, port)
    s.set("alpha", "one")
    expect("get", s.get("alpha"), b"one")
    s.set("alpha", b"\x00\xffbinary")
    expect("overwrite", s.get("alpha"), b"\x00\xffbinary")
    expect("add new", s.add("counter", 3), 3)
    expect("add again", s.add("counter", -1), 2)
    expect("counter text", s.get("counter"), b"2")
    if hasattr(s, "check"):  # PyTorch 2.x's Python binding; 1.13's C++ check is not exposed
        expect("check present", s.check(["alpha", "counter"]), True)
        expect("check missing", s.check(["alpha", "nobody"]), False)
    s.wait(["alpha"])
    expect("compare_set match", s.compare_set("alpha", b"\x00\xffbinary", b"two"), b"two")
    expect("compare_set mismatch", s.compare_set("alpha", b"zzz", b"three"), b"two")
    expect("compare_set new", s.compare_set("fresh", b"", b"made"), b"made")
    keys = s.num_keys()
    expect("delete", s.delete_key("fresh"), True)
    expect("delete missing", s.delete_key("fresh"), False)
    expect("num_keys", s.num_keys(), keys - 1)
    if hasattr(s, "multi_get"):  # PyTorch 2.x
        s.multi_set(["m1", "m2"], ["x", "y"])
        expect("multi_get", s.multi_get(["m1", "m2"]), [b"x", b"y"])
        s.append("m1", "z")
        expect("append", s.get("m1"), b"xz")
    s.set_timeout(datetime.timedelta(milliseconds=500))
    try:
        s.wait(["never-set"])
        raise SystemExit("wait for a missing key returned")
    except RuntimeError as e:  # a timeout, not a dropped connection
        if "imeout" not in str(e) and "timed out" not in str(e):
            raise SystemExit(f"wait failed otherwise: {e}")
    s.set_timeout(TIMEOUT)
    s.set("after-timeout", "still served")
    expect("after timeout", s.get("after-timeout"), b"still served")
    print("ops ok", torch.__version__, flush=True)


def waiter(host, port, key):
    s = client(host, port)
    print("waiting", flush=True)
    print("value", s.get(key).decode(), flush=True)


def rank(host, port, rank, world):
    os.environ.update(MASTER_ADDR=host, MASTER_PORT=port, RANK=rank, WORLD_SIZE=world,
                      TORCHELASTIC_USE_AGENT_STORE="True", TORCHELASTIC_RESTART_COUNT="0")
    # What DDP Desk's launcher loads into a script run: the env:// clients' libuv fix
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "resources", "python"))
    import ddpdesk_instrument

    ddpdesk_instrument._classic_client_stores()
    dist.init_process_group("gloo", init_method="env://", timeout=TIMEOUT)
    t = torch.tensor([float(int(rank) + 1)])
    dist.all_reduce(t)
    dist.barrier()
    print("sum", int(t.item()), flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    {"ops": ops, "waiter": waiter, "rank": rank}[sys.argv[1]](*sys.argv[2:])
