#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora (tests/fuzz/corpus/NAME/) from the real formats: a handful of valid
inputs each, as PyTorch's TCPStore clients, the launchers, the instrumentation module, the worker and c10d's
FileStore write them (the formats as core/ documents them; the wire bytes as tests/net/store_clients.py and the
node-link tests send them). Rerun after a format changes: python3 tests/fuzz/make_seeds.py
Each target's input layout is described at the top of its fuzz_NAME.cpp."""
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
MAGIC = 0x3C85F7CE


def seeds(name, items):
    folder = os.path.join(HERE, "corpus", name)
    os.makedirs(folder, exist_ok=True)
    for f in os.listdir(folder):
        os.remove(os.path.join(folder, f))
    for seed_name, data in items.items():
        if isinstance(data, str):
            data = data.encode()
        with open(os.path.join(folder, seed_name), "wb") as f:
            f.write(data)


# --- the store wire (net/tcp_store_wire.h): strings and values are a uint64 LE length and the bytes
def s(b):
    if isinstance(b, str):
        b = b.encode()
    return struct.pack("<Q", len(b)) + b


def keys(*ks):
    return struct.pack("<Q", len(ks)) + b"".join(s(k) for k in ks)


V2 = dict(validate=0, set=1, cas=2, get=3, add=4, check=5, wait=6, numkeys=7, delete=8, append=9, multiget=10,
          multiset=11, cancelwait=12, ping=13)
V1 = dict(set=0, cas=1, get=2, add=3, check=4, wait=5, numkeys=6, watch=7, delete=8)
rank0 = "/default_pg//0/rank_0"
v2_start = bytes([V2["validate"]]) + struct.pack("<I", MAGIC)
seeds("store_session", {
    # PyTorch 2.x init_process_group: validate, ping, set, add (the rendezvous counter), wait, get, check
    "v2_rendezvous": v2_start + bytes([V2["ping"]]) + struct.pack("<I", 1234)
    + bytes([V2["set"]]) + s("/default_pg//0/rank_1") + s("127.0.0.1:40000")
    + bytes([V2["add"]]) + s("/default_pg//0/init") + struct.pack("<q", 1)
    + bytes([V2["wait"]]) + keys(rank0) + bytes([V2["get"]]) + s(rank0)
    + bytes([V2["check"]]) + keys(rank0, "missing"),
    "v2_multi": v2_start + bytes([V2["multiset"]]) + struct.pack("<Q", 2) + s("a") + s("1") + s("b") + s("2")
    + bytes([V2["multiget"]]) + keys("a", "b", "a") + bytes([V2["append"]]) + s("a") + s("xyz")
    + bytes([V2["cas"]]) + s("a") + s("1xyz") + s("new") + bytes([V2["numkeys"]])
    + bytes([V2["delete"]]) + s("b") + bytes([V2["wait"]]) + keys("later") + bytes([V2["cancelwait"]]),
    "v2_wait_then_set": v2_start + bytes([V2["wait"]]) + keys("k") + bytes([V2["set"]]) + s("k") + s("v"),
    # PyTorch 1.x: no validation, query codes one lower
    "v1_rendezvous": bytes([V1["set"]]) + s("/default_pg//0/rank_1") + s("127.0.0.1:40000")
    + bytes([V1["add"]]) + s("/default_pg//0/init") + struct.pack("<q", 1)
    + bytes([V1["wait"]]) + keys(rank0) + bytes([V1["get"]]) + s(rank0),
    "v1_misc": bytes([V1["check"]]) + keys("counter") + bytes([V1["cas"]]) + s("counter") + s("5") + s("6")
    + bytes([V1["numkeys"]]) + bytes([V1["delete"]]) + s("counter") + bytes([V1["add"]]) + s("counter")
    + struct.pack("<q", -3),
    "v2_unknown_query": v2_start + bytes([0x2a]),
})

# --- node-link frames (protocol/node_link.h): in the targets' signed mode, one payload a line
hello = {"type": "hello", "v": 1, "node_rank": 1, "host": "node-b", "world_size": 4, "nproc": 2}
events = {"type": "events", "dropped": 0, "events": [
    {"event": "step", "v": 1, "rank": 2, "t": 1700000000.5, "step": 10, "loss": 0.25},
    {"event": "log", "v": 1, "rank": -1, "t": 1700000000.6, "stream": "stdout", "text": "hi"}]}
heartbeat = {"type": "events", "dropped": 3, "events": []}


def lines(*objs):
    return "\n".join(o if isinstance(o, str) else json.dumps(o, separators=(",", ":")) for o in objs)


def frame(body):
    return struct.pack(">I", len(body)) + body


unsigned_hello = frame(b"0" * 64 + json.dumps(hello).encode())
link_seeds = {
    "signed_session": b"\x01" + lines(hello, events, heartbeat).encode(),
    "signed_bad_hello": b"\x01" + lines(dict(hello, node_rank=7), events).encode(),
    "signed_other_nodes_rank": b"\x01" + lines(hello, {"type": "events", "dropped": 0, "events": [
        {"event": "step", "v": 1, "rank": 0, "step": 1}, 5, "x", None]}).encode(),
    "raw_unsigned_hello": b"\x00" + unsigned_hello,
    "raw_short_length": b"\x00" + struct.pack(">I", 70) + b"0" * 10,
    "segment_name": b"\x00node-1-00000000deadbeef-3.frames",
}
seeds("link_frames", link_seeds)
seeds("link_server", {k: v for k, v in link_seeds.items() if k != "segment_name"})

challenge = {"type": "challenge", "v": 1, "nonce": "00112233445566778899aabbccddeeff"}
seeds("link_client", {
    "welcome_then_requests": b"\x01" + lines(challenge, {"type": "welcome"}, {"type": "stacks", "reason": "hang"},
                                             {"type": "stop", "reason": "the run failed"}).encode(),
    "refused": b"\x03" + lines(challenge, {"type": "refused", "why": "node rank 1 is taken"}).encode(),
    "not_a_challenge": b"\x01" + lines({"type": "welcome"}).encode(),
    "raw_challenge": b"\x00" + frame(b"0" * 64 + json.dumps(challenge).encode()),
})

session = "00000000deadbeef"
header = lambda k: {"type": "segment", "v": 1, "node": 1, "session": session, "segment": k}
seeds("folder_stream", {
    "one_segment": b"\x01" + lines(header(0), hello, events, heartbeat, {"type": "bye"}).encode(),
    "two_segments": b"\x41" + lines(header(0), hello, events, {"type": "next"}, "%%", header(1), heartbeat,
                                    {"type": "bye"}).encode(),
    "wrong_header": b"\x01" + lines(dict(header(0), node=2), hello).encode(),
    "raw_header_only": b"\x00" + frame(b"0" * 64 + json.dumps(header(0)).encode()),
})

# --- telemetry lines (protocol/telemetry.h), as the worker and the instrumentation module print them
tele = [
    {"event": "rank_start", "v": 1, "rank": 0, "t": 1700000000.0, "world_size": 2, "pid": 4242},
    {"event": "step", "v": 1, "rank": 1, "t": 1700000001.25, "step": 12, "epoch": 0, "loss": 0.5,
     "samples_per_s": 812.5, "source": "ddpdesk_instrument"},
    {"event": "step", "v": 1, "rank": 0, "t": 1700000001.5, "step": 13, "loss": None, "loss_non_finite": "nan"},
    {"event": "epoch_end", "v": 1, "rank": 0, "t": 1700000002.0, "epoch": 1, "val_loss": 0.1},
    {"event": "eval", "v": 1, "rank": 0, "t": 1700000002.5, "state": "end", "step": 13, "samples": 480,
     "eval_ms": 1478.7, "eval_total_ms": 2950.1, "passes": 2, "source": "instrument"},
    {"event": "checkpoint", "v": 1, "rank": 0, "t": 1700000002.6, "step": 13, "path": "ckpt.pt",
     "elapsed_ms": 120.5, "saves": 3, "save_total_ms": 350.2, "source": "instrument"},
    {"event": "rank_exit", "v": 1, "rank": 0, "t": 1700000003.0, "code": 0, "status": "ok"},
]
seeds("telemetry", {f"event_{i}": json.dumps(e, separators=(",", ":")) for i, e in enumerate(tele)} |
      {"log_text": "epoch 1 loss=0.25", "future_major": '{"event":"step","v":2,"rank":0}'})

# --- the collective-progress record (protocol/collective_progress.h): JSON padded to 511 bytes and a newline
def record(obj):
    text = json.dumps(obj, separators=(",", ":"))
    return (text + " " * (511 - len(text)) + "\n").encode()


seeds("collective_progress", {
    "inside_allreduce": record({"pid": 4242, "entered": 12, "completed": 11, "kind": "allreduce",
                                "bytes": 4194304, "detail": "DDP gradients", "t": 1700000001.5}),
    "flight_recorder": record({"pid": 4243, "entered": 12, "completed": 12, "kind": "broadcast", "bytes": 64,
                               "detail": "bucket 2 of 3", "t": 1700000001.5, "fr_entered": 40,
                               "fr_completed": 39, "fr_kind": "allreduce", "fr_bytes": 1024,
                               "fr_t": 1700000001.25}),
    "half_written": record({"pid": 1, "entered": 1, "completed": 0, "kind": "barrier", "bytes": 0,
                            "detail": "", "t": 1.0})[:200],
    # One entry of the last collectives after the record (protocol/collective_history.h): 383 bytes and a newline.
    "history_entry": (lambda t: (t + " " * (383 - len(t)) + "\n").encode())(json.dumps(
        {"seq": 1, "op": "allreduce", "bytes": 36, "dtype": "float32", "shape": "", "group": "default",
         "state": "completed", "t0": 1700000001.5, "site": "train.py:48", "t1": 1700000001.6},
        separators=(",", ":"))),
})

# --- the output mark (protocol/output_mark.h)
seeds("output_mark", {
    "mark": json.dumps({"format": "ddpdesk-output-1", "files": ["checkpoint.pt", "model.pt", "summary.json"]}),
    "empty_list": json.dumps({"format": "ddpdesk-output-1", "files": []}),
    "other_format": json.dumps({"format": "ddpdesk-output-2", "files": ["x"]}),
})

# --- a c10d FileStore file: records of uint32 LE length + key, uint32 LE length + value; '-' deletes
def rec(k, v):
    k, v = k.encode(), v.encode()
    return struct.pack("<I", len(k)) + k + struct.pack("<I", len(v)) + v


seeds("file_store_reader", {
    "rendezvous": rec("/default_pg//0/rank_0", "127.0.0.1:29500") + rec("/default_pg//0/init", "2")
    + rec("cleanup/", "1") + rec("refcount/", "2"),
    "deleted_key": rec("/a", "1") + rec("-/a", "") + rec("/b", "2"),
    "truncated": (rec("/a", "1") + rec("/b", "22222"))[:-3],
})

# --- rank lines (launch/run/rank_line_reader.h): mode byte, then lines
seeds("rank_line", {
    "worker": b"\x00" + "\n".join(json.dumps(e, separators=(",", ":")) for e in tele).encode(),
    "script_loss_lines": b"\x05" + b"epoch 1 step 10 loss=0.5\nTraceback (most recent call last):\nstep 11 loss: 0.25",
    "script_instrumented": b"\x02" + "\n".join(json.dumps(dict(e, source="ddpdesk_instrument"),
                                                          separators=(",", ":")) for e in tele).encode(),
})

# --- a profile (RunConfig::toJson's keys, as saveProfile writes them)
seeds("profile", {
    "worker": json.dumps({"workload": "autoencoder", "nproc": 2, "nnodes": 1, "node_rank": 0, "devices": "cpu",
                          "store": "file", "out": "/tmp/runs/a", "max_restarts": 1, "timeout": 60,
                          "stall_timeout": 120, "straggler_after": 30, "node_link": "auto",
                          "steps": 200, "batch_size": 32, "lr": 0.01, "seed": 1}, indent=2),
    "script": json.dumps({"script": "train.py", "script_args": ["--epochs", "2"], "nproc": 4,
                          "loss_regex": "loss[=:] *([0-9.eE+-]+)", "store": "tcp://127.0.0.1:29500",
                          "out": "runs/b", "python": "python3", "instrument": True, "use_local_rank_arg": False}, indent=2),
})

# --- metrics.jsonl (+ "%%summary.json" and summary.json) of a finished run
metrics = [
    {"event": "rank_start", "v": 1, "rank": 0, "t": 1700000000.0, "world_size": 2},
    {"event": "rank_start", "v": 1, "rank": 1, "t": 1700000000.1, "world_size": 2},
    {"event": "step", "v": 1, "rank": 0, "t": 1700000001.0, "step": 1, "loss": 0.9},
    {"event": "step", "v": 1, "rank": 1, "t": 1700000001.1, "step": 1, "loss": 0.8},
    {"event": "eval", "v": 1, "rank": 0, "t": 1700000001.15, "state": "begin", "step": 1, "samples": 32,
     "eval_ms": 50.8, "eval_total_ms": 50.8, "passes": 1},
    {"event": "eval", "v": 1, "rank": 0, "t": 1700000001.18, "state": "end", "step": 1, "samples": 64,
     "eval_ms": 80.2, "eval_total_ms": 80.2, "passes": 1},
    {"event": "gpu", "v": 1, "rank": -1, "t": 1700000001.2, "gpus": []},
    {"event": "rank_exit", "v": 1, "rank": 0, "t": 1700000002.0, "code": 0},
    {"event": "rank_exit", "v": 1, "rank": 1, "t": 1700000002.0, "code": 0},
]
jsonl = "\n".join(json.dumps(m, separators=(",", ":")) for m in metrics) + "\n"
seeds("run_replay", {
    "finished": jsonl + "%%summary.json\n" + json.dumps({"status": "ok", "world_size": 2, "steps": 1}),
    "cut_off": jsonl[: len(jsonl) // 2],
})
