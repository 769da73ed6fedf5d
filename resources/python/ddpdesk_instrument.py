"""DDP Desk's progress reporter for a user's own training script, loaded before it and changing nothing it computes.

    python PATH/TO/ddpdesk_instrument.py SCRIPT [ARGS...]

runs SCRIPT as `python SCRIPT ARGS` would (sys.argv, sys.path[0] and a fresh __main__ the same, symlinks resolved
as Python resolves them) after hooking three
places that every DDP script passes through, and prints the telemetry protocol's `step` events (one JSON line,
"source": "instrument") on stdout, where DDP Desk's launcher reads them:
  * each optimizer step (torch.optim.Optimizer.step) is a step;
  * the loss is the scalar that backward() was last called on (read only when an event is printed, so a CUDA loss
    costs one synchronisation per event, not per step);
  * samples are the batch sizes DistributedDataParallel.forward saw (its first tensor argument's first dimension);
  * the time waited in DDP's allreduce comes from DDP's own runtime statistics (the reducer times every backward
    pass: from the first bucket's allreduce to the last one's end, and how much of that overlapped the backward
    computation; the rest is the wait). No communication hook of ours: a Python hook makes PyTorch 1.13 and 2.6
    abort now and then at exit, DDP Desk or not. DDP samples iterations 1-10 and then every 100th; CPU models are
    sampled every iteration, or about once in 20 ms when iterations are shorter (_set_ddp_runtime_logging_sample_rate),
    GPU models keep the default, since each sample reads CUDA events (_CommWait; $DDPDESK_INSTRUMENT_SAMPLE_RATE
    sets it).
Events are throttled to one per 100 ms ($DDPDESK_INSTRUMENT_MS), and the last step is always reported at exit.
It also keeps env:// clients of the store DDP Desk hosts off libuv (_classic_client_stores) and dumps every thread's
stack when asked (_stacks_on_request: "where does it hang?"). Works with PyTorch
1.13 and 2.x. Written to the run folder by the launcher; DDP Desk's own file, started by its path rather than with
`-m`, so that a ddpdesk_instrument.py of the user's (in the folder the ranks start in) cannot stand in for it.
"""
import atexit
import builtins
import json
import math
import os
import runpy
import sys
import threading
import time
import types
import weakref

_lock = threading.Lock()
# pending: the batch sizes of this iteration's training forwards (what counts when no DataLoader feeds the script);
# loader_pending: what the script's DataLoaders yielded since the last DDP forward; loader_train: the part of it that
# went into training forwards this iteration (a validation pass's batches go into no_grad/eval forwards and are
# dropped).
_state = {"step": 0, "samples": 0, "pending": 0, "loss": None, "loss_acc": None, "last_emit": 0.0, "emitted": 0,
          "loader_pending": 0, "loader_train": 0, "losses": None,
          "t_step": None, "step_ms": 0.0, "n_ms": 0, "in_backward": 0, "eval_ms": 0.0,
          # torch.save: the time of the saves since the last step (added to the step's at the next one), and in all
          "save_window_ms": 0.0, "save_ms": 0.0, "saves": 0, "save_total_ms": 0.0, "last_save_event": 0.0,
          # perf_counter when the latest training work ended (a backward, an optimizer step, a save): where a
          # validation pass after it begins
          "t_trained": None,
          # forward start to backward end, summed over a step's micro-batches: the rest of a step is the script's
          # data loading, optimizer and own code (data_ms, what tells a slow input pipeline from slow compute)
          "t_forward": None, "model_ms": 0.0, "step_model_ms": 0.0,
          # (step, loss) of each step since the last event, unread: only when an event finds its loss not finite
          # are they read, to name the step where it began (one synchronisation then, none per step)
          "recent": []}
_RECENT_MAX = 4096
_interval = float(os.environ.get("DDPDESK_INSTRUMENT_MS", "100")) / 1000.0
_rank = int(os.environ.get("RANK", "0") or 0)
_out = sys.stdout
# The rank's own process. A DataLoader worker (or any child the script forks) inherits this module with the
# rank's counts and would report its stale copy when it exits (os._exit is wrapped below): only the rank speaks.
# A child made by spawn or forkserver starts a fresh interpreter that never runs this module.
_owner = os.getpid()


def _is_rank():
    return os.getpid() == _owner


def _has_room():
    """Whether a line written to stdout now goes through without waiting: a launcher that stops reading (its GUI
    hangs, its machine swaps) fills the pipe, and the training loop must not wait for it. Not measurable on
    Windows (select takes sockets only): there, as when stdout is no pipe, a write is taken to fit."""
    try:
        import select
        return bool(select.select([], [_out.fileno()], [], 0)[1])
    except Exception:
        return True


def _emit(force=False):
    if not _is_rank():
        return
    now = time.time()
    if not force and now - _state["last_emit"] < _interval:
        return
    steps = _state["step"] - _state["emitted"]
    if steps <= 0:
        return
    if not force and not _has_room():  # the next event covers these steps too: nothing is lost but detail
        return
    loss = _state["loss"]
    value, nonfinite = None, None
    if loss is not None:
        try:
            value = float(loss)
            if value != value or value in (float("inf"), float("-inf")):
                # JSON has no NaN: the loss is null and says why, so the launcher can diagnose NAN_LOSS.
                nonfinite = "nan" if value != value else ("inf" if value > 0 else "-inf")
                value = None
        except Exception:  # a loss that cannot be read (freed storage) is simply not reported
            value = None
    # The time of the step it reports, not of the report: the last one is sent at exit, after the script's own
    # teardown (joining DataLoader workers, destroying the process group), which is no training time.
    event = {"v": 1, "event": "step", "rank": _rank, "t": _state.get("t_wall") or now, "step": _state["step"],
             "loss": value,
             "samples": _state["samples"], "source": "instrument"}
    if not _state.get("ddp_seen"):  # no DDP forward yet: each rank trains alone (telemetry_fields.h NoDdp)
        event["no_ddp"] = True
    if nonfinite:
        event["loss_nonfinite"] = nonfinite
        first = _first_nonfinite_step()
        if first is not None:
            event["loss_nonfinite_step"] = first
    _state["recent"] = []
    if _state["losses"]:  # several optimizers (a GAN): each one's loss, named by the model it trains
        event["losses"] = {name: _plain(loss) for name, loss in _state["losses"]}
    # DDP's statistics are read here, once per event: a read costs about 0.1 ms inside a training loop, which
    # every step would pay otherwise. Not at exit and not inside backward (an optimizer stepped from a comm hook):
    # the read takes the reducer's lock, which a backward in progress may hold.
    waited = _comm_wait.wait_since_last_ms(read=not force and not _state["in_backward"])
    if _state["n_ms"]:
        event["step_ms"] = _state["step_ms"] / _state["n_ms"]
        # Validation passes and checkpoint saves between these steps: neither training nor data loading.
        aside = _state["eval_ms"] + _state["save_ms"]
        event["data_ms"] = max(0.0, _state["step_ms"] - _state["model_ms"] - aside) / _state["n_ms"]
        if _state["eval_ms"] > 0:
            event["eval_ms"] = _state["eval_ms"] / _state["n_ms"]
        if _state["save_ms"] > 0:
            event["save_ms"] = _state["save_ms"] / _state["n_ms"]
        if waited is not None:
            event["comm_wait_ms"] = waited / steps
        _state["eval_ms"] = _state["save_ms"] = 0.0
    _state["step_ms"], _state["n_ms"], _state["model_ms"] = 0.0, 0, 0.0
    _state["last_emit"] = now
    _state["emitted"] = _state["step"]
    _write(event)


def _write(event):
    try:
        _out.write(json.dumps(event) + "\n")
        _out.flush()
    except Exception:  # a closed stdout must not break the user's training
        pass


def _first_nonfinite_step():
    """The first step since the last event whose loss was NaN or infinite, or None when that cannot be read."""
    try:
        import torch
        recent = [(step, loss) for step, loss in _state["recent"] if isinstance(loss, torch.Tensor)]
        if not recent:
            return None
        values = torch.stack([loss.detach().reshape(-1)[0].float() for _, loss in recent])
        bad = (~torch.isfinite(values)).nonzero()
        return int(recent[int(bad[0][0])][0]) if bad.numel() else None
    except Exception:  # tensors on different devices, freed storage: the event's own step stands
        return None


def _plain(loss):
    try:
        value = float(loss)
        return value if value == value and value not in (float("inf"), float("-inf")) else None
    except Exception:
        return None


class _Iterations:
    """One step is one iteration of the training loop, however many optimizers it steps (a GAN steps a critic's and
    a generator's). An iteration begins at an optimizer step when that optimizer already stepped in the current one
    (or none did yet): a critic and a generator stepped in turn make one step a turn; a critic stepped on five
    batches for each generator step makes five, as the script's loop over its batches does; an optimizer that steps
    now and then, or a second phase with another optimizer, never holds the count back. Each optimizer's loss is
    the sum of the backward scalars since the step before it."""

    def __init__(self):
        self.counts = {}  # id(optimizer) -> [order, name, latest loss]
        self.current = set()  # the optimizers that stepped in the current iteration

    def stepped(self, opt):
        key = id(opt)
        entry = self.counts.get(key)
        if entry is None:
            entry = self.counts[key] = [len(self.counts), _model_name(opt, len(self.counts)), None]
        if _state["loss_acc"] is not None:
            entry[2], _state["loss_acc"] = _state["loss_acc"], None
        began = not self.current or key in self.current
        if began:
            self.current = {key}
        else:
            self.current.add(key)
        ordered = sorted(self.counts.values(), key=lambda e: e[0])
        if len(ordered) > 1:
            _state["losses"] = [(e[1], e[2]) for e in ordered if e[2] is not None]
        if ordered[0][2] is not None:
            _state["loss"] = ordered[0][2]
        return 1 if began else 0


_iterations = _Iterations()


class _Validation:
    """A validation pass: DDP forwards under no_grad or in eval() with no training between them (the usual
    `model.eval(); with torch.no_grad(): for x, y in val_loader: ...`). Its time is not training time (the step
    event's eval_ms, which data_ms leaves out) and its batches are not training samples; the launcher shows the
    rank evaluating from its `eval` events (begin, running at most once a second, end; each with the rank's
    totals, so a dropped one loses nothing). A pass is two such forwards in a row: the one no-grad forward inside
    a training iteration (a GAN's generator making fakes) is none, and costs one comparison."""

    RUNNING_S = 1.0

    def __init__(self):
        self.window_ms = 0.0  # passes ended since the last step
        self.total_ms = 0.0  # every pass that ended
        self.passes = 0
        self._reset()

    def _reset(self):
        self.t0 = None  # perf_counter at the first forward of the pass (or of a would-be pass)
        self.last_end = 0.0
        self.forwards = 0
        self.samples = 0
        self.last_running = 0.0

    def forward_starts(self):
        # A pass begins when the training before it ended (its last backward, optimizer step or save): loading
        # its first batch is the pass's time too.
        if self.t0 is None:
            self.t0 = _state["t_trained"] or time.perf_counter()

    def forward_ends(self, samples):
        self.last_end = time.perf_counter()
        self.forwards += 1
        self.samples += samples
        if self.forwards == 2:
            self.passes += 1
            self.last_running = self.last_end
            self._event("begin")
        elif self.forwards > 2 and self.last_end - self.last_running >= self.RUNNING_S:
            self.last_running = self.last_end
            self._event("running")

    def discard(self):
        """A backward after them: those forwards trained (a model kept in eval() to freeze its batch norms). Their
        batches are training samples, and a pass they seemed to begin is taken back."""
        _state["pending"] += self.samples
        if self.forwards >= 2:
            self.passes -= 1
            self.t0 = None
            self._event("end")
        self._reset()

    def close(self, force=False):
        """Training resumed (a training forward, an optimizer step), or the script ends."""
        if self.t0 is None:
            return
        if self.forwards >= 2:
            ms = (self.last_end - self.t0) * 1000.0
            self.window_ms += ms
            self.total_ms += ms
            self._event("end", force=force)
        self._reset()

    def _event(self, state, force=False):
        if not _is_rank() or (not force and not _has_room()):  # the next one carries the totals too
            return
        now_ms = (self.last_end - self.t0) * 1000.0 if self.t0 is not None else 0.0
        running = state != "end"
        _write({"v": 1, "event": "eval", "rank": _rank, "t": time.time(), "state": state,
                "step": _state["step"], "samples": self.samples, "eval_ms": now_ms,
                "eval_total_ms": self.total_ms + (now_ms if running else 0.0), "passes": self.passes,
                "source": "instrument"})


_validation = _Validation()


def _model_name(opt, order):
    """The class of the DDP model whose parameters the optimizer trains ("Generator"), else "optimizer N"."""
    try:
        first = opt.param_groups[0]["params"][0]
        for ddp in list(_comm_wait.models.keys()):
            if any(p is first for p in ddp.parameters()):
                return type(getattr(ddp, "module", ddp)).__name__
    except Exception:
        pass
    return f"optimizer {order + 1}"


def _on_optimizer_step(opt):
    if not _is_rank():
        return
    if _validation.t0 is not None:
        _validation.close()
    with _lock:
        iterations = _iterations.stepped(opt)
    if iterations > 0:
        _on_step(iterations)
    _state["t_trained"] = time.perf_counter()


def _on_step(iterations=1):
    if not _is_rank():
        return
    with _lock:
        now = time.perf_counter()
        if _state["t_step"] is not None:
            _state["step_ms"] += (now - _state["t_step"]) * 1000.0
            _state["n_ms"] += 1
            _state["model_ms"] += _state["step_model_ms"]
        _state["step_model_ms"] = 0.0
        # The passes that ended before this step lie between its steps; one after the last step lies in none.
        _state["eval_ms"] += _validation.window_ms
        _state["save_ms"] += _state["save_window_ms"]
        _validation.window_ms = _state["save_window_ms"] = 0.0
        _state["t_step"] = now
        _state["t_wall"] = time.time()
        _state["step"] += iterations
        if _state["loss"] is not None and len(_state["recent"]) < _RECENT_MAX:
            _state["recent"].append((_state["step"], _state["loss"]))
        # Training samples: the DataLoader batches that went into training forwards, else those forwards' batches.
        _state["samples"] += _state["loader_train"] or _state["pending"]
        _state["pending"] = _state["loader_train"] = 0
        _emit()


def _first_batch_size(args, kwargs):
    import torch
    if args and isinstance(args[0], torch.Tensor):  # the usual model(batch), without building the search list
        return int(args[0].shape[0]) if args[0].dim() > 0 else 1
    for value in list(args) + list(kwargs.values()):
        if isinstance(value, torch.Tensor):
            return int(value.shape[0]) if value.dim() > 0 else 1
        if isinstance(value, (list, tuple)) and value and isinstance(value[0], torch.Tensor):
            return int(value[0].shape[0]) if value[0].dim() > 0 else 1
        if isinstance(value, dict):
            for v in value.values():
                if isinstance(v, torch.Tensor) and v.dim() > 0:
                    return int(v.shape[0])
    return 0


def _install():
    import torch
    from torch.nn.parallel import DistributedDataParallel

    backward = torch.Tensor.backward

    def counted_backward(self, *args, **kwargs):
        ddp = _collectives.take_sync()  # a DDP forward that syncs: this backward allreduces its gradients
        if ddp is not None:
            _collectives.enter("allreduce", _collectives.gradient_bytes(ddp), "DDP gradients",
                               _collectives.gradient_facts(ddp))
            done = False
            try:
                result = _backward(self, *args, **kwargs)
                done = True
                return result
            finally:
                _collectives.leave(done)
        return _backward(self, *args, **kwargs)

    def _backward(self, *args, **kwargs):
        # The step's loss is the sum of the scalars backward ran on since the last optimizer step: a script that
        # accumulates ((loss / 4).backward() four times) reports their sum, as it would itself (no sync: a
        # tensor sum).
        if _validation.t0 is not None:
            _validation.discard()
        if self.numel() == 1:
            acc = _state["loss_acc"]
            _state["loss_acc"] = self.detach() if acc is None else acc + self.detach()
        _state["in_backward"] += 1
        try:
            return backward(self, *args, **kwargs)
        finally:
            _state["in_backward"] -= 1
            started = _state["t_forward"]
            now = time.perf_counter()
            _state["t_trained"] = now
            if started is not None and not _state["in_backward"]:
                _state["step_model_ms"] += (now - started) * 1000.0
                _state["t_forward"] = None

    torch.Tensor.backward = counted_backward

    forward = DistributedDataParallel.forward

    def counted_forward(self, *args, **kwargs):
        _state["ddp_seen"] = True
        grad = torch.is_grad_enabled()
        if not (grad and self.training):  # under no_grad or in eval(): validation, not training
            _state["loader_pending"] = 0
            if not _is_rank():
                return forward(self, *args, **kwargs)
            if grad:  # eval() with grad: a backward may yet make it training (a model kept in eval())
                if _state["t_forward"] is None:
                    _state["t_forward"] = time.perf_counter()
                if getattr(self, "require_backward_grad_sync", True):  # DDP syncs on grad, not on training
                    _comm_wait.syncing_forward(self)
                    _collectives.syncing_forward(self)
            _validation.forward_starts()
            result = forward(self, *args, **kwargs)
            _validation.forward_ends(_first_batch_size(args, kwargs))
            return result
        if _validation.t0 is not None:
            _validation.close()
        _state["pending"] += _first_batch_size(args, kwargs)
        _state["loader_train"] += _state["loader_pending"]
        _state["loader_pending"] = 0
        if _state["t_forward"] is None:
            _state["t_forward"] = time.perf_counter()
        if getattr(self, "require_backward_grad_sync", True):
            _comm_wait.syncing_forward(self)  # this iteration's backward will allreduce
            _collectives.syncing_forward(self)
        return forward(self, *args, **kwargs)

    DistributedDataParallel.forward = counted_forward

    # Each optimizer's step is wrapped as a bound method, so LR schedulers (which wrap it again and read __self__ /
    # __func__) keep working. Not PyTorch 2.x's global post-hook: it runs for every class whose step was called,
    # so a subclass's step that calls super().step() would count twice.
    init = torch.optim.Optimizer.__init__

    def hooked_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        step = type(self).step

        def counted_step(opt, *a, **k):
            result = step(opt, *a, **k)
            _on_optimizer_step(opt)
            return result

        self.step = types.MethodType(counted_step, self)

    torch.optim.Optimizer.__init__ = hooked_init

    # A checkpoint is what torch.save writes: its time is not training time (the others may wait for it), and the
    # launcher names a rank that saves while the others wait. An event at most once a second (a script saving
    # small things every step must not double its events) unless the save took 0.1 s or more; each with the
    # rank's totals, so one skipped loses nothing.
    save = torch.save

    def timed_save(obj, f, *args, **kwargs):
        if not _is_rank():
            return save(obj, f, *args, **kwargs)
        started = time.perf_counter()
        try:
            return save(obj, f, *args, **kwargs)
        finally:
            try:  # nothing of ours may replace what the save returned or raised
                _saved((time.perf_counter() - started) * 1000.0, f)
            except Exception:
                pass

    def _saved(ms, f):
        _state["t_trained"] = time.perf_counter()
        _state["save_window_ms"] += ms
        _state["saves"] += 1
        _state["save_total_ms"] += ms
        now = time.time()
        if (ms >= 100.0 or now - _state["last_save_event"] >= 1.0) and _has_room():
            _state["last_save_event"] = now
            path = f if isinstance(f, str) else (str(f) if isinstance(f, os.PathLike) else "")
            _write({"v": 1, "event": "checkpoint", "rank": _rank, "t": now, "step": _state["step"], "path": path,
                    "elapsed_ms": ms, "saves": _state["saves"], "save_total_ms": _state["save_total_ms"],
                    "source": "instrument"})

    torch.save = timed_save

    # The samples the script's DataLoaders yield: what a training iteration consumed, counted once however many
    # forward passes it makes of them (a GAN's critic sees a batch twice).
    from torch.utils.data import dataloader

    loader_next = dataloader._BaseDataLoaderIter.__next__

    def counted_next(self):
        batch = loader_next(self)
        if _is_rank():
            _state["loader_pending"] += _first_batch_size((batch,), {})
        return batch

    dataloader._BaseDataLoaderIter.__next__ = counted_next
    _collectives.start(os.environ.get("DDPDESK_COLLECTIVES_FILE"))
    if _collectives.file is not None:
        _FlightRecorder().start()


class _Collectives:
    """Live collective progress (the contract: core/protocol/collective_progress.h): how many collectives this
    rank has entered and completed and what the latest one is, rewritten in place in $DDPDESK_COLLECTIVES_FILE on
    entering and leaving each, so the launcher can name the rank the others wait for while they wait. Counted:
    DDP's gradient allreduce (one per backward after a forward that syncs) and the torch.distributed collectives
    the script calls itself (one that is made of others, like all_gather_object, counts once)."""

    RECORD_BYTES = 512
    # The last collectives after the record (core/protocol/collective_history.h): a ring of fixed-size entries,
    # collective n in slot (n - 1) % HISTORY, written when it starts and again when it ends.
    HISTORY = 64
    ENTRY_BYTES = 384
    WRAPPED = ("all_reduce", "broadcast", "all_gather", "all_gather_into_tensor", "reduce_scatter",
               "reduce_scatter_tensor", "reduce", "gather", "scatter", "all_to_all", "all_to_all_single", "barrier",
               "all_gather_object", "broadcast_object_list", "gather_object", "scatter_object_list")

    def __init__(self):
        self.file = None
        self.lock = threading.Lock()
        self.entered = self.completed = self.depth = 0
        self.kind, self.bytes, self.detail, self.t = "", 0, "", 0.0
        self.pending = None  # the DDP model whose forward will allreduce in the next backward
        self.sizes = weakref.WeakKeyDictionary()
        self.entry = None  # the latest collective's history entry
        self.map = None  # the record file, mapped

    def start(self, path):
        if not path:
            return
        self.file = open(path, "w+b", buffering=0)
        # Mapped: rewriting the record and an entry is a copy into memory the launcher reads through the file, no
        # system call per collective (a write each cost ~10 us, several per step). Without a mapping (a
        # filesystem that has none), each is a seek and a write.
        try:
            import mmap

            self.file.truncate(self.RECORD_BYTES + self.HISTORY * self.ENTRY_BYTES)
            self.map = mmap.mmap(self.file.fileno(), self.RECORD_BYTES + self.HISTORY * self.ENTRY_BYTES)
        except Exception:
            self.map = None
        self._write()
        import torch.distributed as dist
        from torch.distributed import distributed_c10d as c10d

        for name in self.WRAPPED:
            original = getattr(c10d, name, None)
            if original is None:
                continue
            wrapped = self._counting(name, original)
            setattr(c10d, name, wrapped)
            if getattr(dist, name, None) is original:
                setattr(dist, name, wrapped)

    def _counting(self, name, original):
        import functools

        @functools.wraps(original)
        def counted(*args, **kwargs):
            first = args[0] if args else None
            self.enter(name, _payload_bytes(first), "", _tensor_facts(first), _group_name(kwargs.get("group")))
            done = False
            try:
                result = original(*args, **kwargs)
                done = True
                return result
            finally:
                self.leave(done)

        return counted

    def syncing_forward(self, ddp):
        self.pending = ddp

    def take_sync(self):
        ddp, self.pending = self.pending, None
        return ddp

    def gradient_facts(self, ddp):
        for p in ddp.parameters():
            if p.requires_grad:
                return str(p.dtype).replace("torch.", ""), ""  # DDP's buckets: no one shape
        return "", ""

    def gradient_bytes(self, ddp):
        size = self.sizes.get(ddp)
        if size is None:
            size = self.sizes[ddp] = sum(p.numel() * p.element_size() for p in ddp.parameters() if p.requires_grad)
        return size

    def enter(self, kind, nbytes, detail="", facts=("", ""), group="default"):
        with self.lock:
            self.depth += 1
            if self.depth > 1:
                return
            self.entered += 1
            self.kind, self.bytes, self.detail, self.t = kind, int(nbytes), detail, time.time()
            if self.file is None:  # no record to keep (no launcher asked, or the disk is full)
                return
            # One write per start and per end: the entry is the live count too (the launcher reads the newest
            # entry's number as entered, and completed by its state: protocol/collective_history.h), so the
            # record itself is rewritten only for the Flight Recorder's counts.
            self.entry = {"seq": self.entered, "op": kind, "bytes": int(nbytes), "dtype": facts[0],
                          "shape": facts[1], "group": group, "state": "started", "t0": self.t,
                          "site": _call_site(), "detail": detail}
            self._write_entry()

    def leave(self, done=True):
        """done: it returned. One that raised (a peer gone, a timeout) stays "started" in its entry: it never
        completed, and the launcher's record of the rank's last collectives says so."""
        with self.lock:
            self.depth -= 1
            if self.depth:
                return
            self.completed += 1
            if done and self.entry is not None and self.file is not None:
                self.entry["state"], self.entry["t1"] = "completed", time.time()
                self._write_entry()

    def flight(self, view):
        with self.lock:
            self.fr = view
            self._write()

    def _write(self):
        if self.file is None or not _is_rank():  # a forked child never rewrites the rank's record
            return
        # Formatted by hand (the strings' JSON is remembered): this runs twice per collective, inside the step.
        fr = getattr(self, "fr", None)
        record = '{"pid": %d, "entered": %d, "completed": %d, "kind": %s, "bytes": %d, "detail": %s, "t": %r%s}' % (
            _owner, self.entered, self.completed, _json_text(self.kind), self.bytes, _json_text(self.detail),
            self.t, ", " + json.dumps(fr)[1:-1] if fr else "")
        self._put(0, record.encode()[:self.RECORD_BYTES - 1].ljust(self.RECORD_BYTES - 1) + b"\n")

    def _put(self, offset, data):
        try:
            if self.map is not None:
                self.map[offset:offset + len(data)] = data
            else:
                self.file.seek(offset)
                self.file.write(data)
        except Exception:  # a full disk must not break the user's training; the launcher just learns less
            self.file = None

    def _write_entry(self):
        """The latest collective's slot: its fields are formatted once when it starts (entry_head), and its end
        only appends the state and the time."""
        if self.file is None or not _is_rank():
            return
        entry = self.entry
        if "head" not in entry:
            head = _entry_head(entry)
            if len(head) >= self.ENTRY_BYTES - 64:  # a long path or shape: the site keeps its end (the line)
                head = _entry_head(dict(entry, shape=entry["shape"][:48], site="..." + entry["site"][-120:]))
            if len(head) >= self.ENTRY_BYTES - 64:  # still too long (escapes): the count and the op, at least
                head = _entry_head(dict(entry, dtype="", shape="", group="", site="", detail=""))
            entry["head"] = head
        if entry["state"] == "started":
            text = entry["head"] + ', "state": "started"}'
        else:
            text = entry["head"] + ', "state": "completed", "t1": %r}' % entry["t1"]
        self._put(self.RECORD_BYTES + (entry["seq"] - 1) % self.HISTORY * self.ENTRY_BYTES,
                  text.encode().ljust(self.ENTRY_BYTES - 1) + b"\n")


_json_texts = {}


def _json_text(value):
    """A string as JSON, remembered: a rank's collectives repeat the same few names and call sites."""
    text = _json_texts.get(value)
    if text is None:
        if len(_json_texts) > 4096:
            _json_texts.clear()
        text = _json_texts[value] = json.dumps(value)
    return text


def _entry_head(e):
    """An entry of the last collectives (core/protocol/collective_history.h) up to its state, formatted by hand."""
    return ('{"seq": %d, "op": %s, "bytes": %d, "dtype": %s, "shape": %s, "group": %s, "t0": %r, "site": %s, '
            '"detail": %s' % (e["seq"], _json_text(e["op"]), e["bytes"], _json_text(e["dtype"]),
                              _json_text(e["shape"]), _json_text(e["group"]), e["t0"], _json_text(e["site"]),
                              _json_text(e["detail"])))


def _tensor_facts(value):
    """(dtype, shape) of a collective's first tensor as PyTorch prints them ("float32", "64x3x3")."""
    import torch

    if isinstance(value, (list, tuple)) and value:
        value = value[0]
    if isinstance(value, torch.Tensor):
        return str(value.dtype).replace("torch.", ""), "x".join(str(n) for n in value.shape)
    return "", ""


def _group_name(group):
    if group is None:
        return "default"
    try:
        return "a group of %d" % group.size()
    except Exception:
        return "a group"


_THIS_FILE = os.path.normcase(os.path.abspath(globals().get("__file__", "<ddpdesk>")))
_torch_dir = []  # torch's package folder, once known: frames inside it are the library's, not the script's


def _inside_torch(path):
    if not _torch_dir:
        torch = sys.modules.get("torch")
        if torch is None or not getattr(torch, "__file__", None):
            return False
        _torch_dir.append(os.path.normcase(os.path.dirname(os.path.abspath(torch.__file__))) + os.sep)
    return path.startswith(_torch_dir[0])


_site_files = {}  # a code object's file name -> its base name when it is the script's, "" when not


def _site_file(name):
    shown = _site_files.get(name)
    if shown is None:
        path = os.path.normcase(os.path.abspath(name)) if not name.startswith("<") else name
        mine = path != _THIS_FILE and not name.startswith("<") and not _inside_torch(path)
        # The file's name, as the launcher names a rank's place from its stack (file.py:line in function).
        shown = os.path.basename(name) if mine else ""
        if _torch_dir or not mine:  # torch's folder not known yet: ask again next time
            _site_files[name] = shown
    return shown


def _call_site():
    """The script's own line that reached this collective: the first frame outside this module and torch."""
    frame = sys._getframe(2)
    while frame is not None:
        shown = _site_file(frame.f_code.co_filename)
        if shown:
            return "%s:%d" % (shown, frame.f_lineno)
        frame = frame.f_back
    return ""


def _payload_bytes(value):
    import torch

    if isinstance(value, torch.Tensor):
        return value.numel() * value.element_size()
    if isinstance(value, (list, tuple)):
        return sum(v.numel() * v.element_size() for v in value if isinstance(v, torch.Tensor))
    return 0


_collectives = _Collectives()


class _FlightRecorder:
    """PyTorch's Flight Recorder (2.x where torch._C._distributed_c10d has _dump_fr_trace_json; on by default,
    TORCH_FR_BUFFER_SIZE=0 turns it off) counts every collective of a process group, those reached past
    torch.distributed's functions too (ProcessGroup.allreduce, DDP's own broadcasts), which _Collectives cannot
    see. A daemon thread reads the default group's counts twice a second (the rank's main thread may be blocked
    in a collective, with the GIL released) and adds them to the collective record as fr_*. For Gloo an entry
    stays 'scheduled'; pg_status's last_enqueued / last_completed_collective say what is pending. Only the
    small status is read each time (6 us), the entries only for a collective still pending at the next look (its
    kind and size)."""

    DTYPE_BYTES = {"Float": 4, "Double": 8, "Half": 2, "BFloat16": 2, "Long": 8, "Int": 4, "Short": 2, "Char": 1,
                   "Byte": 1, "Bool": 1, "ComplexFloat": 8, "ComplexDouble": 16}

    def start(self):
        import torch

        self.dump = getattr(torch._C._distributed_c10d, "_dump_fr_trace_json", None)
        if self.dump is None or os.environ.get("TORCH_FR_BUFFER_SIZE", "").strip() == "0":
            return
        self.seen = (None, None, None)
        self.pending = (None, "", 0, 0.0)  # sequence number, kind, bytes, when first seen pending
        threading.Thread(target=self._poll, name="ddpdesk-flight-recorder", daemon=True).start()

    def _poll(self):
        sleep = time.sleep  # ours, whatever the script patches later
        while True:
            sleep(0.5)
            try:
                self._read()
            except Exception:  # no process group yet, or gone: the next look tells
                pass

    def _read(self):
        status = json.loads(self.dump(includeCollectives=False, onlyActive=None)).get("pg_status", {}).get("0")
        if not status:
            return
        entered = max(0, int(status.get("last_enqueued_collective", 0)))
        completed = max(0, min(int(status.get("last_completed_collective", 0)), entered))
        seq, kind, nbytes, t = self.pending
        if entered > completed and seq != entered:
            seq, kind, nbytes, t = entered, "", 0, time.time()
        elif entered > completed and not kind and t < time.time() - 0.4:
            # Still pending at the next look: worth reading the entries (about 0.1 s for a full buffer of 2000,
            # so never for the collectives a training step passes through in milliseconds).
            kind, nbytes = self._describe(entered)
            kind = kind or "collective"  # not in the buffer (another group's, or p2p): read once
        self.pending = (seq, kind, nbytes, t)
        if (entered, completed, kind) == self.seen:
            return
        self.seen = (entered, completed, kind)
        _collectives.flight({"fr_entered": entered, "fr_completed": completed, "fr_kind": kind, "fr_bytes": nbytes,
                             "fr_t": t})

    def _describe(self, seq):
        entries = json.loads(self.dump(includeCollectives=True, onlyActive=None)).get("entries", [])
        for e in reversed(entries):
            group = e.get("process_group") or [None]
            if e.get("collective_seq_id") == seq and str(group[0]) == "0" and not e.get("is_p2p"):
                kind = str(e.get("profiling_name", "")).split(":")[-1].replace("_", "")
                nbytes = 0
                for size, dtype in zip(e.get("input_sizes") or [], e.get("input_dtypes") or []):
                    nbytes += math.prod(size) * self.DTYPE_BYTES.get(dtype, 0)
                return kind, nbytes
        return "", 0


class _CommWait:
    """The time each optimizer step waited for DDP's allreduce, from the statistics DDP's reducer keeps of its own
    (DistributedDataParallel._get_ddp_logging_data, read once per event). They hold running averages (ns) over
    the sampled iterations: avg_backward_comm_time (first bucket's allreduce started to last one done) and
    avg_backward_compute_comm_overlap_time (of that, while backward still computed); their difference is the wait.
    An average times the number of samples is their sum, so the wait of the iterations sampled since the last read
    is a difference of sums; the number of samples follows from the last sampled iteration by DDP's rule
    (iterations 1-10, then every rate-th). The wait between two events is the latest mean per iteration times the
    iterations whose backward allreduced in between (counted at DDP's forward; several per step when a script
    accumulates without no_sync), so steps between two samples (GPUs sample every 100th iteration) carry the
    latest mean. A CPU model is sampled every iteration at first; from the 11th on, every iteration only when
    iterations 6-10 took 20 ms or more each, otherwise one in about 20 ms, at most every 100th (a sample costs DDP
    0.03-0.04 ms, which would weigh on short steps). Each DDP model is followed on its own (a GAN has two) and their
    waits add up."""

    DEFAULT_RATE = 100  # kDDPRuntimeLoggingSampleRate in PyTorch 1.13 and 2.x
    SAMPLE_EVERY_MS = 20.0

    class _Model:
        def __init__(self):
            self.rate = _CommWait.DEFAULT_RATE
            self.iteration = 0
            self.total_ns = 0
            self.mean_ms = None  # the latest wait per sampled iteration
            self.syncs = 0  # forwards whose backward allreduces, since the last event
            self.forwards = 0
            self.adapt = False  # a rate is still to be chosen
            self.adapt_from = None  # when the 6th forward started

    def __init__(self):
        self.models = weakref.WeakKeyDictionary()

    def syncing_forward(self, ddp):
        m = self.models.get(ddp)
        if m is None:
            m = self.models[ddp] = self._Model()
            try:
                rate = _requested_sample_rate()
                if rate is None and not any(p.is_cuda for p in ddp.parameters()):
                    rate = 1
                    m.adapt = True
                if rate is not None:
                    ddp._set_ddp_runtime_logging_sample_rate(rate)
                    m.rate = rate
            except Exception:  # a PyTorch without it samples at its default rate
                pass
        m.syncs += 1
        m.forwards += 1
        if m.adapt and m.forwards == 6:  # the first iterations build buckets and warm up: not timed
            m.adapt_from = time.perf_counter()
        elif m.adapt and m.forwards == 11:
            self._choose_rate(ddp, m)

    def _choose_rate(self, ddp, m):
        """Before the 11th iteration runs: DDP samples the first 10 whatever the rate, and _samples_up_to counts
        the later ones by the rate they were taken with."""
        iteration_ms = (time.perf_counter() - m.adapt_from) * 1000.0 / 5
        m.adapt = False
        rate = min(self.DEFAULT_RATE, max(1, math.ceil(self.SAMPLE_EVERY_MS / max(iteration_ms, 1e-3))))
        if rate == m.rate:
            return
        try:
            ddp._set_ddp_runtime_logging_sample_rate(rate)
            m.rate = rate
        except Exception:  # keeps the rate it had
            pass

    def _samples_up_to(self, m, iteration):
        if iteration <= 10:
            return iteration
        return 10 + iteration // m.rate - 10 // m.rate

    def _update(self, ddp, m):
        try:
            data = ddp._get_ddp_logging_data()
            iteration = int(data.get("iteration", 0))
            comm = data.get("avg_backward_comm_time")
            overlap = data.get("avg_backward_compute_comm_overlap_time")
        except Exception:  # a PyTorch without these statistics: no wait is reported
            return
        if comm is None or overlap is None or iteration <= m.iteration:
            return
        samples = self._samples_up_to(m, iteration)
        total = samples * max(0, int(comm) - int(overlap))
        new = samples - self._samples_up_to(m, m.iteration)
        if new > 0:
            m.mean_ms = max(0, total - m.total_ns) / new / 1e6
        m.iteration, m.total_ns = iteration, total

    def wait_since_last_ms(self, read=True):
        """Milliseconds waited in DDP's allreduce since the last call; None while nothing is known. read=False:
        from the latest mean, without asking DDP."""
        waited = None
        for ddp, m in list(self.models.items()):
            if read:
                self._update(ddp, m)
            if m.mean_ms is not None:
                waited = (waited or 0.0) + m.mean_ms * m.syncs
            m.syncs = 0
        return waited


_comm_wait = _CommWait()


def _requested_sample_rate():
    """$DDPDESK_INSTRUMENT_SAMPLE_RATE: DDP samples iterations 1-10 and then every N-th (GPU models: DDP's own
    100 unless set; CPU models: every one unless set). Steps between samples carry the latest wait."""
    value = os.environ.get("DDPDESK_INSTRUMENT_SAMPLE_RATE", "")
    try:
        return max(1, int(value)) if value else None
    except ValueError:
        sys.stderr.write(f"ddpdesk_instrument: DDPDESK_INSTRUMENT_SAMPLE_RATE={value!r} is not a number, ignored\n")
        return None


def _classic_client_stores():
    """DDP Desk hosts a single-node run's store on loopback and tells env:// so, as torchrun does
    (TORCHELASTIC_USE_AGENT_STORE=True). PyTorch 2.4+ then makes every rank a TCPStore client that asks for libuv,
    which builds without libuv (Windows wheels, Debian) refuse although a client never uses it: clients get the
    classic backend. PyTorch before 2.2 has no such argument and is left as it is."""
    if os.environ.get("TORCHELASTIC_USE_AGENT_STORE") != "True":
        return
    import importlib

    # the module: torch.distributed.rendezvous as an attribute is the function of that name
    rendezvous = importlib.import_module("torch.distributed.rendezvous")
    original = getattr(rendezvous, "TCPStore", None)
    if original is None:
        return

    def client_store(*args, **kwargs):
        is_master = kwargs.get("is_master", args[3] if len(args) > 3 else False)
        if not is_master and "use_libuv" not in kwargs:
            try:
                return original(*args, use_libuv=False, **kwargs)
            except TypeError:  # no use_libuv argument in this PyTorch
                pass
        return original(*args, **kwargs)

    rendezvous.TCPStore = client_store


def _stacks_on_request():
    """'Where does it hang?': every thread's Python stack, appended to $DDPDESK_STACKS_FILE when DDP Desk asks.
    POSIX asks with SIGUSR1, answered by faulthandler in C even while the main thread is stuck inside a collective
    or holds the GIL; Windows has no such signal, so a daemon thread watches for the request file
    $DDPDESK_STACKS_REQUEST (it answers while the main thread waits in C code that released the GIL, as
    collectives do). SIGUSR1 is the script's as much as ours: one with a handler of its own is never asked that
    way, since its handler would run (and one that exits would end the rank). So the signal is used only while the
    script leaves SIGUSR1 alone; the moment it takes it (signal.signal, _signal.signal, faulthandler.register or
    unregister) this process moves to the request file before the script's handler is installed. The announcement
    says which: the first line names this process, so the launcher never signals a process that has no handler
    for it, and " request-file" at its end says to ask through the file; the last announcement is the one that
    holds."""
    path = os.environ.get("DDPDESK_STACKS_FILE")
    if not path:
        return
    import faulthandler
    import signal

    out = open(path, "a", buffering=1)  # kept open for the life of the process: faulthandler writes to its fd
    _state["stacks_file"] = out
    signum = getattr(signal, "SIGUSR1", None)
    request = os.environ.get("DDPDESK_STACKS_REQUEST")
    sleep, remove = time.sleep, os.remove  # ours, whatever the script patches later
    owner = os.getpid()

    def announce(by_file):
        out.write(f"ddpdesk-stacks ready pid {os.getpid()} rank {_rank}{' request-file' if by_file else ''}\n")
        out.flush()

    def watch():
        while True:
            sleep(0.2)
            try:
                remove(request)
            except OSError:
                continue
            faulthandler.dump_traceback(file=out, all_threads=True)
            out.flush()

    def by_request_file():
        """From now on the request file, never the signal. The thread starts only then: a second thread makes
        Python 3.12 warn at every fork (DataLoader workers). A forked child of the rank shares the file but is
        not the rank: it announces nothing."""
        if _state.get("stacks_by_file") or os.getpid() != owner:
            return
        _state["stacks_by_file"] = True
        if request:
            threading.Thread(target=watch, name="ddpdesk-stacks", daemon=True).start()
        announce(True)  # even without a request file to watch: no signal any more

    # A disposition inherited from the parent (SIG_IGN) is the script's too.
    if signum is None or signal.getsignal(signum) != signal.SIG_DFL:
        by_request_file()
        return
    faulthandler.register(signum, file=out, all_threads=True, chain=False)
    announce(False)

    def takes_sigusr1(function):
        def guarded(*args, **kwargs):
            if (args[0] if args else kwargs.get("signum")) == signum:
                by_request_file()  # announced before the script's handler is in place
            return function(*args, **kwargs)

        for name in ("__name__", "__qualname__", "__doc__"):
            setattr(guarded, name, getattr(function, name, None))
        guarded.__wrapped__ = function
        return guarded

    signal.signal = takes_sigusr1(signal.signal)
    try:  # signal.signal calls _signal.signal by name: a script that imports _signal itself is seen too
        import _signal

        _signal.signal = takes_sigusr1(_signal.signal)
    except ImportError:
        pass
    faulthandler.register = takes_sigusr1(faulthandler.register)
    faulthandler.unregister = takes_sigusr1(faulthandler.unregister)


def _path0(script):
    """What `python SCRIPT` puts first on sys.path: the folder of the script with every symlink resolved
    (realpath; Windows: the absolute path, which Python does not resolve there)."""
    full = os.path.abspath(script) if os.name == "nt" else os.path.realpath(script)
    return os.path.dirname(full)


def _run_as_main(script):
    """Runs SCRIPT in a fresh __main__ module filled as `python SCRIPT` fills it (__file__ absolute since Python
    3.9, a source loader, __package__ and __spec__ None) rather than runpy's (relative __file__, no loader,
    __package__ ''). A folder, a zip or a .pyc is left to runpy, which knows those."""
    if not os.path.isfile(script) or script.endswith(".pyc"):
        runpy.run_path(script, run_name="__main__")
        return
    import importlib.machinery

    path = os.path.abspath(script) if sys.version_info >= (3, 9) else script
    main = types.ModuleType("__main__")
    main.__dict__.update(__file__=path, __cached__=None, __builtins__=builtins,
                         __loader__=importlib.machinery.SourceFileLoader("__main__", path))
    if sys.version_info < (3, 14):  # from 3.14 (PEP 649) a module's annotations are made lazily, not a dict
        main.__dict__["__annotations__"] = {}
    with open(path, "rb") as f:  # bytes: the script's own coding cookie decides
        source = f.read()
    code = compile(source, path, "exec", dont_inherit=True)
    _state["module"] = sys.modules.get(__name__)  # this module, no longer __main__, stays alive for its hooks
    sys.modules["__main__"] = main
    exec(code, main.__dict__)


def main():
    if len(sys.argv) < 2:
        sys.stderr.write("usage: python ddpdesk_instrument.py SCRIPT [ARGS...]\n")
        sys.exit(2)
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    # sys.path[0] is this module's folder so far and becomes the script's, as `python SCRIPT` has it; with -P or
    # PYTHONSAFEPATH Python added none, and `python SCRIPT` would add none either.
    if not getattr(sys.flags, "safe_path", False):
        sys.path[0] = _path0(script)
    try:  # first: the script's SIGUSR1 is watched for before anything else is imported
        _stacks_on_request()
    except Exception as e:
        sys.stderr.write(f"ddpdesk_instrument: stacks on request off ({e})\n")
    try:
        _install()
    except Exception as e:  # no torch, or an unexpected one: run the script unobserved rather than not at all
        sys.stderr.write(f"ddpdesk_instrument: progress reporting off ({e})\n")
    try:
        _classic_client_stores()
    except Exception as e:
        sys.stderr.write(f"ddpdesk_instrument: the store client is PyTorch's default ({e})\n")
    atexit.register(_at_exit)
    # A script that ends with os._exit (the fix for PyTorch's abort at exit, CPP_TERMINATE) skips atexit: its
    # last step is reported first.
    leave = os._exit

    def _exit(code):
        try:
            _at_exit()
        except BaseException:  # nothing may keep the script from leaving
            pass
        finally:
            leave(code)

    os._exit = _exit
    try:
        _run_as_main(script)
    except Exception as e:  # SystemExit and KeyboardInterrupt leave as Python has them leave
        _show_traceback(e)
        sys.exit(1)  # what Python exits with after an uncaught exception


def _at_exit():
    """The last validation pass's end and the last step, whatever the pipe's room."""
    if not _is_rank():
        return
    try:
        _validation.close(force=True)
    except Exception:
        pass
    _emit(force=True)


def _show_traceback(e):
    """Prints an uncaught exception as `python SCRIPT` does: from the script's first frame on, without this
    module's and runpy's frames ahead of it, through the script's own sys.excepthook if it set one."""
    here = os.path.normcase(os.path.abspath(__file__))
    tb = e.__traceback__
    while tb is not None and tb.tb_next is not None:
        frame = tb.tb_frame
        ours = os.path.normcase(os.path.abspath(frame.f_code.co_filename)) == here
        if not ours and frame.f_globals.get("__name__") != "runpy":
            break
        tb = tb.tb_next
    sys.excepthook(type(e), e.with_traceback(tb), tb)  # Python 3.11+ prints the exception's own traceback
    if isinstance(e, AttributeError) and str(e).startswith("module 'torch"):
        # A script written for a newer PyTorch: the launcher's TORCH_TOO_OLD names the release this one has.
        torch = sys.modules.get("torch")
        version = getattr(torch, "__version__", "unknown")
        sys.stderr.write(f"ddpdesk_instrument: this interpreter's PyTorch: {version} ({sys.executable})\n")


if __name__ == "__main__":
    main()
