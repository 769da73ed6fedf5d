#!/usr/bin/env python3
"""The manual against the programs' --help: every flag a doc names exists, and every flag is documented.

    docs_flags.py ROOT BIN_DIR
    docs_flags.py ROOT DDPDESK_CLI DDPDESK_WORKER DDPDESK

ROOT is the source tree (README.md, docs/*.md); BIN_DIR holds the built ddpdesk-cli, ddpdesk-worker and ddpdesk,
or the three programs are given one by one (ctest does, with their target files).
The flags each program has are read from its --help: `ddpdesk-cli SUB --help` for every subcommand
`ddpdesk-cli --help` lists, `ddpdesk-worker --help`, and `ddpdesk --help` (offscreen). Four rules:

1. Every `--flag` in README.md and docs/*.md, in prose, backticks or code blocks, is a flag of one of those programs,
   a flag of ours that no --help lists (OWN_ELSEWHERE: the file that defines it must still contain it), or a
   foreign program's flag (FOREIGN, with the program it belongs to).
2. A command line in code (a fenced block, or one `inline span`) that calls `ddpdesk-cli SUB`, `ddpdesk-worker` or
   `ddpdesk` gives that program only its own flags, up to the end of the command (a line not ending in `\\`, `|`,
   `;`, `&&`, `||`) or a bare `--` (what follows is the script's).
3. Every flag a --help lists appears in the doc that owns that program (DOC_OF), as `--flag` (or `--flag=`).
4. A usage block (USAGE: the first fenced block under a doc's heading) names every flag of its subcommand.

Each failure names the file and line, or the program and the doc. Exit 0 when all hold, 1 otherwise, 2 on bad use.
"""
import glob
import os
import re
import subprocess
import sys

# Flags of ours that no --help lists: the file that must still define each, and the program of ours that takes it
# (None: a script or benchmark, not a program the docs' command lines are checked against).
OWN_ELSEWHERE = {
    "--wait-for-config": ("core/protocol/warm_start.h", "ddpdesk-worker"),  # warm start: the launcher gives it
    "--programs": ("installer/build.sh", None),
    "--pack": ("tests/gpu/device-check.sh", None),
    "--cpu-dry-run": ("tests/gpu/device-check.sh", None),
    "--load": ("tests/ui/bench_ui_latency.cpp", None),  # bench_ui_latency: a benchmark, no --help
    "--prefill": ("tests/ui/bench_ui_latency.cpp", None),
    "--rate": ("tests/ui/bench_ui_latency.cpp", None),
    "--ranks": ("tests/ui/bench_ui_latency.cpp", None),
    "--seconds": ("tests/ui/bench_ui_latency.cpp", None),
    "--nodes": ("tests/ui/bench_ui_latency.cpp", None),  # and Slurm's sbatch
}

# Other programs' flags the docs name, with the program. A flag of ours is never listed here.
FOREIGN = {
    "--build": "cmake --build",
    "--target": "cmake --build --target",
    "--config": "cmake --build --config",
    "--parallel": "cmake --build --parallel",
    "--test-dir": "ctest --test-dir",
    "--output-on-failure": "ctest --output-on-failure",
    "--nproc_per_node": "torchrun",
    "--node_rank": "torchrun",
    "--master_addr": "torchrun",
    "--master_port": "torchrun",
    "--no_python": "torchrun",
    "--rdzv_backend": "torchrun",
    "--rdzv_endpoint": "torchrun",
    "--max_restarts": "torchrun (what `command` turns --max-restarts into)",
    "--rdzv-backend": "torchrun (the spelling torch.distributed.run also accepts)",
    "--ntasks-per-node": "Slurm's sbatch",
    "--cpus-per-task": "Slurm's sbatch",
    "--gpus-per-node": "Slurm's sbatch",
    "--oversubscribe": "Open MPI's mpirun",
    "--allow-run-as-root": "Open MPI's mpirun",
    "--logdir": "tensorboard",
    "--query-gpu": "nvidia-smi",
    "--mount": "unshare (util-linux)",
    "--uts": "unshare (util-linux)",
    "--ipc": "unshare (util-linux)",
    "--release": "windeployqt",
    "--debug": "windeployqt",
    "--no-compiler-runtime": "windeployqt",
    "--change": "the duplicates tool (docs/architecture.md's habits)",
}

# Where each program's flags must be documented.
DOC_OF = {
    "ddpdesk-cli": "docs/launcher.md",  # ddpdesk-cli --version
    "run": "docs/launcher.md",
    "sweep": "docs/launcher.md",
    "command": "docs/launcher.md",
    "stacks": "docs/launcher.md",
    "doctor": "docs/doctor.md",
    "gpus": "docs/monitor.md",
    "ddpdesk-worker": "docs/engine.md",
    "ddpdesk": "docs/gui.md",
}
# The usage blocks that list every flag of a subcommand: (doc, heading); the first fenced block under the heading.
USAGE = {
    "run": ("docs/launcher.md", "## `ddpdesk-cli run`"),
}
# Every program has these; no doc needs to say so.
UNIVERSAL = {"--help", "--help-all"}

FLAG = re.compile(r"(?<![\w\-/.])--[A-Za-z][A-Za-z0-9_\-]*")
OPTION_LINE = re.compile(r"^ {1,4}(-\S.*)$")


def program(bin_dir, name):
    for candidate in (name, name + ".exe"):
        path = os.path.join(bin_dir, candidate)
        if os.path.isfile(path):
            return path
    sys.exit(f"docs_flags: no {name} in {bin_dir}")


def help_text(argv):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=60,
                          universal_newlines=True)
    if done.returncode != 0:
        sys.exit(f"docs_flags: {' '.join(argv)} exited {done.returncode}:\n{done.stdout}{done.stderr}")
    return done.stdout


def flags_of(text):
    """The long flags of a --help (CLI11's and Qt's layouts): option lines are indented by at most 4 spaces, their
    descriptions' continuation lines by more."""
    found = set()
    for line in text.splitlines():
        m = OPTION_LINE.match(line)
        if not m:
            continue
        for token in m.group(1).split():
            token = token.rstrip(",")
            if not token.startswith("-"):
                break
            for name in token.split(","):
                name = re.split(r"[{=<\[]", name, maxsplit=1)[0]
                if name.startswith("--"):
                    found.add(name)
    return found


def subcommands(text):
    subs, inside = [], False
    for line in text.splitlines():
        if line.strip() == "Subcommands:":
            inside = True
        elif inside:
            m = re.match(r"^  ([a-z][a-z0-9-]*)\s", line)
            if m:
                subs.append(m.group(1))
            elif line and not line.startswith(" "):
                inside = False
    return subs


def code_commands(text):
    """Yields (line number, command text) for each command of a fenced block and each inline code span outside them.
    In a block, a line ending in a backslash continues on the next, and so does a usage line wrapped onto indented
    lines that start with a flag or an optional one (`    [--epochs E | --steps S]`)."""
    fence = None
    pending, pending_line, continued = None, 0, False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("```") or stripped.startswith("~~~"):
            if pending is not None:
                yield pending_line, pending
            pending, continued = None, False
            fence = None if fence else stripped[:3]
            continue
        if fence:
            wrapped = pending is not None and line[:1].isspace() and stripped.startswith(("--", "[-"))
            if continued or wrapped:
                pending += " " + stripped
            else:
                if pending is not None:
                    yield pending_line, pending
                pending, pending_line = stripped, number
            continued = pending.endswith("\\")
            if continued:
                pending = pending[:-1]
        else:
            for span in re.findall(r"(`+)(.+?)\1", line):
                yield number, span[1]
    if pending is not None:
        yield pending_line, pending


OURS = re.compile(r"(?:^|(?<=[\s(\"'/\\]))(ddpdesk-cli|ddpdesk-worker|ddpdesk)(?:\.exe)?(?=\s|$)")
END = re.compile(r"\s(?:\||;|&&|\|\|)\s|\s--(?=\s|$)")


def masked(text):
    """text with what is inside [...] blanked, so a usage line's alternatives (`[--epochs E | --steps S]`) are not
    read as a pipe."""
    out, depth = [], 0
    for c in text:
        depth += c == "["
        out.append(c if depth == 0 else "_")
        depth -= c == "]" and depth > 0
    return "".join(out)


def check_command(command, programs, report):
    """Rule 2 on one command text: report(message) for each flag given to a program of ours that it lacks."""
    for m in OURS.finditer(command):
        name = m.group(1)
        rest = command[m.end():]
        if name == "ddpdesk-cli":
            words = rest.split()
            if words and words[0] in programs and words[0] not in ("ddpdesk-worker", "ddpdesk"):
                name = words[0]
                rest = rest[rest.index(words[0]) + len(words[0]):]
        end = END.search(masked(rest))
        if end:
            rest = rest[:end.start()]
        # A later program on the same line (`torchrun ... ddpdesk-worker ...`) gets its own pass.
        later = OURS.search(rest)
        if later:
            rest = rest[:later.start()]
        for flag in FLAG.findall(rest):
            hidden = OWN_ELSEWHERE.get(flag, (None, None))[1] == name
            if flag not in programs[name] and flag not in UNIVERSAL and not hidden:
                label = name if name.startswith("ddpdesk") else "ddpdesk-cli " + name
                shown = command.strip() if len(command.strip()) <= 100 else command.strip()[:97] + "..."
                report(f"`{label}` has no {flag} (in: {shown})")


def main():
    if len(sys.argv) == 3:
        root, bin_dir = sys.argv[1], sys.argv[2]
        cli, worker, gui = (program(bin_dir, name) for name in ("ddpdesk-cli", "ddpdesk-worker", "ddpdesk"))
    elif len(sys.argv) == 5:
        root, cli, worker, gui = sys.argv[1:]
    else:
        print(__doc__, file=sys.stderr)
        return 2
    top = help_text([cli, "--help"])
    programs = {"ddpdesk-cli": flags_of(top)}
    for sub in subcommands(top):
        programs[sub] = flags_of(help_text([cli, sub, "--help"]))
    if len(programs) == 1:
        sys.exit("docs_flags: ddpdesk-cli --help lists no subcommands")
    programs["ddpdesk-worker"] = flags_of(help_text([worker, "--help"]))
    programs["ddpdesk"] = flags_of(help_text([gui, "--help"]))
    every = set().union(*programs.values())

    failures = []
    for flag, (path, _) in OWN_ELSEWHERE.items():
        if flag in every:
            failures.append(f"tests/style/docs_flags.py: {flag} is in a --help now; take it off OWN_ELSEWHERE")
        full = os.path.join(root, path)
        source = ""
        if os.path.isfile(full):
            with open(full, encoding="utf-8") as f:
                source = f.read()
        if flag not in source:
            failures.append(f"tests/style/docs_flags.py: OWN_ELSEWHERE says {path} defines {flag}; it does not")
    for flag in FOREIGN:
        if flag in every:
            failures.append(f"tests/style/docs_flags.py: {flag} is ours now; take it off FOREIGN")

    docs = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    texts = {}
    for path in docs:
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        with open(path, encoding="utf-8") as f:
            texts[rel] = f.read()
        for number, line in enumerate(texts[rel].splitlines(), 1):
            for flag in FLAG.findall(line):
                if flag not in every and flag not in OWN_ELSEWHERE and flag not in FOREIGN:
                    failures.append(f"{rel}:{number}: {flag} is no flag of ddpdesk-cli, ddpdesk-worker or ddpdesk "
                                    f"(nor listed in tests/style/docs_flags.py)")
        for number, command in code_commands(texts[rel]):
            check_command(command, programs, lambda message: failures.append(f"{rel}:{number}: {message}"))

    for name, flags in sorted(programs.items()):
        doc = DOC_OF.get(name)
        if doc is None:
            failures.append(f"tests/style/docs_flags.py: ddpdesk-cli {name} is new; say in DOC_OF which doc owns it")
            continue
        documented = set(FLAG.findall(texts.get(doc, "")))
        for flag in sorted(flags - UNIVERSAL - documented):
            label = name if name.startswith("ddpdesk") else "ddpdesk-cli " + name
            failures.append(f"{doc}: `{label}` has {flag} (its --help lists it); the doc never names it")

    for name, (doc, heading) in sorted(USAGE.items()):
        text = texts.get(doc, "")
        at = text.find("\n" + heading + "\n")
        block = re.search(r"^```[^\n]*\n(.*?)^```", text[at:], re.S | re.M) if at >= 0 else None
        if not block:
            failures.append(f"{doc}: no usage block under '{heading}'")
            continue
        given = set(FLAG.findall(block.group(1)))
        for flag in sorted(programs.get(name, set()) - UNIVERSAL - given):
            failures.append(f"{doc}: the usage under '{heading}' lacks {flag} (`ddpdesk-cli {name} --help` lists it)")

    for failure in failures:
        print(failure)
    counted = sum(len(f) for f in programs.values())
    print(f"docs_flags: {len(programs)} programs, {counted} flags, {len(texts)} docs: "
          f"{'OK' if not failures else str(len(failures)) + ' problem(s)'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
