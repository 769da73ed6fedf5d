#!/usr/bin/env python3
"""How many test cases of tests/train and tests/launch run without starting a process (issue 43's share).

Runs every case of every launch.* and train.* test alone, as ctest would (its command, environment and
folder, read from `ctest --show-only=json-v1`), with exec_mark.c preloaded: a case that starts a process
is stopped at its first one and counted with the program it started; the others run to their end. A case's
data rows count as one case, and a process the test's initTestCase starts counts for every case.
POSIX only. Usage: tests/support/in_process_share.py BUILD_DIR [TEST_NAME ...]  (prints each case, then
the totals; exit 0).
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def cases_of(name, command, env, cwd):
    listing = subprocess.run(command[:1] + ["-functions"], capture_output=True, text=True, timeout=60,
                             env=env, cwd=cwd).stdout
    cases = [line.strip()[:-2] for line in listing.splitlines() if line.strip().endswith("()")]
    if cases:
        return cases
    # tests/support/mini_test.h: its cases are the TEST_CASE names in the source, run by name.
    folder, stem = name.split(".", 1)
    with open(os.path.join(ROOT, "tests", folder, "test_" + stem + ".cpp"), encoding="utf-8") as f:
        return re.findall(r"TEST_CASE\((\w+)\)", f.read())


def main():
    build, only = sys.argv[1], sys.argv[2:]
    work = tempfile.mkdtemp(prefix="ddpdesk-share-")
    mark_lib = os.path.join(work, "exec_mark.so")
    subprocess.run(["cc", "-shared", "-fPIC", "-O1", "-o", mark_lib, os.path.join(HERE, "exec_mark.c"), "-ldl"],
                   check=True)
    tests = json.loads(subprocess.run(["ctest", "--show-only=json-v1"], cwd=build, capture_output=True,
                                      text=True, check=True).stdout)["tests"]
    total = inside = 0
    for t in tests:
        name = t["name"]
        if not name.startswith(("launch.", "train.")) or (only and name not in only):
            continue
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
        for pair in props.get("ENVIRONMENT", []) or []:
            key, value = pair.split("=", 1)
            env[key] = value
        cwd = props.get("WORKING_DIRECTORY")
        lines, count = [], 0
        cases = cases_of(name, t["command"], env, cwd)
        for case in cases:
            mark = os.path.join(work, "mark")
            if os.path.exists(mark):
                os.remove(mark)
            started = time.time()
            try:
                subprocess.run(t["command"] + [case], capture_output=True, timeout=300, cwd=cwd,
                               env=dict(env, LD_PRELOAD=mark_lib, DDPDESK_EXEC_MARK=mark))
            except subprocess.TimeoutExpired:
                pass
            first = open(mark).readline().strip() if os.path.exists(mark) else ""
            count += not first
            lines.append("    %-7s %-66s %6.1f s %s" % ("process" if first else "in", case,
                                                        time.time() - started, first))
        total += len(cases)
        inside += count
        print("%-34s %3d cases, %3d in this process" % (name, len(cases), count))
        print("\n".join(lines), flush=True)
    print("total: %d cases, %d in this process (%.1f %%)" % (total, inside, 100.0 * inside / max(total, 1)))


if __name__ == "__main__":
    main()
