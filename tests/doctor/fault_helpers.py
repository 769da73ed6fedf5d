"""Creates rendezvous faults for real, for the doctor tests. Run with /usr/bin/python3 (torch only for ranks).

Each mode prints one line "ready <detail>" to stdout once the fault exists, then keeps it until killed.
  flock PATH                 hold an exclusive flock on PATH (FileStore takes flock per operation)
  bind                       bind a TCP port without listening;            prints "ready <port>"
  garbage                    listen and answer every connection with text; prints "ready <port>"
  silent                     listen and accept, never answer;              prints "ready <port>"
  backlog                    listen with a full accept queue (new SYNs are dropped); prints "ready <port>"
  trickle                    listen; on every connection send one zero byte every 1.5 s; prints "ready <port>"
  bigvalue                   a fake PyTorch 1.x TCPStore: every key exists and every GET announces a 16 MiB
                             value that never comes; prints "ready <port>"
  libuvstore                 a PyTorch 2.x store as its libuv backend behaves: a connection that starts with
                             VALIDATE (0 + uint32 0x3C85F7CE) is served (GETNUMKEYS=7, CHECK=5, GET=3; it holds
                             rank 0's 2.x Gloo key), any other first byte gets no reply and no close;
                             prints "ready <port>"
  agentstore                 the store torchrun's agent hosts for its ranks: a TCPStore with multi_tenant=True on
                             127.0.0.1, no rank of its own; prints "ready <port>"
  rank INIT_METHOD RANK WORLD  torch.distributed.init_process_group("gloo") then sleep ("ready" after init)
  storerank PATH RANK WORLD    the same over FileStore(PATH) as given: a relative PATH resolves against the cwd,
                               so the store's absolute path is on no command line
"""
import os
import socket
import sys
import time


def ready(detail=""):
    print("ready", detail, flush=True)


def serve_forever(srv, answer):
    while True:
        conn, _ = srv.accept()
        if answer:
            try:
                conn.recv(64)
                conn.sendall(answer)
            except OSError:
                pass
            conn.close()
        else:
            keep.append(conn)


keep = []
mode = sys.argv[1]
if mode == "flock":
    import fcntl
    f = open(sys.argv[2], "ab")
    fcntl.flock(f, fcntl.LOCK_EX)
    ready()
    time.sleep(3600)
elif mode in ("bind", "garbage", "silent", "backlog"):
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", 0))
    port = srv.getsockname()[1]
    if mode == "bind":
        ready(port)
        time.sleep(3600)
    if mode == "backlog":
        srv.listen(0)
        # Fill the accept queue (never accepted); Linux then drops further SYNs, like a firewall would.
        for _ in range(4):
            c = socket.socket()
            c.setblocking(False)
            c.connect_ex(("127.0.0.1", port))
            keep.append(c)
        time.sleep(0.3)
        ready(port)
        time.sleep(3600)
    srv.listen(8)
    ready(port)
    serve_forever(srv, b"HTTP/1.0 400 Bad Request\r\nContent-Length: 0\r\n\r\n" if mode == "garbage" else None)
elif mode in ("trickle", "bigvalue", "libuvstore"):
    import struct
    import threading

    def trickle(conn):
        # Each byte comes well within a per-read timeout, so only a deadline for the whole answer stops it.
        try:
            while True:
                conn.sendall(b"\0")
                time.sleep(1.5)
        except OSError:
            pass

    def read_exact(conn, n):
        data = b""
        while len(data) < n:
            chunk = conn.recv(n - len(data))
            if not chunk:
                raise OSError("closed")
            data += chunk
        return data

    def fake_store(conn):
        # c10d v1 wire format: query byte, strings as uint64 length + bytes (GETNUMKEYS=6 CHECK=4 GET=2).
        try:
            while True:
                query = read_exact(conn, 1)[0]
                if query == 6:
                    conn.sendall(struct.pack("<q", 3))
                elif query == 4:
                    for _ in range(struct.unpack("<Q", read_exact(conn, 8))[0]):
                        read_exact(conn, struct.unpack("<Q", read_exact(conn, 8))[0])
                    conn.sendall(b"\0")  # ready: the key exists
                elif query == 2:
                    read_exact(conn, struct.unpack("<Q", read_exact(conn, 8))[0])
                    conn.sendall(struct.pack("<Q", 16 << 20))  # ... and the 16 MiB never follow
                else:
                    return
        except OSError:
            pass

    # Rank 0's address record as PyTorch 2.x's Gloo writes it: hostname as uint64 length + bytes, then addresses.
    libuv_keys = {b"/default_pg/0//cpu//0/0": struct.pack("<Q", 2) + b"vm" + b"\0" * 16}

    def libuv_store(conn):
        try:
            if read_exact(conn, 1)[0] != 0 or struct.unpack("<I", read_exact(conn, 4))[0] != 0x3C85F7CE:
                while conn.recv(4096):  # a 1.x query: the libuv server neither answers nor closes
                    pass
                return
            while True:
                query = read_exact(conn, 1)[0]
                if query == 7:
                    conn.sendall(struct.pack("<q", len(libuv_keys) + 1))
                elif query == 5:
                    keys = [read_exact(conn, struct.unpack("<Q", read_exact(conn, 8))[0])
                            for _ in range(struct.unpack("<Q", read_exact(conn, 8))[0])]
                    conn.sendall(b"\0" if all(k in libuv_keys for k in keys) else b"\1")
                elif query == 3:
                    value = libuv_keys[read_exact(conn, struct.unpack("<Q", read_exact(conn, 8))[0])]
                    conn.sendall(struct.pack("<Q", len(value)) + value)
                else:
                    return
        except (OSError, KeyError):
            pass

    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", 0))
    srv.listen(16)
    ready(srv.getsockname()[1])
    while True:
        conn, _ = srv.accept()
        keep.append(conn)
        serve = {"trickle": trickle, "bigvalue": fake_store, "libuvstore": libuv_store}[mode]
        threading.Thread(target=serve, args=(conn,), daemon=True).start()
elif mode == "agentstore":
    import datetime
    import torch.distributed as dist
    kwargs = dict(is_master=True, wait_for_workers=False, multi_tenant=True, timeout=datetime.timedelta(seconds=300))
    # 2.4+ defaults to libuv, which Debian's 2.6 (like Windows wheels) lacks; 1.13 has no such option.
    if "use_libuv" in (dist.TCPStore.__init__.__doc__ or ""):
        kwargs["use_libuv"] = False
    store = dist.TCPStore("127.0.0.1", 0, **kwargs)
    ready(store.port)
    time.sleep(3600)
elif mode == "rank":
    import datetime
    import torch.distributed as dist
    init_method, rank, world = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    # PyTorch 2.4+ asks for a libuv TCPStore by default; builds without libuv (Debian's 2.6, Windows wheels) then
    # fail every env:// and tcp:// rank. Users set USE_LIBUV=0, as DDP Desk's launcher does for script runs.
    os.environ.setdefault("USE_LIBUV", "0")
    if os.environ.get("TORCHELASTIC_USE_AGENT_STORE") == "True" and "use_libuv" in (dist.TCPStore.__init__.__doc__ or ""):
        # torchrun's clients ask for libuv in 2.x whatever USE_LIBUV says; DDP Desk's instrumentation does this too.
        # (by importlib: torch.distributed.rendezvous as an attribute is the function of that name)
        import functools
        import importlib
        importlib.import_module("torch.distributed.rendezvous").TCPStore = functools.partial(dist.TCPStore,
                                                                                            use_libuv=False)
    print("starting rank", rank, flush=True)
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=120))
    ready("initialized")
    time.sleep(3600)
elif mode == "storerank":
    import datetime
    import torch.distributed as dist
    path, rank, world = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    print("starting rank", rank, flush=True)
    dist.init_process_group("gloo", store=dist.FileStore(path, world), rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=120))
    ready("initialized")
    time.sleep(3600)
else:
    sys.exit("unknown mode " + mode)
