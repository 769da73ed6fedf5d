#!/usr/bin/env python3
"""docs/architecture.md's map against the tree: every folder under core/ that holds source files has a row in the
Rooms table, and every folder a row names is still there.

    docs_architecture.py ROOT

A row names its folders in backticks in its first cell (`core/launch/run`, or several: `core/plot`, `ui/`, `app/`);
a trailing slash is optional. A folder counts when it holds a source file itself (SUFFIXES), at any depth under core/:
core/launch holds only a CMakeLists.txt, so core/launch/run needs a row and core/launch does not. Each failure is
one line naming the folder; exit 0 when the map and the tree agree, 1 otherwise, 2 on bad use.
"""
import os
import re
import sys

SUFFIXES = (".cpp", ".h", ".hpp", ".cc", ".c", ".in", ".py")
DOC = "docs/architecture.md"
SECTION = "## Rooms"


def rows(text):
    """Yields (line number, [folder, ...]) for each row of the first table in the Rooms section."""
    inside = in_table = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("## "):
            inside = line.strip() == SECTION
            continue
        if not inside:
            continue
        if line.startswith("|"):
            in_table = True
            first = line.strip().strip("|").split("|")[0].strip()
            if first == "room" or set(first) <= set("-: "):
                continue  # the header and the separator
            yield number, [name.rstrip("/") for name in re.findall(r"`([^`]+)`", first)]
        elif in_table:
            return


def source_folders(root):
    found = set()
    for folder, dirs, files in os.walk(os.path.join(root, "core")):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        if any(f.endswith(SUFFIXES) for f in files):
            found.add(os.path.relpath(folder, root).replace(os.sep, "/"))
    return found


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = sys.argv[1]
    with open(os.path.join(root, DOC), encoding="utf-8") as f:
        text = f.read()
    failures, named = [], set()
    table = list(rows(text))
    if not table:
        failures.append(f"{DOC}: no table under '{SECTION}'")
    for number, names in table:
        if not names:
            failures.append(f"{DOC}:{number}: a row whose first cell names no folder in backticks")
        for name in names:
            named.add(name)
            if not os.path.isdir(os.path.join(root, name)):
                failures.append(f"{DOC}:{number}: the row for {name} names a folder that is gone")
            elif name.startswith("core/") and name not in source_folders(root):
                failures.append(f"{DOC}:{number}: {name} holds no source file of its own; its row should go "
                                f"(or name the folders under it)")
    folders = source_folders(root)
    for folder in sorted(folders - named):
        failures.append(f"{DOC}: {folder} holds source files but has no row in the Rooms table")
    for failure in failures:
        print(failure)
    print(f"docs_architecture: {len(folders)} folders under core/ with source files, {len(named)} named in "
          f"{DOC}: {'OK' if not failures else str(len(failures)) + ' problem(s)'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
