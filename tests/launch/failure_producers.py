"""Makes real PyTorch fail the way users see it, so the failure table is tested against the texts PyTorch itself
prints, not against strings copied by hand.

Usage: python3 failure_producers.py CASE WORKDIR
Each case ends with PyTorch's own exception (traceback on stderr, exit code 1), except the *_trains_on cases, which
train on through a NaN loss and exit 0, as scripts without a check do. A case this torch cannot produce (e.g. use_libuv
on torch 1.x, which has no such option) prints "UNSUPPORTED: why" and exits with 77.
"""

import datetime
import os
import socket
import sys
import time

CASE, WORKDIR = sys.argv[1], sys.argv[2]
if CASE == "collective_mismatch":
    # Read once when torch.distributed is imported: the collective checks of the ProcessGroupWrapper.
    os.environ["TORCH_DISTRIBUTED_DEBUG"] = "DETAIL"

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402

SHORT = datetime.timedelta(seconds=2)


def unsupported(why):
    print("UNSUPPORTED: " + why)
    sys.exit(77)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def file_init(name):
    return "file://" + os.path.join(WORKDIR, name)


def nccl():
    # CPU-only builds (Debian's 1.13 and 2.6) have no NCCL, like every Windows build.
    dist.init_process_group("nccl", init_method=file_init("nccl-store"), rank=0, world_size=1)


def libuv():
    if "use_libuv" not in (dist.TCPStore.__init__.__doc__ or ""):
        unsupported("this torch's TCPStore has no use_libuv option")
    dist.TCPStore("127.0.0.1", free_port(), 1, True, timeout=SHORT, use_libuv=True)


def gloo_device():
    # A transport this Gloo has not registered fails as Windows torch 2.8/2.9 fails for everyone. Not UV: Debian's
    # 2.14 registers it (its Gloo is built with libuv), 1.13 and 2.6 do not; a name no Gloo knows fails everywhere.
    os.environ["GLOO_DEVICE_TRANSPORT"] = "NO_SUCH_TRANSPORT"
    dist.init_process_group("gloo", init_method=file_init("gloo-store"), rank=0, world_size=1)


def store_kwargs():
    # torch 2.x builds without libuv (Debian 13) refuse the libuv default; 1.x has no such option.
    return {"use_libuv": False} if "use_libuv" in (dist.TCPStore.__init__.__doc__ or "") else {}


def address_in_use():
    holder = socket.socket()
    holder.bind(("0.0.0.0", 0))
    holder.listen(1)
    dist.TCPStore("127.0.0.1", holder.getsockname()[1], 1, True, timeout=SHORT, **store_kwargs())


def gloo_unresolved():
    # A hostname that is no address of this machine (TEST-NET-3, RFC 5737) for Gloo to listen on.
    dist.ProcessGroupGloo.create_device(hostname="203.0.113.7")


def rank_missing():
    # Rank 0 of 2 waits at the rendezvous; rank 1 never comes. torch 2.x's TCPStore says "Timed out after N seconds
    # waiting for clients"; 1.x's init_process_group over tcp:// says "Socket Timeout".
    if "use_libuv" in (dist.TCPStore.__init__.__doc__ or ""):
        dist.TCPStore("127.0.0.1", free_port(), 2, True, timeout=SHORT, wait_for_workers=True, use_libuv=False)
    else:
        dist.init_process_group("gloo", init_method="tcp://127.0.0.1:%d" % free_port(), rank=0, world_size=2,
                                timeout=SHORT)


def socket_timeout():
    # A client whose master never started: PyTorch retries, then gives up with its socket timeout text.
    dist.TCPStore("127.0.0.1", free_port(), 2, False, timeout=SHORT, **store_kwargs())


def _peer_dies(rank, path):
    dist.init_process_group("gloo", init_method="file://" + path, rank=rank, world_size=2)
    dist.barrier()
    if rank == 1:
        os._exit(3)  # dies while rank 0 still needs it: a crash, an OOM kill, a closed laptop lid
    t = torch.ones(1 << 16)
    for _ in range(50):
        dist.all_reduce(t)


def peer_died():
    import multiprocessing as mp

    path = os.path.join(WORKDIR, "peer-store")
    ctx = mp.get_context("fork")
    child = ctx.Process(target=_peer_dies, args=(1, path))
    child.start()
    try:
        _peer_dies(0, path)
    finally:
        child.join()


def unused_parameters():
    class TwoHeads(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.used = torch.nn.Linear(4, 1)
            self.unused = torch.nn.Linear(4, 1)

        def forward(self, x):
            return self.used(x)

    dist.init_process_group("gloo", init_method=file_init("ddp-store"), rank=0, world_size=1)
    model = torch.nn.parallel.DistributedDataParallel(TwoHeads())
    for _ in range(2):
        model(torch.randn(2, 4)).sum().backward()


def _diverge(rank, path, how):
    dist.init_process_group("gloo", init_method="file://" + path, rank=rank, world_size=2,
                            timeout=datetime.timedelta(seconds=3))
    if how == "op":  # rank 0 reduces while rank 1 broadcasts
        t = torch.ones(4)
        dist.all_reduce(t) if rank == 0 else dist.broadcast(t, 0)
    else:  # the same collective with tensors of different sizes
        dist.all_reduce(torch.ones(4 if rank == 0 else 8))


def _two_ranks(target, *args):
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    child = ctx.Process(target=target, args=(1,) + args)
    child.start()
    try:
        target(0, *args)
    finally:
        child.join(timeout=20)
        if child.is_alive():
            child.kill()


def collective_mismatch():
    # TORCH_DISTRIBUTED_DEBUG=DETAIL (set above) compares the collectives' fingerprints first.
    _two_ranks(_diverge, os.path.join(WORKDIR, "mismatch-store"), "op")


def collective_timeout():
    # The same divergence without the debug checks: each rank waits for data the other never sends.
    _two_ranks(_diverge, os.path.join(WORKDIR, "timeout-store"), "op")


def shape_mismatch():
    # Gloo itself notices the size difference on one rank (an enforce, abort); the other sees the reset connection.
    _two_ranks(_diverge, os.path.join(WORKDIR, "shape-store"), "shape")


def cuda_unavailable():
    if torch.cuda.is_available():
        unsupported("this machine has CUDA")
    torch.zeros(1).to("cuda")


def cuda_set_device():
    if torch.cuda.is_available():
        unsupported("this machine has CUDA")
    torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))


def ddp_env_init(backend):
    # As a tutorial script does it, started per rank by ddpdesk-cli with the torchrun environment. USE_LIBUV=0 keeps
    # torch 2.x builds without libuv going whether or not the launcher set it.
    os.environ.setdefault("USE_LIBUV", "0")
    dist.init_process_group(backend, init_method="env://", timeout=datetime.timedelta(seconds=3))


def ddp_peer_hangs():
    # Rank 1 gets stuck (a data loader, a deadlock) and never joins the allreduce; rank 0 times out waiting for it.
    ddp_env_init("gloo")
    dist.barrier()
    if dist.get_rank() == 1:
        time.sleep(120)
    dist.all_reduce(torch.ones(4))


def ddp_nccl():
    ddp_env_init("nccl")


def nan_loss():
    # What anomaly mode (the usual way to find where a NaN comes from) raises.
    torch.autograd.set_detect_anomaly(True)
    w = torch.tensor([-1.0], requires_grad=True)
    torch.sqrt(w).sum().backward()


def train_into_nan(steps, each_step):
    # A loss that turns NaN from step 3 on while training goes on: nothing in the script checks it.
    w = torch.zeros(2, requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1)
    for step in range(steps):
        opt.zero_grad()
        loss = (w - 1.0).pow(2).sum() * (float("nan") if step >= 3 else 1.0)
        loss.backward()
        opt.step()
        each_step(step, loss)


def nan_printed_trains_on():
    # A script that prints its loss: the launcher's loss parser sees "nan".
    train_into_nan(6, lambda step, loss: print("step %d loss: %.4f" % (step, loss.item()), flush=True))


def nan_silent_trains_on():
    # The same without a print: only DDP Desk's instrumentation (the scalar backward() ran on) can see it. Steps of
    # 5 ms under 100 ms telemetry: the first event that carries the NaN reports a step well past 4, where it began.
    train_into_nan(60, lambda step, loss: time.sleep(0.005))


def torch_too_old():
    # A script written for a later release uses what this one lacks (torch.compile on 1.13); a name no release has
    # fails the same way everywhere.
    torch.ddpdesk_feature_of_a_later_release()


def backend_required():
    if int(torch.__version__.split(".")[0]) >= 2:
        unsupported("PyTorch 2.x picks a backend itself")
    dist.init_process_group(init_method=file_init("backend-store"), rank=0, world_size=1)


CASES = {
    "torch_too_old": torch_too_old,
    "backend_required": backend_required,
    "nccl": nccl,
    "libuv": libuv,
    "gloo_device": gloo_device,
    "address_in_use": address_in_use,
    "gloo_unresolved": gloo_unresolved,
    "rank_missing": rank_missing,
    "socket_timeout": socket_timeout,
    "peer_died": peer_died,
    "unused_parameters": unused_parameters,
    "collective_mismatch": collective_mismatch,
    "collective_timeout": collective_timeout,
    "shape_mismatch": shape_mismatch,
    "cuda_unavailable": cuda_unavailable,
    "cuda_set_device": cuda_set_device,
    "nan_loss": nan_loss,
    "nan_printed_trains_on": nan_printed_trains_on,
    "nan_silent_trains_on": nan_silent_trains_on,
    "ddp_peer_hangs": ddp_peer_hangs,
    "ddp_nccl": ddp_nccl,
}

if __name__ == "__main__":
    CASES[CASE]()
    print("NO FAILURE: case %s completed" % CASE)
    sys.exit(0)
