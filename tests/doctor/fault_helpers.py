"""Creates rendezvous faults for real, for the doctor tests. Run with /usr/bin/python3 (torch only for ranks).

Each mode prints one line "ready <detail>" to stdout once the fault exists, then keeps it until killed.
  flock PATH                 hold an exclusive flock on PATH (FileStore takes flock per operation)
  bind                       bind a TCP port without listening;            prints "ready <port>"
  garbage                    listen and answer every connection with text; prints "ready <port>"
  silent                     listen and accept, never answer;              prints "ready <port>"
  backlog                    listen with a full accept queue (new SYNs are dropped); prints "ready <port>"
  rank INIT_METHOD RANK WORLD  torch.distributed.init_process_group("gloo") then sleep ("ready" after init)
"""
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
elif mode == "rank":
    import datetime
    import torch.distributed as dist
    init_method, rank, world = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    print("starting rank", rank, flush=True)
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=120))
    ready("initialized")
    time.sleep(3600)
else:
    sys.exit("unknown mode " + mode)
